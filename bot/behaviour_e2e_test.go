package bot

import (
	"fmt"
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestBehaviourFlagEndToEnd flags a player through the real bot after a
// match both teams reported, refuses a second flag of the match, and reads
// the score in /profile and the flag in /mod flags, on both backends.
func TestBehaviourFlagEndToEnd(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, freshDSN(t, backend))
		e.establish()
		_, m := e.formMatch()
		winner, loser := userByID(m.Teams[0][0]), userByID(m.Teams[1][0])
		early := e.slash(loser, "match flag", map[string]any{"match": m.ID, "player": winner.ID, "reason": "toxic"})
		wantText(t, "flag an open match", early, "not over yet")
		e.slash(winner, "report", map[string]any{"match": m.ID, "outcome": "win"})
		e.slash(loser, "report", map[string]any{"match": m.ID, "outcome": "loss"})
		if got, err := e.svc.Match(e.ctx, testGuild, m.ID); err != nil || !got.State.Rated() {
			t.Fatalf("Got(match after both reports) = %v, %v, want rated", got.State, err)
		}
		r := e.slash(loser, "match flag", map[string]any{"match": m.ID, "player": winner.ID, "reason": "toxic"})
		if !r.Ephemeral() {
			t.Errorf("Got(/match flag answer) public, want private")
		}
		wantText(t, "flag", r, fmt.Sprintf("You flagged <@%s> in match #%d for toxic", winner.ID, m.ID))
		wantText(t, "second flag", e.slash(loser, "match flag", map[string]any{"match": m.ID, "player": m.Teams[0][1], "reason": "afk"}),
			"already flagged a player of match")
		wantText(t, "profile", e.slash(winner, "profile", nil), "90/100")
		wantText(t, "mod flags", e.slash(owner, "mod flags", map[string]any{"player": winner.ID}), "toxic by <@"+loser.ID+">")
	})
}
