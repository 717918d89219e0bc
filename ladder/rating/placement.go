package rating

import (
	"math"
	"time"
)

// Placement parameters every model accepts (seed 002, "Initialization" and
// "Do a binary search"): a new player is placed by a few calibration
// matches that jump their rating up after a win and down after a loss by a
// step that shrinks each match, instead of only by the model's own
// RD-driven update. placement_games = 0, the default, is the model alone.
var placementParams = []Param{
	{"placement_games", 0, 0, 50, "calibration matches placed by binary search; 0 is off (the model's own RD-driven placement)"},
	{"placement_step", 200, 1, 2000, "first calibration step, in Elo points (converted to the model's scale by win chance)"},
	{"placement_shrink", 0.7, 0.05, 1, "factor the step shrinks by after each calibration match (0.5 is a strict binary search)"},
}

func init() {
	for name, spec := range registry {
		spec.params = append(spec.params, placementParams...)
		registry[name] = spec
	}
}

// Placement wraps a model with seed 002's calibration matches: for a
// player's first Games rated matches the model updates everything as usual
// (deviation, game count, the other players), then the calibrating player's
// rating is set to its value before the match plus Step·Shrink^g after a
// win, minus it after a loss, g being the matches they had played. A draw
// leaves the rating where it was. The step is the seed's binary search with
// a narrowing range ("we can reduce the binary search range to avoid
// jumping too far"); Shrink 0.5 halves it each match, a strict bisection.
type Placement struct {
	Model
	// Games is the number of calibration matches.
	Games int
	// Step is the first step in the model's rating units.
	Step float64
	// Shrink multiplies the step after each calibration match.
	Shrink float64
}

// Unwrap returns the model inside m when m is a Placement, m otherwise.
func Unwrap(m Model) Model {
	if p, ok := m.(*Placement); ok {
		return p.Model
	}
	return m
}

// Update applies the wrapped model's update, then places the players still
// in calibration. It does not allocate.
func (p *Placement) Update(a, b []State, score float64, at time.Time) {
	var ra, rb [MaxTeamSize]float64
	var ga, gb [MaxTeamSize]int
	for i := range a {
		ra[i], ga[i] = a[i].Rating, a[i].Games
	}
	for i := range b {
		rb[i], gb[i] = b[i].Rating, b[i].Games
	}
	p.Model.Update(a, b, score, at)
	dir := 0.0
	switch {
	case score > 0.5:
		dir = 1
	case score < 0.5:
		dir = -1
	}
	for i := range a {
		if ga[i] < p.Games {
			a[i].Rating = ra[i] + dir*p.step(ga[i])
		}
	}
	for i := range b {
		if gb[i] < p.Games {
			b[i].Rating = rb[i] - dir*p.step(gb[i])
		}
	}
}

func (p *Placement) step(games int) float64 {
	return p.Step * math.Pow(p.Shrink, float64(games))
}

// eloGap returns the rating gap in m's units that gives the same 1v1 win
// chance as elo points on the Elo scale, found by bisection between two
// new players, so placement_step means the same on every model.
func eloGap(m Model, elo float64) float64 {
	want := 1 / (1 + math.Pow(10, -elo/400))
	at := time.Unix(0, 0)
	lo, hi := 0.0, 1.0
	chance := func(d float64) float64 {
		a, b := m.New(), m.New()
		a.Rating += d
		return m.Predict([]State{a}, []State{b}, at)
	}
	for chance(hi) < want && hi < 1e7 {
		hi *= 2
	}
	for range 60 {
		mid := (lo + hi) / 2
		if chance(mid) < want {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// withPlacement wraps m when the resolved parameters v turn placement on.
func withPlacement(m Model, v map[string]float64) Model {
	g := int(v["placement_games"])
	if g <= 0 {
		return m
	}
	return &Placement{Model: m, Games: g, Step: eloGap(m, v["placement_step"]), Shrink: v["placement_shrink"]}
}
