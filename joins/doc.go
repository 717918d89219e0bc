// Package joins decides who may enter a queue and when, per queue:
// requirements (a rating range, rated games in a named queue, a required
// or an excluded Discord role, an account age), open hours (windows in a
// time zone, after which the queue empties with a notice) and rematches
// (the players of a rated match queue together again for one more match
// once every one of them pressed Rematch).
//
// Its settings and rematches are rows (queue_joins, rematches,
// rematch_votes). The Service implements ladder.JoinGate, which the
// ladder asks on every way into a queue, so the slash command, the panel's
// buttons, a party's acceptance and a rematch refuse the same way, with a
// message that says which requirement failed and what the player has.
package joins
