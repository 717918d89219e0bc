package sim

import (
	"context"
	"math"
	"testing"
)

func TestSeriesWin(t *testing.T) {
	tests := []struct {
		p    float64
		n    int
		want float64
	}{
		{0.6, 1, 0.6},
		{0.6, 3, 0.6 * 0.6 * (3 - 2*0.6)}, // p²(3 − 2p)
		{0.5, 5, 0.5},
		{0.6, 5, 0.68256},
		{1, 3, 1},
	}
	for _, tt := range tests {
		if got := SeriesWin(tt.p, tt.n); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("Got(SeriesWin(%v, %d)) = %v, want %v", tt.p, tt.n, got, tt.want)
		}
	}
	// A series favours the better side more than one game does.
	if SeriesWin(0.55, 3) <= 0.55 || SeriesWin(0.55, 5) <= SeriesWin(0.55, 3) {
		t.Errorf("Got(series of 3, 5 at p 0.55) = %v, %v, want each above the last", SeriesWin(0.55, 3), SeriesWin(0.55, 5))
	}
}

// TestSeriesSeason: a season of best-of-3 series takes more of the
// players' evenings per rated result, so it has fewer results, and still
// verifies.
func TestSeriesSeason(t *testing.T) {
	cfg := Defaults()
	cfg.Players, cfg.Days = 40, 4
	one, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.BestOf = 3
	three, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !three.Verified || three.BestOf != 3 || one.BestOf != 1 || three.Matches >= one.Matches || three.Matches < one.Matches/3 {
		t.Errorf("Got(best of 3) = %d series (verified %v, best of %d), best of 1 %d matches, want verified and between a third and all of them",
			three.Matches, three.Verified, three.BestOf, one.Matches)
	}
	cfg.BestOf = 2
	if _, err := Run(context.Background(), cfg); err == nil {
		t.Errorf("Got(best of 2) error nil, want refused")
	}
}
