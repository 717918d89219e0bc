package showdown

import (
	"errors"
	"testing"
)

// FuzzOutcome: any log and names give a winner in 0..2 or a *Mismatch, and
// swapping the teams swaps the winner.
func FuzzOutcome(f *testing.F) {
	f.Add("|gametype|multi\n|player|p1|a|\n|player|p2|b|\n|player|p3|c|\n|player|p4|d|\n|win|a & c\n", "a", "c", "b", "d")
	f.Add("|gametype|doubles\n|player|p1|a|\n|win|a\n", "a", "c", "b", "d")
	f.Fuzz(func(t *testing.T, log, a, b, c, d string) {
		bt := ParseLog(log)
		w, err := bt.Outcome([]string{a, b}, []string{c, d})
		var mm *Mismatch
		if err != nil {
			if !errors.As(err, &mm) {
				t.Fatalf("Got(error %v), want a *Mismatch", err)
			}
			return
		}
		if w < 0 || w > 2 {
			t.Fatalf("Got(winner %d), want 0, 1 or 2", w)
		}
		m, err := bt.Outcome([]string{c, d}, []string{a, b})
		if err != nil || (w != 0 && m != 3-w) || (w == 0 && m != 0) {
			t.Fatalf("Got(mirrored) = %d, %v, want the mirror of %d", m, err, w)
		}
	})
}
