package rating

import "context"

// AutoOptions is the protocol of `ladderbot eval --auto-tune`:
// what a queue left to learn by itself would have predicted.
type AutoOptions struct {
	// Model and Params are the queue's model and its constants at the start.
	Model  string
	Params map[string]float64
	// Warmup is the fraction of the log that is not scored (docs/spec.md 2.3).
	Warmup float64
	// Tune runs a SelfTune round every Every matches of the warm-up part;
	// the scored part is never tuned on. Every 0 means a tenth of the
	// warm-up, at least 1,000 matches.
	Tune     bool
	Every    int
	SelfTune SelfTuneOptions
	// Calibrate recalibrates every prediction with a Calibrator learnt
	// online, with the given prior and memory (0: the defaults).
	Calibrate           bool
	CalPrior, CalMemory float64
	// Partnership adds the PairExperience term to the calibration (and so
	// calibrates even without Calibrate).
	Partnership bool
}

// AutoRound is one self-tuning round of an auto evaluation.
type AutoRound struct {
	// At is the number of matches the round saw.
	At int
	SelfTuneResult
}

// AutoResult is the outcome of an auto evaluation.
type AutoResult struct {
	EvalResult
	// Preds are the predictions shown before every match, calibrated when
	// Calibrate is set.
	Preds []float64
	// Rounds lists every self-tuning round, adopted or not.
	Rounds []AutoRound
	// Params are the constants in force at the end.
	Params map[string]float64
	// Calibrator is the calibration state at the end (nil without Calibrate).
	Calibrator *Calibrator
}

// AutoEvaluate replays the log as a queue with self-tuning and calibration
// would have lived it: every match is predicted from the past only, with the
// constants in force and the calibration learnt so far, then the result
// updates the ratings and the calibration. At each tuning round new
// constants are adopted only by the adoption rule; adopting replays the
// ratings and the calibration from the first match with the new constants,
// as the service replays its log, so the state always equals a replay of
// the log under the constants in force. The matches from ⌊Warmup·n⌋ on are
// scored as in Evaluate. A cancelled ctx stops it with ctx's error.
func (d *Dataset) AutoEvaluate(ctx context.Context, opt AutoOptions) (AutoResult, error) {
	params, err := ResolveParams(opt.Model, opt.Params)
	if err != nil {
		return AutoResult{}, err
	}
	m, err := NewModel(opt.Model, params)
	if err != nil {
		return AutoResult{}, err
	}
	n := d.Len()
	start := WarmupStart(n, opt.Warmup)
	every := opt.Every
	if every <= 0 {
		every = max(1000, start/10)
	}
	if opt.CalPrior <= 0 {
		opt.CalPrior = DefaultCalPrior
	}
	if opt.CalMemory <= 0 {
		opt.CalMemory = DefaultCalMemory
	}
	var pair []float64
	if opt.Partnership {
		pair = d.PairExperience()
	}
	feature := func(i int) float64 {
		if pair == nil {
			return 0
		}
		return pair[i]
	}
	res := AutoResult{Preds: make([]float64, n)}
	raw := make([]float64, n)
	states := d.newStates(m)
	var cal *Calibrator
	if opt.Calibrate || opt.Partnership {
		cal = NewCalibrator(opt.CalPrior, opt.CalMemory)
	}
	for i := 0; i < n; i++ {
		if opt.Tune && i > 0 && i <= start && i%every == 0 {
			st, err := d.SelfTune(ctx, opt.Model, params, i, opt.SelfTune)
			if err != nil {
				return res, err
			}
			res.Rounds = append(res.Rounds, AutoRound{At: i, SelfTuneResult: st})
			if st.Adopt {
				params = st.Candidate
				if m, err = NewModel(opt.Model, params); err != nil {
					return res, err
				}
				// Replay the log so far under the new constants; the
				// predictions already shown stay as they were.
				states = d.Predict(m, i, raw)
				if cal != nil {
					cal = NewCalibrator(opt.CalPrior, opt.CalMemory)
					for j := 0; j < i; j++ {
						cal.Observe(raw[j], feature(j), d.score[j])
					}
				}
			}
		}
		raw[i] = d.step(m, states, i)
		res.Preds[i] = raw[i]
		if cal != nil {
			res.Preds[i] = cal.Predict(raw[i], feature(i))
			cal.Observe(raw[i], feature(i), d.score[i])
		}
	}
	res.EvalResult = d.Score(res.Preds, start, n)
	res.Params = params
	res.Calibrator = cal
	return res, nil
}

// newStates returns a new player's state for every player of d.
func (d *Dataset) newStates(m Model) []State {
	states := make([]State, len(d.Players))
	for i := range states {
		states[i] = m.New()
	}
	return states
}

// step predicts match i from states, applies its result, and returns the
// prediction: one step of Predict.
func (d *Dataset) step(m Model, states []State, i int) float64 {
	var buf [2 * MaxTeamSize]State
	idx := d.teams[d.off[i]:d.off[i+1]]
	n1 := int(d.size1[i])
	for j, p := range idx {
		buf[j] = states[p]
	}
	a, b := buf[:n1], buf[n1:len(idx)]
	at := d.Records[i].Date
	p := m.Predict(a, b, at)
	m.Update(a, b, d.score[i], at)
	for j, q := range idx {
		states[q] = buf[j]
	}
	return p
}
