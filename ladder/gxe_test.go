package ladder

import (
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder/rating"
)

// TestRatingGXE checks that a stored row's GXE on the Glicko scale is read
// from its display columns, and elsewhere from its state.
func TestRatingGXE(t *testing.T) {
	at := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	// A step of each model's scale, as in rating's TestModelGXE.
	steps := map[string]float64{
		"team-glicko": 100, "glicko": 100, "glicko-boost": 100,
		"elo": 100, "synelo": 100,
		"openskill": 3, "trueskill": 3,
	}
	for _, name := range rating.ModelNames() {
		step := steps[name]
		m, err := rating.NewModel(name, nil)
		if err != nil {
			t.Fatalf("NewModel(%s) = %v", name, err)
		}
		s := m.New()
		s.Rating += 2 * step
		s.Games, s.Last = 7, at
		r := Rating{State: s}
		refresh(&r, m, 5)
		if got, want := ratingGXE(m, r), rating.ModelGXE(m, s); got != want {
			t.Errorf("Got(ratingGXE(%s)) = %g, want ModelGXE %g", name, got, want)
		}
		if got := standingOf(Guild{}, m, r).GXE; got != rating.ModelGXE(m, s) {
			t.Errorf("Got(standingOf(%s).GXE) = %g, want %g", name, got, rating.ModelGXE(m, s))
		}
	}
	m, _ := rating.NewModel("team-glicko", nil)
	if got := ratingGXE(m, Rating{Display: 1700, DisplayDev: 50}); got != rating.GXE(1700, 50) {
		t.Errorf("Got(ratingGXE(team-glicko, display 1700/50)) = %g, want GXE(1700, 50) = %g", got, rating.GXE(1700, 50))
	}
}
