package rating

import "time"

// Model is a rating model (docs/spec.md 2): it predicts the chance that team a beats
// team b and updates every player from a result. Models are pure functions of
// (states, teams, result, time), so a ladder's ratings are a deterministic fold
// of its confirmed match log.
type Model interface {
	// Name is the model's registry name, e.g. "team-glicko".
	Name() string
	// New returns a new player's state.
	New() State
	// Predict returns P(team a beats team b) for a match played at time at.
	Predict(a, b []State, at time.Time) float64
	// Update applies a result in place: score is 1 when a wins, 0.5 for a
	// draw and 0 when b wins. It must not allocate.
	Update(a, b []State, score float64, at time.Time)
	// Display returns the rating and deviation a leaderboard shows and sorts
	// by (OpenSkill shows its ordinal mu − 3σ, for example).
	Display(s State) (rating, dev float64)
}
