package rating

import (
	"math"
	"testing"
	"time"
)

// TestPairExperience counts only earlier matches as teammates, in either
// order of the pair, and gives one-player teams no term.
func TestPairExperience(t *testing.T) {
	day := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	rec := func(t1, t2 []string) MatchRecord { return MatchRecord{Date: day, Team1: t1, Team2: t2, Winner: 1} }
	d, err := NewDataset([]MatchRecord{
		rec([]string{"a", "b"}, []string{"c", "d"}),
		rec([]string{"b", "a"}, []string{"c", "e"}),
		rec([]string{"c", "d"}, []string{"a", "b"}),
		rec([]string{"a"}, []string{"b"}),
		rec([]string{"a", "b", "c"}, []string{"d", "e", "f"}),
	})
	if err != nil {
		t.Fatal(err)
	}
	ln := math.Log1p
	want := []float64{
		0,
		ln(1) - 0,                 // a+b together once; c+e never
		ln(1) - ln(2),             // c+d once; a+b twice
		0,                         // one-player teams
		(ln(3)+0+0)/3 - (0+0+0)/3, // a+b three times, a+c and b+c never
	}
	got := d.PairExperience()
	for i := range want {
		if !near(got[i], want[i], 1e-12) {
			t.Errorf("Got(PairExperience()[%d]) = %g, want %g", i, got[i], want[i])
		}
	}
}
