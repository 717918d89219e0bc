package rating

import (
	"context"
	"math"
)

// TuneAxis is one constant self-tuning may move, within the sane
// range [Min, Max]; Log searches it on a log scale, for constants whose
// effect is multiplicative (an RD, a K factor, a scale).
type TuneAxis struct {
	Key      string
	Min, Max float64
	Log      bool
}

// tuneSpaces are the constants self-tuning fits per model. The ranges are
// wide enough for any community we can imagine and narrow enough that no
// point breaks the model: RDs between a settled player and Glicko's
// RD_max, idle growth from a year to a week to regrow, no negative boost.
var tuneSpaces = map[string][]TuneAxis{
	"team-glicko": {
		{"boost", 0, 6, false},
		{"c", 0.1, 40, true},
		{"rd0", 40, 350, true},
		{"scale", 0.25, 4, true},
	},
	"glicko": {
		{"rd0", 40, 350, true},
		{"c", 0.1, 40, true},
	},
	"glicko-boost": {
		{"boost", 0, 6, false},
		{"c", 0.1, 40, true},
		{"rd0", 40, 350, true},
		{"scale", 0.1, 4, true},
	},
	"elo": {
		{"k", 1, 128, true},
	},
	"synelo": {
		{"k_max", 8, 127, true},
		{"k_min", 0.5, 40, true},
		{"sigma", 50, 1600, true},
	},
	"openskill": {
		{"sigma", 0.5, 16, true},
		{"beta", 0.5, 16, true},
		{"tau", 0.005, 1, true},
	},
	"trueskill": {
		{"sigma", 0.5, 16, true},
		{"beta", 0.5, 16, true},
		{"tau", 0.005, 1, true},
	},
}

// TuneSpace returns the constants self-tuning fits for the named model.
func TuneSpace(model string) ([]TuneAxis, error) {
	s, ok := tuneSpaces[model]
	if !ok {
		return nil, unknownModel(model)
	}
	return append([]TuneAxis(nil), s...), nil
}

// toUnit maps x in [a.Min, a.Max] to [0, 1], on a log scale when a.Log.
func (a TuneAxis) toUnit(x float64) float64 {
	x = math.Min(a.Max, math.Max(a.Min, x))
	if a.Log {
		return math.Log(x/a.Min) / math.Log(a.Max/a.Min)
	}
	return (x - a.Min) / (a.Max - a.Min)
}

// fromUnit is the inverse of toUnit, rounded to 4 significant digits so the
// constants a queue records read well and replay exactly.
func (a TuneAxis) fromUnit(u float64) float64 {
	var x float64
	if a.Log {
		x = a.Min * math.Exp(u*math.Log(a.Max/a.Min))
	} else {
		x = a.Min + u*(a.Max-a.Min)
	}
	return roundSig(math.Min(a.Max, math.Max(a.Min, x)), 4)
}

func roundSig(x float64, digits int) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	p := math.Pow(10, float64(digits)-math.Ceil(math.Log10(math.Abs(x))))
	return math.Round(x*p) / p
}

// TuneOptions controls one fit of a model's constants.
type TuneOptions struct {
	// Burnin is the fraction of the matches replayed but not scored: every
	// model predicts badly while everyone is new. Default 0.5.
	Burnin float64
	// MaxEvals bounds the number of replays. Default 80.
	MaxEvals int
}

func (o TuneOptions) withDefaults() TuneOptions {
	if o.Burnin <= 0 || o.Burnin >= 1 {
		o.Burnin = 0.5
	}
	if o.MaxEvals <= 0 {
		o.MaxEvals = 80
	}
	return o
}

// TuneResult is the outcome of a fit.
type TuneResult struct {
	// Params are every parameter of the model, the fitted ones included.
	Params map[string]float64
	// LogLoss is the prequential log loss of Params on the fitted matches.
	LogLoss float64
	// Evals is the number of replays the search used.
	Evals int
}

// Tune fits the model's TuneSpace constants by prequential log loss on
// matches [0, end): each candidate replays them from new players and is
// scored on those after the burn-in, each prediction made only from the
// matches before it. The search is a deterministic pattern search from
// start (the constants in force) in the unit cube of the axes: try a step
// up and down each axis, keep any improvement, halve the step when none
// helps. Log loss as a function of a model's constants is smooth and
// nearly unimodal, so this finds the optimum in a few dozen replays where
// a grid needs thousands, which is what makes a 100,000-match log cheap.
// A cancelled ctx stops the search with ctx's error.
func (d *Dataset) Tune(ctx context.Context, model string, start map[string]float64, end int, opt TuneOptions) (TuneResult, error) {
	opt = opt.withDefaults()
	axes, err := TuneSpace(model)
	if err != nil {
		return TuneResult{}, err
	}
	base, err := ResolveParams(model, start)
	if err != nil {
		return TuneResult{}, err
	}
	end = max(0, min(end, d.Len()))
	from := WarmupStart(end, opt.Burnin)
	preds := make([]float64, end)
	evals := 0
	// x holds the searched constants; a step moves one of them in the unit
	// cube, so the others keep their exact values.
	x := make([]float64, len(axes))
	for i, a := range axes {
		x[i] = base[a.Key]
	}
	objective := func() (float64, map[string]float64) {
		evals++
		p := make(map[string]float64, len(base))
		for k, v := range base {
			p[k] = v
		}
		for i, a := range axes {
			p[a.Key] = x[i]
		}
		m, err := NewModel(model, p)
		if err != nil { // a point the model refuses, e.g. k_min > k_max
			return math.Inf(1), p
		}
		d.Predict(m, end, preds)
		return d.Score(preds, from, end).LogLoss, p
	}
	best, bestP := objective()
	for step := 1.0 / 8; step >= 1.0/128 && evals < opt.MaxEvals; {
		if err := ctx.Err(); err != nil {
			return TuneResult{}, err
		}
		improved := false
		for i, a := range axes {
			for _, dir := range [2]float64{1, -1} {
				if evals >= opt.MaxEvals {
					break
				}
				v := a.fromUnit(a.toUnit(x[i]) + dir*step)
				if v == x[i] {
					continue
				}
				old := x[i]
				x[i] = v
				if f, p := objective(); f < best {
					best, bestP, improved = f, p, true
					break
				}
				x[i] = old
			}
		}
		if !improved {
			step /= 2
		}
	}
	return TuneResult{Params: bestP, LogLoss: best, Evals: evals}, nil
}

// Adoption is the verdict of the adoption rule on paired per-match log
// losses.
type Adoption struct {
	// Adopt is true when the candidate wins by more than two paired
	// standard errors.
	Adopt bool
	// Gain is the mean per-match log loss of the current constants minus
	// the candidate's: positive when the candidate predicts better.
	Gain float64
	// SE is the standard error of Gain.
	SE float64
	// N is the number of paired matches.
	N int
}

// Adopt is the adoption rule: new constants replace the ones in
// force only when, on the same matches, the per-match log loss difference
// current − candidate has a mean above two standard errors of that mean.
// Pairing removes the match-to-match noise both share, so a real gain
// passes with a few thousand matches while a fit to noise does not. Fewer
// than two matches never adopt.
func Adopt(current, candidate []float64) Adoption {
	n := min(len(current), len(candidate))
	res := Adoption{N: n}
	if n < 2 {
		return res
	}
	var mean float64
	for i := 0; i < n; i++ {
		mean += current[i] - candidate[i]
	}
	mean /= float64(n)
	var ss float64
	for i := 0; i < n; i++ {
		dv := current[i] - candidate[i] - mean
		ss += dv * dv
	}
	res.Gain = mean
	res.SE = math.Sqrt(ss / float64(n-1) / float64(n))
	res.Adopt = mean > 2*res.SE
	return res
}

// LogLosses writes the per-match log loss of preds[start:end] (p clipped as
// in Score) to out[0:end−start] and returns it.
func (d *Dataset) LogLosses(preds []float64, start, end int, out []float64) []float64 {
	out = out[:0]
	for i := start; i < end; i++ {
		p := math.Min(1-probClip, math.Max(probClip, preds[i]))
		o := d.score[i]
		out = append(out, -(o*math.Log(p) + (1-o)*math.Log(1-p)))
	}
	return out
}

// SelfTuneOptions controls one self-tuning round.
type SelfTuneOptions struct {
	TuneOptions
	// Recent is the fraction of the log, its most recent part, held out of
	// the fit and used only by the adoption rule. Default 0.2.
	Recent float64
}

// SelfTuneResult is the outcome of one self-tuning round.
type SelfTuneResult struct {
	// Current are the constants in force and Candidate the fitted ones,
	// every parameter of the model.
	Current, Candidate map[string]float64
	// Adoption compares them on the recent part.
	Adoption
	// Evals counts the replays of the fit.
	Evals int
}

// SelfTune is one round of a queue tuning itself on matches [0, end): fit
// the constants on all but the most recent part, then replay the whole log
// with the current and the fitted constants and apply Adopt to their
// per-match log losses on the recent part, which the fit never saw. Holding
// it out is what lets the rule refuse a fit to noise: on matches the fit
// has seen, any fit looks better.
func (d *Dataset) SelfTune(ctx context.Context, model string, current map[string]float64, end int, opt SelfTuneOptions) (SelfTuneResult, error) {
	if opt.Recent <= 0 || opt.Recent >= 1 {
		opt.Recent = 0.2
	}
	end = max(0, min(end, d.Len()))
	cur, err := ResolveParams(model, current)
	if err != nil {
		return SelfTuneResult{}, err
	}
	recent := WarmupStart(end, 1-opt.Recent)
	fit, err := d.Tune(ctx, model, cur, recent, opt.TuneOptions)
	if err != nil {
		return SelfTuneResult{}, err
	}
	res := SelfTuneResult{Current: cur, Candidate: fit.Params, Evals: fit.Evals}
	if paramsEqual(cur, fit.Params) {
		res.Adoption = Adoption{N: end - recent}
		return res, nil
	}
	losses := func(p map[string]float64) ([]float64, error) {
		m, err := NewModel(model, p)
		if err != nil {
			return nil, err
		}
		preds := make([]float64, end)
		d.Predict(m, end, preds)
		return d.LogLosses(preds, recent, end, nil), nil
	}
	lc, err := losses(cur)
	if err != nil {
		return res, err
	}
	ln, err := losses(fit.Params)
	if err != nil {
		return res, err
	}
	res.Adoption = Adopt(lc, ln)
	return res, nil
}

func paramsEqual(a, b map[string]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
