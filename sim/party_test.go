package sim

import (
	"context"
	"testing"
)

// TestPartiesSeason plays a short season in which half the players queue
// as premade pairs through the real invitation and acceptance: every pair
// must play together (a pair split over two teams would count as no pair),
// the ratings must verify, and the stronger-together pairs must win more
// often than the model expects without the party rating.
func TestPartiesSeason(t *testing.T) {
	cfg := Defaults()
	cfg.Players, cfg.Days, cfg.Parties, cfg.PartySynergy = 60, 4, 0.5, 200
	r, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	ps := r.Parties
	if ps.Pairs != 15 || !r.Verified {
		t.Fatalf("Got(pairs, verified) = %d, %v, want 15, true", ps.Pairs, r.Verified)
	}
	withPair := 0
	for _, m := range r.Predictions {
		if m.Parties[0]+m.Parties[1] > 0 {
			withPair++
		}
	}
	if withPair < r.Matches/4 || ps.Matches == 0 {
		t.Errorf("Got(matches with a pair) = %d of %d (%d uneven), want at least a quarter", withPair, r.Matches, ps.Matches)
	}
	if !(ps.True > 0.5 && ps.True > ps.Predicted) {
		t.Errorf("Got(P of the team with more pairs) true %.3f, predicted %.3f, want the synergy to make it above 0.5 and above the prediction", ps.True, ps.Predicted)
	}
}
