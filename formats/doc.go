// Package formats owns a queue's competitive format beyond the single
// game: its pool of maps (or modes) and how a match's map is picked — by
// a vote of the players, by the two teams banning in turn until one is
// left, or at random.
//
// Picks, votes and bans are rows (map_picks, map_votes, map_bans), each
// written under the match's row lock, so a pick survives a restart, two
// processes never both finish it, and a double click or a stale menu
// changes nothing. Ties and timed-out bans are settled by a seed stored
// with the pick, so the audit log says exactly why a map was chosen. The
// chosen map is written to the match (ladder.Match.Map), where the API,
// webhooks, the match page and the CSV export read it.
package formats
