package storage

import (
	"strings"

	"github.com/ladderbot/ladderbot/ladder"
)

// The match states the statements test, in the two forms they take.
//
// A bound list (`m.state IN ?`) is one statement text for any list, but
// SQLite cannot see through it to a partial index whose test names the
// states (matches_log, matches_due, match_rooms_live, …): it sees
// through a single bound `state = ?`, not through `state IN (?, ?)`. A
// statement that must read such an index writes its states out as
// literals instead. Only the code's own constants are written so; no
// user value reaches sqlStrings.

// ratedStates are the match states whose results are rated
// (ladder.MatchState.Rated), as a list to bind.
var ratedStates = []string{string(ladder.StateConfirmed), string(ladder.StateResolved)}

// ratedIn is the SQL test that a match m is rated, written out as
// matches_log's own test is, so SQLite reads that index.
const ratedIn = `m.state IN ('` + string(ladder.StateConfirmed) + `', '` + string(ladder.StateResolved) + `')`

// endedStates are the states of a match that has ended, written out.
var endedStates = sqlStrings([]string{string(ladder.StateConfirmed), string(ladder.StateResolved), string(ladder.StateCancelled), string(ladder.StateVoided)})

// pendingStates are the states of matches_state, the partial index of a
// guild's matches still in play or awaiting a moderator, and
// pendingTest its test as the index writes it. SQLite uses a partial
// index only when the statement's WHERE holds one of the index's terms as
// it is: `state IN ('disputed')` alone does not let it, so a read of
// some of these states states the index's own test beside its own.
var pendingStates = []string{string(ladder.StateOpen), string(ladder.StateReported), string(ladder.StateDisputed)}

var pendingTest = "state IN (" + sqlStrings(pendingStates) + ")"

// sqlStrings writes ss as a list of SQL string literals, each quote
// doubled: for values of the code's own (match and room states) that a
// partial index's test must see written out.
func sqlStrings(ss []string) string {
	var b strings.Builder
	for i, s := range ss {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("'" + strings.ReplaceAll(s, "'", "''") + "'")
	}
	return b.String()
}
