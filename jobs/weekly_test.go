package jobs_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestWeeklyTop posts the top 10 once a week to guilds that turned it on.
func TestWeeklyTop(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		c := ladder.NewManualClock(time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC))
		rec := &poster{}
		p := newProc(t, testdb.DSN(t, b), c, rec)
		g := setupGuild(t, p.svc, 0)
		playRounds(t, p.svc, users(1, 12), 14, 3)

		monday := time.Date(2026, 1, 12, 0, 0, 0, 0, time.UTC)
		c.Set(monday)
		run(t, p, jobs.JobWeekly)
		if got := len(rec.tops()); got != 0 {
			t.Fatalf("Got(weekly posts with the setting off) = %d, want 0", got)
		}

		g.WeeklyTop = true
		if _, err := p.svc.UpdateGuild(ctx, moderator, g); err != nil {
			t.Fatalf("UpdateGuild() = %v", err)
		}
		c.Set(monday.Add(24 * time.Hour)) // same ISO week, the week was already run
		run(t, p, jobs.JobWeekly)
		if got := len(rec.tops()); got != 0 {
			t.Fatalf("Got(weekly posts in an already-run week) = %d, want 0", got)
		}
		c.Set(monday.Add(7 * 24 * time.Hour))
		if !run(t, p, jobs.JobWeekly) {
			t.Fatalf("Got(Run(weekly-top) next Monday) = false, want true")
		}
		posts := rec.tops()
		if len(posts) != 1 {
			t.Fatalf("Got(weekly posts) = %d, want 1", len(posts))
		}
		// The post is the rendering of the current top 10 (nothing was
		// played since), which must be ranks 1 to 10 best first.
		page, err := p.svc.Leaderboard(ctx, ladder.LeaderboardQuery{GuildID: guild, Limit: 10})
		if err != nil {
			t.Fatalf("Leaderboard() = %v", err)
		}
		page.Next = ""
		st := page.Standings
		if len(st) != 10 || st[0].Rank != 1 || st[9].Rank != 10 || st[0].Rating < st[9].Rating {
			t.Errorf("Got(weekly top) = %d rows, want ranks 1 to 10 best first", len(st))
		}
		if want := commands.WeeklyTop(i18n.English(), page); !reflect.DeepEqual(posts[0].msg, want) {
			t.Errorf("Got(weekly post) = %+v, want %+v", posts[0].msg, want)
		}
	})
}
