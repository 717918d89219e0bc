package jobs_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
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

// downPoster is a poster whose weekly top posts of one queue fail
// while down is set, as Discord does in an outage or for a channel the
// bot lost access to.
type downPoster struct {
	*poster
	mu    sync.Mutex
	down  string // the queue name whose weekly post fails
	tried int
}

func (f *downPoster) Post(ctx context.Context, channelID string, msg commands.Reply) (string, error) {
	f.mu.Lock()
	down := f.down != "" && isWeeklyTop(msg) && strings.Contains(firstTitle(msg), f.down)
	if down {
		f.tried++
	}
	f.mu.Unlock()
	if down {
		return "", errors.New("500 Internal Server Error")
	}
	return f.poster.Post(ctx, channelID, msg)
}

// TestWeeklyTopRetried: a weekly top that Discord refused is posted when
// the job looks again more than 5 minutes on, within the week, and a queue whose
// post went out is not posted twice; before, the week's claim was
// finished with the error and the table never went out.
func TestWeeklyTopRetried(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		c := ladder.NewManualClock(time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC))
		rec := &downPoster{poster: &poster{}}
		p := newProc(t, testdb.DSN(t, b), c, rec)
		g := setupGuild(t, p.svc, 0)
		g.WeeklyTop = true
		if _, err := p.svc.UpdateGuild(ctx, moderator, g); err != nil {
			t.Fatal(err)
		}
		qs, err := p.svc.Queues(ctx, guild)
		if err != nil {
			t.Fatal(err)
		}
		q := qs[0]
		q.ID, q.Name = 0, "duos"
		second, err := p.svc.CreateQueue(ctx, moderator, q)
		if err != nil {
			t.Fatalf("CreateQueue() = %v", err)
		}
		playRounds(t, p.svc, users(1, 12), 6, 3)
		// Enough games that the four are no longer provisional, so listed.
		for i := range 16 {
			u := users(1, 4)
			if _, err := p.svc.RecordResult(ctx, ladder.ResultInput{GuildID: guild, Queue: second.Name, Team1: u[:2], Team2: u[2:], Winner: 1 + i%2}); err != nil {
				t.Fatalf("RecordResult(duos) = %v", err)
			}
		}
		rec.down = "duos"
		monday := time.Date(2026, 1, 12, 0, 0, 0, 0, time.UTC)
		c.Set(monday)
		if _, err := p.sched.Run(ctx, jobs.JobWeekly); err == nil || !strings.Contains(err.Error(), "500") {
			t.Fatalf("Got(Run(weekly-top) with Discord down for duos) = %v, want the post's error", err)
		}
		if got := len(rec.tops()); got != 1 || rec.tried == 0 {
			t.Fatalf("Got(weekly posts, tries of duos) = %d, %d; want the default queue's 1 and duos tried", got, rec.tried)
		}
		rec.mu.Lock()
		rec.down = ""
		rec.mu.Unlock()
		c.Set(monday.Add(2 * time.Minute))
		run(t, p, jobs.JobWeekly)
		if got := len(rec.tops()); got != 1 {
			t.Fatalf("Got(weekly posts 2 minutes on) = %d, want 1: a failed run is taken over after 5 minutes", got)
		}
		c.Set(monday.Add(6 * time.Minute))
		run(t, p, jobs.JobWeekly)
		tops := rec.tops()
		if len(tops) != 2 || !strings.Contains(firstTitle(tops[1].msg), "duos") {
			t.Fatalf("Got(weekly posts 6 minutes on) = %d, want the default queue's and then duos'", len(tops))
		}
		for _, at := range []time.Duration{10 * time.Minute, 24 * time.Hour} {
			c.Set(monday.Add(at))
			run(t, p, jobs.JobWeekly)
			if got := len(rec.tops()); got != 2 {
				t.Fatalf("Got(weekly posts %s on) = %d, want 2: each queue's table once a week", at, got)
			}
		}
		c.Set(monday.Add(7 * 24 * time.Hour))
		run(t, p, jobs.JobWeekly)
		if got := len(rec.tops()); got != 4 {
			t.Fatalf("Got(weekly posts the next Monday) = %d, want 4", got)
		}
	})
}
