package ladder

import (
	"fmt"
	"testing"
)

// TestRebalanceSizes checks the pure part of RebalanceMatch on teams whose
// sizes differ (a moderator's match, or one a game server reshaped): the
// running-lobby autobalance evens the sizes, then the best split of those
// sizes evens the sums.
func TestRebalanceSizes(t *testing.T) {
	r := map[string]float64{"a": 1700, "b": 1600, "c": 1500, "d": 1400, "e": 1000}
	tests := []struct {
		name     string
		teams    [2][]string
		sizes    [2]int
		gapAfter float64
		moves    int
	}{
		{"3v1 becomes 2v2", [2][]string{{"a", "b", "c"}, {"d"}}, [2]int{2, 2}, 0, 1},
		{"4v1 becomes 3v2, then the best 3v2", [2][]string{{"a", "b", "c", "d"}, {"e"}}, [2]int{3, 2}, 600, 1},
		{"uneven 3v2 sums evened", [2][]string{{"a", "b", "c"}, {"d", "e"}}, [2]int{3, 2}, 600, 1},
		{"balanced 2v2 stays", [2][]string{{"a", "d"}, {"b", "c"}}, [2]int{2, 2}, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rb, err := rebalance(Match{ID: 1, Teams: tc.teams}, r)
			if err != nil {
				t.Fatal(err)
			}
			n := [2]int{len(rb.After.Teams[0]), len(rb.After.Teams[1])}
			if n != tc.sizes && n != [2]int{tc.sizes[1], tc.sizes[0]} {
				t.Errorf("Got(sizes) = %v, want %v", n, tc.sizes)
			}
			var sum [2]float64
			for i := range 2 {
				for _, u := range rb.After.Teams[i] {
					sum[i] += r[u]
				}
			}
			if gap := sum[0] - sum[1]; fmt.Sprint(max(gap, -gap)) != fmt.Sprint(tc.gapAfter) || rb.GapAfter != tc.gapAfter {
				t.Errorf("Got(gap after) = %v (reported %v), want %v", sum[0]-sum[1], rb.GapAfter, tc.gapAfter)
			}
			if len(rb.Moves) < tc.moves || (tc.moves == 0 && len(rb.Moves) != 0) {
				t.Errorf("Got(moves) = %v, want %d", rb.Moves, tc.moves)
			}
		})
	}
}
