package rating

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestNewDatasetRejects(t *testing.T) {
	nine := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}
	tests := []struct {
		name string
		rec  MatchRecord
		want string
	}{
		{"team too big", MatchRecord{Team1: nine, Team2: []string{"x"}, Winner: 1}, "team 1 has 9 players"},
		{"empty team", MatchRecord{Team1: []string{"a"}, Winner: 1}, "team 2 has 0 players"},
		{"player twice", MatchRecord{Team1: []string{"a"}, Team2: []string{"a"}, Winner: 1}, `"a" appears twice`},
		{"bad winner", MatchRecord{Team1: []string{"a"}, Team2: []string{"b"}, Winner: 3}, "winner 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewDataset([]MatchRecord{tt.rec})
			if !isInvalid(err) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Got(NewDataset) error %v, want invalid containing %q", err, tt.want)
			}
		})
	}
}

// TestScore checks the metrics of docs/spec.md 2.3 on four hand-made predictions.
func TestScore(t *testing.T) {
	day := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	recs := []MatchRecord{
		{Date: day, Team1: []string{"a"}, Team2: []string{"b"}, Winner: 1},
		{Date: day, Team1: []string{"a"}, Team2: []string{"b"}, Winner: 2},
		{Date: day, Team1: []string{"a"}, Team2: []string{"b"}, Winner: 0},
		{Date: day, Team1: []string{"a"}, Team2: []string{"b"}, Winner: 1},
		{Date: day, Team1: []string{"a"}, Team2: []string{"b"}, Winner: 2},
	}
	d, err := NewDataset(recs)
	if err != nil {
		t.Fatal(err)
	}
	preds := []float64{0.99, 0.8, 0.3, 0.5, 1}
	// Match 0 is warm-up; 1..4 are scored.
	res := d.Score(preds, 1, 5)
	wantLL := (-math.Log(0.2) - 0.5*math.Log(0.3) - 0.5*math.Log(0.7) - math.Log(0.5) - math.Log(1e-6)) / 4
	wantBrier := (0.64 + 0.04 + 0.25 + 1) / 4
	wantAcc := (0 + 0.5 + 0.5 + 0) / 4.0
	// Bins: 0.3 → bin 3 (p .3, o .5); 0.5 → bin 5 (.5, 1); 0.8 → bin 8 (.8, 0); 1 → bin 9 (1, 0).
	wantECE := (0.2 + 0.5 + 0.8 + 1) / 4
	for _, c := range []struct {
		what      string
		got, want float64
	}{{"log loss", res.LogLoss, wantLL}, {"brier", res.Brier, wantBrier}, {"accuracy", res.Accuracy, wantAcc}, {"ece", res.ECE, wantECE}} {
		// 1 − (1 − 1e-6) is 1e-6 only to about 1e-11 in float64.
		if !near(c.got, c.want, 1e-9) {
			t.Errorf("Got(%s) = %.12f, want %.12f", c.what, c.got, c.want)
		}
	}
	if res.Matches != 5 || res.Scored != 4 || res.Bins[8].Count != 1 || res.Bins[9].MeanP != 1 || res.Bins[3].MeanWins != 0.5 {
		t.Errorf("Got(result) = %+v, want 5 matches, 4 scored and the bins above", res)
	}
	if WarmupStart(25782, 0.8) != 20625 {
		t.Errorf("Got(WarmupStart(25782, 0.8)) = %d, want 20625", WarmupStart(25782, 0.8))
	}
}

// TestPredictReplay checks that Predict records each prediction before the
// match's update, with new players for everyone.
func TestPredictReplay(t *testing.T) {
	day := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	recs := []MatchRecord{
		{Date: day, Team1: []string{"a", "b"}, Team2: []string{"c", "d"}, Winner: 1},
		{Date: day.AddDate(0, 0, 1), Team1: []string{"a", "c"}, Team2: []string{"b", "e"}, Winner: 2},
	}
	d, err := NewDataset(recs)
	if err != nil {
		t.Fatal(err)
	}
	m := NewTeamGlicko()
	preds := make([]float64, 2)
	states := d.Predict(m, 2, preds)
	// By hand: the first match is even; then a, b, c, d carry its result.
	a, b, c, dd, e := m.New(), m.New(), m.New(), m.New(), m.New()
	t1, t2 := []State{a, b}, []State{c, dd}
	m.Update(t1, t2, 1, day)
	want := m.Predict([]State{t1[0], t2[0]}, []State{t1[1], e}, day.AddDate(0, 0, 1))
	if preds[0] != 0.5 || preds[1] != want {
		t.Errorf("Got(preds) = %v, want [0.5 %v]", preds, want)
	}
	if len(states) != 5 || d.Players[4] != "e" || states[4].Games != 1 || states[0].Games != 2 {
		t.Errorf("Got(states) = %+v for %v, want 5 players, e with 1 game, a with 2", states, d.Players)
	}
}
