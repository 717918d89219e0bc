package jobs_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/bot"
	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestMatchmakePredictionPost: a match the scheduled pass forms in a
// queue with predictions on gets the prediction post beside its
// announcement, pinging nobody; with predictions off it gets none.
func TestMatchmakePredictionPost(t *testing.T) {
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
		com := community.New(p.db, p.svc)
		p.sched = jobs.New(p.svc, bt, slog.New(slog.DiscardHandler), jobs.Options{PostBackoff: time.Millisecond, Community: com})
		setupGuild(t, p.svc, 0)
		predictionsOn(t, p.svc, com)
		ps := users(1, 4)
		rateFour(t, p.svc, ps, gapFor(0.69))
		for _, u := range ps {
			join(t, p.svc, u)
		}
		c.Set(mmStart.Add(120 * time.Second))
		run(t, p, jobs.JobMatchmake)
		ms, err := p.svc.Matches(ctx, ladder.MatchFilter{GuildID: guild, Limit: 10})
		if err != nil || len(ms) != 1 {
			t.Fatalf("Matches() = %d, %v, want 1", len(ms), err)
		}
		msgs := fake.ChannelMessages(channel)
		if len(msgs) != 2 {
			t.Fatalf("Got(%d messages), want the announcement and the prediction post", len(msgs))
		}
		post := msgs[1]
		if !strings.Contains(post.Content, fmt.Sprintf("**Predictions** for match #%d", ms[0].ID)) || len(post.Mentions) != 0 {
			t.Errorf("Got(prediction post) = %q pinging %v", post.Content, post.Mentions)
		}
		if _, ok := post.ButtonByLabel("Team 1 wins"); !ok {
			t.Errorf("Got(prediction post) without its buttons: %+v", post.Buttons())
		}
	})
}

// TestDraftedPredictionPost: in captains mode the pass forms a match
// whose teams the captains pick, so no prediction post goes out with the
// matcher's teams; when the pick runs out and the ready-checks job makes
// it, the draft is done and the post shows the drafted teams.
func TestDraftedPredictionPost(t *testing.T) {
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
		com := community.New(p.db, p.svc)
		p.sched = jobs.New(p.svc, bt, slog.New(slog.DiscardHandler), jobs.Options{PostBackoff: time.Millisecond, Community: com})
		setupGuild(t, p.svc, 0)
		setLobby(t, p.svc, func(l *ladder.Lobby) { l.PickMode, l.PickWindow = ladder.PickCaptains, 30*time.Second })
		predictionsOn(t, p.svc, com)
		ps := users(1, 4)
		rateFour(t, p.svc, ps, gapFor(0.69))
		for _, u := range ps {
			join(t, p.svc, u)
		}
		c.Set(mmStart.Add(120 * time.Second))
		run(t, p, jobs.JobMatchmake)
		ms, err := p.svc.Matches(ctx, ladder.MatchFilter{GuildID: guild, Limit: 10})
		if err != nil || len(ms) != 1 {
			t.Fatalf("Matches() = %d, %v, want 1", len(ms), err)
		}
		if msgs := fake.ChannelMessages(channel); len(msgs) != 1 {
			t.Errorf("Got(%d messages while the captains pick), want the draft only", len(msgs))
		}
		c.Add(31 * time.Second)
		run(t, p, jobs.JobReady)
		m, err := p.svc.Match(ctx, guild, ms[0].ID)
		if err != nil || len(m.Teams[0]) != 2 {
			t.Fatalf("Match() = %+v, %v, want the drafted teams", m, err)
		}
		msgs := fake.ChannelMessages(channel)
		if len(msgs) != 2 {
			t.Fatalf("Got(%d messages), want the match and the prediction post", len(msgs))
		}
		post := msgs[1]
		if !strings.Contains(post.Content, fmt.Sprintf("**Predictions** for match #%d", m.ID)) || len(post.Mentions) != 0 {
			t.Errorf("Got(prediction post) = %q pinging %v", post.Content, post.Mentions)
		}
		if len(post.Embeds) != 1 || len(post.Embeds[0].Fields) != 2 ||
			post.Embeds[0].Fields[0].Value != fmt.Sprintf("<@%s>, <@%s>", m.Teams[0][0], m.Teams[0][1]) {
			t.Errorf("Got(prediction post) = %q, want the drafted teams %v", post.Text(), m.Teams)
		}
	})
}

// predictionsOn turns predictions on for the guild's first queue.
func predictionsOn(t *testing.T, svc *ladder.Service, com *community.Service) {
	t.Helper()
	ctx := context.Background()
	qs, err := svc.Queues(ctx, guild)
	if err != nil {
		t.Fatal(err)
	}
	on := true
	if _, err := com.SetSettings(ctx, moderator, guild, qs[0].Name, &on, nil); err != nil {
		t.Fatalf("SetSettings() = %v", err)
	}
}
