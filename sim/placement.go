package sim

import "math"

// NewcomerGames is the number of rated matches after which the simulation
// stops counting a player as a newcomer: seed 002's ten calibration matches.
const NewcomerGames = 10

// PlacementGames are the game counts at which Placement.Error is measured.
var PlacementGames = []int{1, 2, 3, 5, 10, 15, 20, 30}

// Placement is how well the season placed its newcomers.
type Placement struct {
	// Error[i] is the mean |level − true skill| in Elo points of the
	// players who played at least PlacementGames[i] matches, read after
	// that many. A rating is turned into a level by the least-squares line
	// of final rating on true skill over the settled players (at least 30
	// games), so the measure does not depend on the model's scale.
	Error []float64 `json:"error_after_games"`
	// Settled counts the players the line was fitted on.
	Settled int `json:"settled_players"`
	// TrueGap is the mean |P_true − 0.5| of the matches, by true skill;
	// lower is fairer. WithNewcomers is over the matches with at least one
	// newcomer and one settled player (what newcomers cost everyone
	// else), Established over the matches without newcomers.
	TrueGap              float64 `json:"true_gap"`
	TrueGapWithNewcomers float64 `json:"true_gap_with_newcomers"`
	TrueGapEstablished   float64 `json:"true_gap_established"`
}

func measurePlacement(r *Result) Placement {
	var pl Placement
	var sx, sy, sxx, sxy, n float64
	for _, p := range r.Players {
		if p.Games < 30 {
			continue
		}
		n++
		sx += p.Skill
		sy += p.Rating
		sxx += p.Skill * p.Skill
		sxy += p.Skill * p.Rating
	}
	pl.Settled = int(n)
	var all, mixed, est []float64
	for _, m := range r.Predictions {
		g := math.Abs(m.PTrue - 0.5)
		all = append(all, g)
		switch {
		case m.Newcomers == 0:
			est = append(est, g)
		case m.Settled > 0:
			mixed = append(mixed, g)
		}
	}
	pl.TrueGap, pl.TrueGapWithNewcomers, pl.TrueGapEstablished = mean(all), mean(mixed), mean(est)
	den := n*sxx - sx*sx
	if n < 2 || den == 0 {
		return pl
	}
	b := (n*sxy - sx*sy) / den
	a := (sy - b*sx) / n
	if b <= 0 {
		return pl
	}
	pl.Error = make([]float64, len(PlacementGames))
	for i, g := range PlacementGames {
		var errs []float64
		for _, p := range r.Players {
			if len(p.Trajectory) >= g {
				errs = append(errs, math.Abs((p.Trajectory[g-1].Rating-a)/b-p.Skill))
			}
		}
		pl.Error[i] = mean(errs)
	}
	return pl
}
