package ladder

import "time"

// State is one player's rating state under any model. Every model reads and
// writes the same struct so storage can keep one row shape and a replay can
// fold the match log without allocating.
type State struct {
	// Rating is R for the Glicko and Elo families and mu for OpenSkill and TrueSkill.
	Rating float64
	// Dev is the rating deviation RD or sigma; models without uncertainty leave it 0.
	Dev float64
	// Games counts rated matches played.
	Games int
	// Last is the time of the last rated match; the zero time means never.
	Last time.Time
	// Recent is model-specific compact memory, such as SynElo's window of
	// recent results for its convergence score.
	Recent uint64
}

// MaxTeamSize is the largest team a queue or a match may have (SPEC: up to 8v8).
const MaxTeamSize = 8

// Model is a rating model (SPEC 2): it predicts the chance that team a beats
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
