package jobs_test

import (
	"context"
	"fmt"
	"github.com/ladderbot/ladderbot/ladder/matchmaking"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/bot"
	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestMatchmakeToDiscord forms a match by the scheduled pass and posts it
// through the real bot (discordgo) to a fake Discord. The queue has no
// channel of its own, so the announcement goes where the players joined,
// and it is the message /queue join posts: players mentioned and pinged
// (nobody else), both teams with their win chance, the quality, the three
// report buttons.
func TestMatchmakeToDiscord(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		fake := fakediscord.New()
		defer fake.Close()
		bt, err := bot.New(bot.Config{Token: "test-token", APIBase: fake.URL()}, commands.NewSet(nil, nil, nil), slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatalf("bot.New() = %v", err)
		}
		c := ladder.NewManualClock(mmStart)
		p := newProc(t, testdb.DSN(t, b), c, bt)
		setupGuild(t, p.svc, 0)
		ps := users(1, 4)
		rateFour(t, p.svc, ps, gapFor(0.69))
		for _, u := range ps {
			join(t, p.svc, u)
		}
		c.Set(mmStart.Add(119 * time.Second))
		run(t, p, jobs.JobMatchmake)
		if got := len(fake.ChannelMessages(channel)); got != 0 {
			t.Fatalf("Got(messages at 119 s) = %d, want 0", got)
		}
		c.Set(mmStart.Add(120 * time.Second))
		run(t, p, jobs.JobMatchmake)
		msgs := fake.ChannelMessages(channel)
		if len(msgs) != 1 {
			t.Fatalf("Got(messages at 120 s) = %d, want 1 announcement", len(msgs))
		}
		ms, err := p.svc.Matches(ctx, ladder.MatchFilter{GuildID: guild, Limit: 10})
		if err != nil || len(ms) != 1 {
			t.Fatalf("Matches() = %d, %v, want 1", len(ms), err)
		}
		m := ms[0]
		got := msgs[0]
		if !strings.HasPrefix(got.Content, fmt.Sprintf("**Match #%d** is ready: ", m.ID)) {
			t.Errorf("Got(content) = %q, want the match #%d announcement", got.Content, m.ID)
		}
		for _, u := range ps {
			if !strings.Contains(got.Content, "<@"+u+">") {
				t.Errorf("Got(content) = %q, want %s mentioned", got.Content, u)
			}
		}
		if pinged := slices.Sorted(slices.Values(got.Mentions)); !slices.Equal(pinged, ps) {
			t.Errorf("Got(allowed mentions) = %v, want the 4 players %v", pinged, ps)
		}
		for _, w := range []string{"Team 1 · ", "Team 2 · ", "% to win", "Match quality", fmt.Sprintf("%.2f", m.Quality)} {
			if !strings.Contains(got.Text(), w) {
				t.Errorf("Got(announcement text) = %q, want %q in it", got.Text(), w)
			}
		}

		// The very message /queue join renders for this match.
		want := commands.Announcement(i18n.English(), ladder.FormedMatch{Match: m, Proposal: matchmaking.Proposal{Quality: m.Quality}, Queue: defaultQueue(t, p.svc, func(*ladder.Queue) {})})
		if got.Content != want.Content {
			t.Errorf("Got(content) = %q, want %q", got.Content, want.Content)
		}
		if len(got.Embeds) != 1 || got.Embeds[0].Title != want.Embeds[0].Title || len(got.Embeds[0].Fields) != len(want.Embeds[0].Fields) {
			t.Fatalf("Got(embeds) = %+v, want %+v", got.Embeds, want.Embeds)
		}
		for i, f := range want.Embeds[0].Fields {
			if g := got.Embeds[0].Fields[i]; g.Name != f.Name || g.Value != f.Value {
				t.Errorf("Got(field %d) = %q: %q, want %q: %q", i, g.Name, g.Value, f.Name, f.Value)
			}
		}
		var wantIDs, gotIDs []string
		for _, b := range want.Buttons[0] {
			wantIDs = append(wantIDs, b.CustomID)
		}
		for _, b := range got.Buttons() {
			gotIDs = append(gotIDs, b.CustomID)
		}
		if len(wantIDs) != 3 || !slices.Equal(gotIDs, wantIDs) {
			t.Errorf("Got(buttons) = %v, want the report buttons %v", gotIDs, wantIDs)
		}
	})
}
