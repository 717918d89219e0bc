package commands

import (
	"context"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/ladder"
)

// TestBalanceMatch previews and applies /balance match:ID on an open 2v2
// whose strongest two are on one team, and refuses mixed or bad requests.
func TestBalanceMatch(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if _, err := f.svc.EnsureGuild(ctx, guild); err != nil {
		t.Fatal(err)
	}
	a, b, c, d := user(1), user(2), user(3), user(4)
	for u, r := range map[string]float64{a: 1900, b: 1800, c: 1500, d: 1400} {
		f.ok(admin("mod rating set", map[string]any{"player": u, "rating": r, "rd": 60.0}))
	}
	qs, err := f.svc.Queues(ctx, guild)
	if err != nil {
		t.Fatal(err)
	}
	m, err := f.svc.CreateMatch(ctx, ladder.NewMatch{GuildID: guild, QueueID: qs[0].ID, Teams: [2][]string{{a, b}, {c, d}}})
	if err != nil {
		t.Fatal(err)
	}
	prev := f.ok(cmd(c, "balance", map[string]any{"match": m.ID}))
	if len(prev.Embeds) != 1 || !strings.Contains(prev.Embeds[0].Title, "rebalance preview") || !strings.Contains(prev.Embeds[0].Footer, "Rating gap 800.0 → 0.0") {
		t.Fatalf("Got(/balance match preview) = %+v, want a preview with gap 800 → 0", prev.Embeds)
	}
	if _, err := f.call(cmd(c, "balance", map[string]any{"match": m.ID, "apply": true})); ladder.ErrorCode(err) != ladder.CodeForbidden {
		t.Errorf("Got(member apply) error = %v, want forbidden", err)
	}
	for name, opts := range map[string]map[string]any{
		"players and match":     {"match": m.ID, "p1": a},
		"queue with match":      {"match": m.ID, "queue": "2v2"},
		"apply without a match": {"p1": a, "p2": b, "apply": true},
		"no players":            {},
	} {
		if _, err := f.call(cmd(c, "balance", opts)); ladder.ErrorCode(err) != ladder.CodeInvalid {
			t.Errorf("Got(/balance %s) error = %v, want invalid", name, err)
		}
	}
	got, err := f.svc.Match(ctx, guild, m.ID)
	if err != nil || got.Team(a) != got.Team(b) {
		t.Fatalf("Got(teams after refusals) = %v, %v, want unchanged", got.Teams, err)
	}
	const channel, message = "200000000000000009", "900000000000000077"
	if err := f.svc.RecordAnnouncement(ctx, ladder.Announcement{MatchID: m.ID, ChannelID: channel, MessageID: message}); err != nil {
		t.Fatal(err)
	}
	done := f.ok(admin("balance", map[string]any{"match": m.ID, "apply": true}))
	// The announcement is edited to show the new teams.
	if len(done.Posts) != 1 || done.Posts[0].ChannelID != channel || done.Posts[0].Message.Edit != message {
		t.Fatalf("Got(/balance match apply posts) = %+v, want an edit of message %s in %s", done.Posts, message, channel)
	}
	if fs := done.Posts[0].Message.Embeds[0].Fields; len(fs) < 2 ||
		strings.Contains(fs[0].Value, mention(a)) == strings.Contains(fs[0].Value, mention(b)) {
		t.Errorf("Got(edited announcement teams) = %+v, want a and b on different teams", fs)
	}
	if !strings.Contains(done.Embeds[0].Title, "teams rebalanced") || !strings.Contains(done.Embeds[0].Footer, "to win") {
		t.Errorf("Got(/balance match apply) = %+v", done.Embeds)
	}
	if got, err = f.svc.Match(ctx, guild, m.ID); err != nil || got.Team(a) == got.Team(b) {
		t.Errorf("Got(teams after apply) = %v, %v, want a and b apart", got.Teams, err)
	}
}
