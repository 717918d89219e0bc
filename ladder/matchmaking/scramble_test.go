package matchmaking

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func TestScrambleDue(t *testing.T) {
	tests := []struct {
		name      string
		winners   []int
		threshold int
		want      bool
	}{
		{"no rounds", nil, 0, false},
		{"three for team 1, default threshold", []int{1, 1, 1}, 0, true},
		{"three for team 2 after a loss", []int{1, 2, 2, 2}, 0, true},
		{"two in a row", []int{2, 1, 1}, 0, false},
		{"streak broken by the latest round", []int{1, 1, 1, 2}, 0, false},
		{"a stalemate breaks the streak", []int{1, 1, 0, 1}, 0, false},
		{"stalemates are no streak", []int{0, 0, 0}, 0, false},
		{"longer streak still due", []int{2, 2, 2, 2, 2}, 0, true},
		{"threshold 2", []int{1, 2, 2}, 2, true},
		{"threshold 5 not reached", []int{1, 1, 1, 1}, 5, false},
		{"threshold 1", []int{2}, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ScrambleDue(tt.winners, tt.threshold)
			if err != nil || got != tt.want {
				t.Errorf("Got(ScrambleDue(%v, %d)) = %v, %v, want %v", tt.winners, tt.threshold, got, err, tt.want)
			}
		})
	}
}

func TestScrambleDueRejectsBadInput(t *testing.T) {
	tests := []struct {
		name      string
		winners   []int
		threshold int
	}{
		{"team 3", []int{1, 3, 1}, 0},
		{"negative winner", []int{-1}, 0},
		{"negative threshold", []int{1}, -1},
		{"huge threshold", []int{1}, 1000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ScrambleDue(tt.winners, tt.threshold)
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("Got(ScrambleDue) error %v, want an *Error", err)
			}
		})
	}
}

// TestScrambleSplitMatchesBruteForce: every lobby of 1 to 11 players is
// split into sizes within one, nobody out, with brute force's best gap.
func TestScrambleSplitMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for trial := range 400 {
		rs := randRatings(rng, 1+trial%11)
		got, err := ScrambleSplit(rs)
		if err != nil {
			t.Fatalf("Got(ScrambleSplit(%v)) error %v", rs, err)
		}
		if len(got.A)+len(got.B) != len(rs) || len(got.SitOut) != 0 || len(got.A)-len(got.B) > 1 || len(got.B)-len(got.A) > 1 {
			t.Fatalf("Got(split) %v vs %v (out %v) of %d players, want everyone, sizes within one", got.A, got.B, got.SitOut, len(rs))
		}
		best := math.Inf(1)
		for mask := 0; mask < 1<<len(rs); mask++ {
			if k := popcount(mask); k != len(rs)/2 {
				continue
			}
			var d float64
			for i, r := range rs {
				if mask>>i&1 == 1 {
					d += r
				} else {
					d -= r
				}
			}
			best = min(best, math.Abs(d))
		}
		if math.Abs(got.Gap-best) > 1e-6 {
			t.Fatalf("Got(Gap) = %v, want brute force's %v for %v", got.Gap, best, rs)
		}
	}
}
