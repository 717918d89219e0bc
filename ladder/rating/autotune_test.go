package rating

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
)

// syntheticLadder plays n 2v2 matches of a ladder whose results are drawn
// from team-glicko itself with the given constants: each match's winner is
// drawn with the model's own P(team 1 wins), then the model updates. The
// model's prediction is then the true probability, so the constants that
// minimise the expected prequential log loss are the true ones, which is
// what makes them recoverable. Players join over time (so RDs differ and
// the boost shows) and play at irregular intervals (so idle growth shows).
func syntheticLadder(tb testing.TB, truth map[string]float64, n int, seed uint64) *Dataset {
	tb.Helper()
	m, err := NewModel("team-glicko", truth)
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 99))
	const pool = 300
	var states []State
	recs := make([]MatchRecord, n)
	at := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range recs {
		// A new player joins every 30 matches on average, up to the pool.
		if len(states) < 4 || (len(states) < pool && rng.IntN(30) == 0) {
			states = append(states, m.New())
			continue
		}
		at = at.Add(time.Duration(rng.ExpFloat64() * float64(3*time.Hour)))
		var idx [4]int
		for j := range idx {
		again:
			// Recent joiners play more often, old players drift away.
			idx[j] = len(states) - 1 - int(math.Min(float64(len(states)-1), rng.ExpFloat64()*float64(len(states))/3))
			for k := 0; k < j; k++ {
				if idx[k] == idx[j] {
					goto again
				}
			}
		}
		a := []State{states[idx[0]], states[idx[1]]}
		b := []State{states[idx[2]], states[idx[3]]}
		p := m.Predict(a, b, at)
		w, s := 2, 0.0
		if rng.Float64() < p {
			w, s = 1, 1
		}
		m.Update(a, b, s, at)
		states[idx[0]], states[idx[1]], states[idx[2]], states[idx[3]] = a[0], a[1], b[0], b[1]
		id := func(k int) string { return "p" + strconv.Itoa(idx[k]) }
		recs[i] = MatchRecord{Seq: i, Date: at, Team1: []string{id(0), id(1)}, Team2: []string{id(2), id(3)}, Winner: w}
	}
	// Drop the slots spent on joins.
	out := recs[:0]
	for _, r := range recs {
		if r.Winner != 0 {
			out = append(out, r)
		}
	}
	d, err := NewDataset(out)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// syntheticTruth are the constants the synthetic ladder is played with:
// far enough from the defaults (boost 0.5, c 6.6775, rd0 130) that
// recovering them is a real move. Scale stays below rd_max/rd0, where
// scale·max(1/scale, RD/rd_max) = 1 for every RD ≤ rd0: scale then changes
// nothing, so it cannot be recovered and is not asserted.
var syntheticTruth = map[string]float64{"boost": 2, "c": 3, "rd0": 100, "scale": 1.2}

// TestTuneRecoversTrueConstants fits team-glicko on a ladder played with
// known constants. Tolerance: c and rd0 within 15%, boost within a factor
// of 1.5 (boost and rd0 trade off along a ridge: both set how much a
// settled team is favoured), the fitted predictions within 0.02 of the true
// ones on average, and the fit's log loss no worse than the truth's.
func TestTuneRecoversTrueConstants(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 20,000 matches about a hundred times")
	}
	d := syntheticLadder(t, syntheticTruth, 20000, 2)
	fit, err := d.Tune(context.Background(), "team-glicko", nil, d.Len(), TuneOptions{MaxEvals: 150})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		key    string
		lo, hi float64
	}{{"c", 0.85, 1.15}, {"rd0", 0.85, 1.15}, {"boost", 1 / 1.5, 1.5}} {
		want := syntheticTruth[c.key]
		if got := fit.Params[c.key]; got < c.lo*want || got > c.hi*want {
			t.Errorf("Got(%s) = %g, want %g within [%g, %g]", c.key, got, want, c.lo*want, c.hi*want)
		}
	}
	truth, _ := NewModel("team-glicko", syntheticTruth)
	fitted, _ := NewModel("team-glicko", fit.Params)
	pt, pf := make([]float64, d.Len()), make([]float64, d.Len())
	d.Predict(truth, d.Len(), pt)
	d.Predict(fitted, d.Len(), pf)
	from := d.Len() / 2
	var gap float64
	for i := from; i < d.Len(); i++ {
		gap += math.Abs(pt[i] - pf[i])
	}
	if gap /= float64(d.Len() - from); gap > 0.02 {
		t.Errorf("Got(mean |p_fit − p_true|) = %.4f, want ≤ 0.02", gap)
	}
	if tl := d.Score(pt, from, d.Len()).LogLoss; fit.LogLoss > tl+1e-9 {
		t.Errorf("Got(fitted log loss) = %.5f, want ≤ the true constants' %.5f", fit.LogLoss, tl)
	}
}

// TestSelfTuneRefusesNoise: when the constants in force are the true ones,
// any fit can only chase noise, and the adoption rule must refuse it; when
// they are the defaults, far from the truth, the fit must be adopted.
func TestSelfTuneRefusesNoise(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 20,000 matches about a hundred times per case")
	}
	tests := []struct {
		name    string
		current map[string]float64
		seed    uint64
		adopt   bool
	}{
		{"true constants, seed 1", syntheticTruth, 1, false},
		{"true constants, seed 3", syntheticTruth, 3, false},
		{"defaults", nil, 2, true},
	}
	// The recent 30% (6,000 matches) lets the defaults' real deficit show.
	opt := SelfTuneOptions{Recent: 0.3}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := syntheticLadder(t, syntheticTruth, 20000, tt.seed)
			st, err := d.SelfTune(context.Background(), "team-glicko", tt.current, d.Len(), opt)
			if err != nil {
				t.Fatal(err)
			}
			if st.Adopt != tt.adopt {
				t.Errorf("Got(Adopt) = %v (gain %.5f, SE %.5f over %d), want %v", st.Adopt, st.Gain, st.SE, st.N, tt.adopt)
			}
		})
	}
}

// TestAdopt checks the rule on hand-made paired losses.
func TestAdopt(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	base := make([]float64, 4000)
	for i := range base {
		base[i] = 0.5 + 0.3*rng.NormFloat64()
	}
	// The candidate's losses are the current ones minus delta, plus noise of
	// alternating sign: the mean gain is exactly delta and its SE is
	// noise/√n ≈ 0.0008 for noise 0.05.
	shift := func(delta, noise float64) []float64 {
		out := make([]float64, len(base))
		for i := range out {
			out[i] = base[i] - delta + noise*float64(1-2*(i%2))
		}
		return out
	}
	tests := []struct {
		name      string
		candidate []float64
		want      bool
	}{
		{"same losses", shift(0, 0), false},
		{"pure noise", shift(0, 0.05), false},
		{"small gain inside 2 SE", shift(0.0005, 0.05), false},
		{"clear gain", shift(0.01, 0.05), true},
		{"worse", shift(-0.01, 0.05), false},
		{"one match", []float64{0}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Adopt(base, tt.candidate)
			if got.Adopt != tt.want {
				t.Errorf("Got(Adopt) = %+v, want adopt %v", got, tt.want)
			}
			if got.Adopt && !(got.Gain > 2*got.SE) {
				t.Errorf("Got(Gain, SE) = (%g, %g), adopted without 2 SE", got.Gain, got.SE)
			}
		})
	}
}

// TestAutoEvaluateReplaysExactly: after the rounds, the ratings and
// predictions equal a plain replay of the log under the constants in force
// (the service's replay), and two runs agree to the bit.
func TestAutoEvaluateReplaysExactly(t *testing.T) {
	d := syntheticLadder(t, syntheticTruth, 6000, 4)
	// Start far from the truth, so the rounds adopt.
	opt := AutoOptions{Model: "team-glicko", Params: map[string]float64{"boost": 0, "c": 30, "rd0": 300},
		Warmup: 0.8, Tune: true, Every: 1500, Calibrate: true,
		SelfTune: SelfTuneOptions{TuneOptions: TuneOptions{MaxEvals: 20}}}
	r1, err := d.AutoEvaluate(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	r2, _ := d.AutoEvaluate(context.Background(), opt)
	if r1.LogLoss != r2.LogLoss || r1.Calibrator.W != r2.Calibrator.W {
		t.Errorf("Got(second run) = %g %v, want %g %v", r2.LogLoss, r2.Calibrator.W, r1.LogLoss, r1.Calibrator.W)
	}
	last := 0
	for _, rd := range r1.Rounds {
		if rd.Adopt {
			last = rd.At
		}
	}
	if last == 0 {
		t.Fatalf("Got(no adoption in %d rounds), want the defaults replaced", len(r1.Rounds))
	}
	m, _ := NewModel("team-glicko", r1.Params)
	raw := make([]float64, d.Len())
	d.Predict(m, d.Len(), raw)
	cal := NewCalibrator(DefaultCalPrior, DefaultCalMemory)
	for i := 0; i < d.Len(); i++ {
		if i >= last {
			if want := cal.Predict(raw[i], 0); r1.Preds[i] != want {
				t.Fatalf("Got(Preds[%d]) = %v, want the replay's %v", i, r1.Preds[i], want)
			}
		}
		cal.Observe(raw[i], 0, d.score[i])
	}
	if cal.W != r1.Calibrator.W {
		t.Errorf("Got(calibrator) = %v, want the replay's %v", r1.Calibrator.W, cal.W)
	}
}

// TestAutoEvaluateCancelled: a cancelled context stops the tuning rounds
// with its error instead of running them to the end.
func TestAutoEvaluateCancelled(t *testing.T) {
	d := syntheticLadder(t, syntheticTruth, 3000, 5)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := d.AutoEvaluate(ctx, AutoOptions{Model: "team-glicko", Warmup: 0.8, Tune: true, Every: 1000})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Got(AutoEvaluate with a cancelled context) error %v, want context.Canceled", err)
	}
}
