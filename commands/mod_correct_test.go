package commands

import (
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/ladder"
)

// TestStaleCorrectionButton: a moderator previews a correction with
// /mod correct; before they press Apply, another moderator voids the
// match. The Apply button rated the voided match again with the
// previewed result, undoing the void with changes nobody previewed. It is
// refused now, naming the change, and the match stays voided; a preview
// of the match as it is applies, and a second press is already done.
func TestStaleCorrectionButton(t *testing.T) {
	f := newFixture(t)
	p := []string{user(1), user(2), user(3), user(4)}
	r, err := f.svc.RecordResult(t.Context(), ladder.ResultInput{GuildID: guild, Team1: p[:2], Team2: p[2:], Winner: 1})
	if err != nil {
		t.Fatal(err)
	}
	id := r.Match.ID
	opts := map[string]any{"match": id, "winner": int64(2)}
	pre := f.ok(admin("mod correct", opts))
	if len(pre.Buttons) != 1 {
		t.Fatalf("Got(preview) = %+v, want an Apply button", pre)
	}
	other := cmd(user(9998), "mod void", map[string]any{"match": id, "reason": "never played"})
	other.Permissions = PermManageGuild
	f.ok(other)
	press := func(r Reply) (Reply, error) {
		c := click(user(9999), r.Buttons[0][0].CustomID)
		c.Permissions = PermManageGuild
		return f.call(c)
	}
	if got, err := press(pre); ladder.ErrorCode(err) != ladder.CodeConflict || !strings.Contains(ladder.ErrorMessage(err), "changed since the preview") {
		t.Errorf("Got(stale Apply) = %q, %v, want refused: the match changed since the preview", got.Content, err)
	}
	if m, _ := f.svc.Match(t.Context(), guild, id); m.State != ladder.StateVoided {
		t.Errorf("Got(match after the stale Apply) = %s, want voided still", m.State)
	}
	again := f.ok(admin("mod correct", opts))
	done, err := press(again)
	if err != nil || !strings.Contains(done.Content, "Team 2 won") {
		t.Fatalf("Got(Apply of a fresh preview) = %q, %v, want team 2 won", done.Content, err)
	}
	if twice, err := press(again); err != nil || !strings.Contains(twice.Content, "already") {
		t.Errorf("Got(second press) = %q, %v, want already done", twice.Content, err)
	}
	for _, forged := range []string{ID(actModCorrect, id, "1", "bogus.1"), ID(actModCorrect, id, "1", "resolved.7")} {
		c := click(user(9999), forged)
		c.Permissions = PermManageGuild
		if _, err := f.call(c); ladder.ErrorCode(err) != ladder.CodeInvalid {
			t.Errorf("Got(forged %s) error = %v, want invalid", forged, err)
		}
	}
	if m, _ := f.svc.Match(t.Context(), guild, id); m.State != ladder.StateResolved || m.Winner != 2 {
		t.Errorf("Got(match at the end) = %s %d, want resolved for team 2", m.State, m.Winner)
	}
}
