package rating

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

// MaxTeamSize is the largest team a queue or a match may have (docs/spec.md: up to 8v8).
const MaxTeamSize = 8
