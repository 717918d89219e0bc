package sim

import (
	"math"
	"testing"
)

// TestMeasurePlacement builds players whose final rating is 1000 + 2·skill
// and whose trajectory is off by 100 rating points (50 Elo) until game 10:
// the fitted line must turn that back into 50, then 0.
func TestMeasurePlacement(t *testing.T) {
	r := &Result{Predictions: []Prediction{
		{PTrue: 0.7, Newcomers: 1, Settled: 3},
		{PTrue: 0.4, Newcomers: 0, Settled: 4},
		{PTrue: 0.5, Newcomers: 4, Settled: 0},
	}}
	for i := range 40 {
		skill := 1200 + 15*float64(i)
		f := Final{Skill: skill, Rating: 1000 + 2*skill, Games: 30}
		for g := 1; g <= 30; g++ {
			off := 0.0
			if g < 10 {
				off = 100
			}
			f.Trajectory = append(f.Trajectory, Point{Rating: f.Rating + off})
		}
		r.Players = append(r.Players, f)
	}
	pl := measurePlacement(r)
	if pl.Settled != 40 || len(pl.Error) != len(PlacementGames) {
		t.Fatalf("Got(settled, errors) = %d, %d, want 40, %d", pl.Settled, len(pl.Error), len(PlacementGames))
	}
	for i, g := range PlacementGames {
		want := 0.0
		if g < 10 {
			want = 50
		}
		if math.Abs(pl.Error[i]-want) > 1e-9 {
			t.Errorf("Got(error after %d) = %v, want %v", g, pl.Error[i], want)
		}
	}
	if math.Abs(pl.TrueGap-0.1) > 1e-12 || math.Abs(pl.TrueGapWithNewcomers-0.2) > 1e-12 || math.Abs(pl.TrueGapEstablished-0.1) > 1e-12 {
		t.Errorf("Got(true gaps) = %v, %v, %v, want 0.1, 0.2, 0.1", pl.TrueGap, pl.TrueGapWithNewcomers, pl.TrueGapEstablished)
	}
}
