package sim

import (
	"fmt"
	"testing"
	"time"
)

// TestTrajectoryPairs checks the trajectories chart's lines: eight players
// spread over the ranking, the first and the last included, each a solid
// rating line with the dashed level of their true skill, by day of season.
func TestTrajectoryPairs(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := &Result{Start: start}
	for i := range 200 {
		r.Players = append(r.Players, Final{Name: playerName(i), Skill: 2000 - float64(i),
			Trajectory: []Point{{At: start.Add(36 * time.Hour), Rating: 1500}, {At: start.Add(29 * 24 * time.Hour), Rating: 1600 - float64(i)}}})
	}
	pairs := trajectoryPairs(r)
	if len(pairs) != 8 {
		t.Fatalf("Got(trajectoryPairs) = %d pairs, want 8", len(pairs))
	}
	for k, p := range pairs {
		want := playerName(k * 199 / 7)
		if p[0].Name != want || p[1].Name != want+" true" || p[0].Dashed || !p[1].Dashed {
			t.Errorf("Got(pair %d) = %q/%q dashed %t/%t, want %q solid and its dashed truth", k, p[0].Name, p[1].Name, p[0].Dashed, p[1].Dashed, want)
		}
		if p[0].X[0] != 1.5 || p[0].X[1] != 29 || p[1].Y[0] != r.Players[k*199/7].Skill {
			t.Errorf("Got(pair %d) x %v truth %v, want days 1.5 and 29 and the skill", k, p[0].X, p[1].Y)
		}
	}
	if got := fmt.Sprint(playerName(0), "|", playerName(399), "|", playerName(400)); got != "Amber Otter|Tidy Viper|Amber Otter 2" {
		t.Errorf("Got(playerName 0, 399, 400) = %s", got)
	}
}
