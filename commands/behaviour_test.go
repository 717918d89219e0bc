package commands

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/ladder"
)

// TestBehaviourCommands flags a player through /match flag and reads the
// score in /profile and the flag in /mod flags; /config queue set turns
// behaviour pairing on and refuses a depth below two matches.
func TestBehaviourCommands(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if _, err := f.svc.EnsureGuild(ctx, guild); err != nil {
		t.Fatal(err)
	}
	qs, err := f.svc.Queues(ctx, guild)
	if err != nil {
		t.Fatal(err)
	}
	a, b, c, d := user(1), user(2), user(3), user(4)
	m, err := f.svc.CreateMatch(ctx, ladder.NewMatch{GuildID: guild, QueueID: qs[0].ID, Teams: [2][]string{{a, b}, {c, d}}})
	if err != nil {
		t.Fatal(err)
	}
	flagReq := cmd(a, "match flag", map[string]any{"match": m.ID, "player": c, "reason": "toxic"})
	if _, err := f.call(flagReq); ladder.ErrorCode(err) != ladder.CodeConflict {
		t.Errorf("Got(/match flag on an open match) error = %v, want conflict", err)
	}
	f.ok(cmd(a, "report", map[string]any{"match": m.ID, "outcome": "win"}))
	f.ok(cmd(c, "report", map[string]any{"match": m.ID, "outcome": "loss"}))
	r := f.ok(flagReq)
	if !r.Ephemeral || !strings.Contains(r.Content, "You flagged <@"+c+"> in match #"+fmt.Sprint(m.ID)+" for toxic") {
		t.Errorf("Got(/match flag) = %+v, want a private confirmation", r)
	}
	if _, err := f.call(flagReq); ladder.ErrorCode(err) != ladder.CodeConflict {
		t.Errorf("Got(second /match flag) error = %v, want conflict", err)
	}
	if _, err := f.call(cmd(b, "match flag", map[string]any{"match": m.ID, "player": "not-a-user", "reason": "afk"})); ladder.ErrorCode(err) != ladder.CodeInvalid {
		t.Errorf("Got(/match flag of a forged user) error = %v, want invalid", err)
	}
	p := f.ok(cmd(c, "profile", nil))
	if got := fieldValue(p, "Behaviour"); got != "90/100" {
		t.Errorf("Got(/profile Behaviour) = %q, want 90/100", got)
	}
	if got := fieldValue(f.ok(cmd(a, "profile", nil)), "Behaviour"); got != "100/100" {
		t.Errorf("Got(/profile Behaviour of the flagger) = %q, want 100/100", got)
	}
	if _, err := f.call(cmd(b, "mod flags", map[string]any{"player": c})); ladder.ErrorCode(err) != ladder.CodeForbidden {
		t.Errorf("Got(member /mod flags) error = %v, want forbidden", err)
	}
	mf := f.ok(admin("mod flags", map[string]any{"player": c}))
	if !strings.Contains(mf.Content, "behaviour 90/100") || !strings.Contains(mf.Content, "toxic by <@"+a+">") {
		t.Errorf("Got(/mod flags) = %q, want the score and the flag with its author", mf.Content)
	}
	if _, err := f.call(admin("config queue set", map[string]any{"queue": qs[0].Name, "behaviour_pairing": int64(5)})); ladder.ErrorCode(err) != ladder.CodeInvalid {
		t.Errorf("Got(behaviour_pairing 5 on a 2v2) error = %v, want invalid", err)
	}
	set := f.ok(admin("config queue set", map[string]any{"queue": qs[0].Name, "behaviour_pairing": int64(12)}))
	if !strings.Contains(set.Content, "low behaviour scores matched together from 12 queued") {
		t.Errorf("Got(/config queue set behaviour_pairing) = %q", set.Content)
	}
}

func fieldValue(r Reply, name string) string {
	for _, e := range r.Embeds {
		for _, fl := range e.Fields {
			if fl.Name == name {
				return fl.Value
			}
		}
	}
	return ""
}
