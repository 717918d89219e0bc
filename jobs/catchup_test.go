package jobs_test

import (
	"context"
	"errors"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/commands"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestMissedSeasonCloseCaughtUp stops the only process before April 1 and
// starts a new one on April 3: Start's catch-up closes the overdue season
// at once, posts it, and a further restart does nothing more.
func TestMissedSeasonCloseCaughtUp(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		dsn := testdb.DSN(t, b)
		c := ladder.NewManualClock(seasonStart)
		rec := &poster{}
		first := newProc(t, dsn, c, rec)
		playSeason(t, first, c)

		// Up on March 31, down over April 1.
		c.Set(time.Date(2026, 3, 31, 23, 0, 0, 0, time.UTC))
		startStop(t, first.sched)
		if cur, _ := first.svc.LatestSeason(ctx, guild); cur.Number != 1 {
			t.Fatalf("Got(season on March 31) = %d, want 1", cur.Number)
		}
		first.db.Close()

		restart := time.Date(2026, 4, 3, 9, 30, 0, 0, time.UTC)
		c.Set(restart)
		second := newProc(t, dsn, c, rec)
		startStop(t, second.sched)
		seasons, err := second.svc.Seasons(ctx, guild)
		if err != nil {
			t.Fatalf("Seasons() = %v", err)
		}
		if len(seasons) != 2 || !seasons[0].EndedAt.Equal(restart) || !seasons[1].StartedAt.Equal(restart) {
			t.Fatalf("Got(seasons after the restart) = %+v, want season 1 ended and season 2 started at %s", seasons, restart)
		}
		runs, err := second.db.JobRuns(ctx, "season-close:"+guild)
		if err != nil || len(runs) != 1 || runs[0].Period != "2026-04-01T00:00:00Z" {
			t.Errorf("Got(season-close runs) = %+v, %v; want the April 1 period", runs, err)
		}
		if ps := rec.posts(); len(ps) != 1 || !reflect.DeepEqual(ps[0].msg, finalStandings(t, second.svc, 1)) {
			t.Errorf("Got(posts after the catch-up) = %d (%+v), want season 1's table once", len(ps), ps)
		}

		// Another restart the same day: season 2 is due July 1, nothing happens.
		c.Set(restart.Add(time.Hour))
		third := newProc(t, dsn, c, rec)
		startStop(t, third.sched)
		if cur, _ := third.svc.LatestSeason(ctx, guild); cur.Number != 2 || !cur.Running() {
			t.Errorf("Got(season after a second restart) = %+v, want season 2 running", cur)
		}
		if got := len(rec.posts()); got != 1 {
			t.Errorf("Got(posts after a second restart) = %d, want 1", got)
		}
	})
}

// startStop starts a scheduler, whose catch-up runs every job once, and
// stops it, which waits for those runs.
func startStop(t *testing.T, s *jobs.Scheduler) {
	t.Helper()
	if err := s.Start(context.Background()); err != nil {
		t.Fatalf("Start() = %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.Stop(ctx); err != nil {
		t.Fatalf("Stop() = %v", err)
	}
}

// TestModeratorCloseNotReposted: a season a moderator ended is posted by
// /mod season end, so the job does not post it again, and the schedule
// then counts from the new season's start.
func TestModeratorCloseNotReposted(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		c := ladder.NewManualClock(seasonStart)
		rec := &poster{}
		p := newProc(t, testdb.DSN(t, b), c, rec)
		playSeason(t, p, c)
		c.Set(time.Date(2026, 3, 25, 0, 0, 0, 0, time.UTC))
		if _, err := p.svc.EndSeason(ctx, moderator, guild, 0); err != nil {
			t.Fatalf("EndSeason() = %v", err)
		}
		c.Set(time.Date(2026, 3, 25, 0, 1, 0, 0, time.UTC))
		run(t, p, jobs.JobSeasons)
		if got := len(rec.posts()); got != 0 {
			t.Errorf("Got(posts after a moderator's close) = %d, want 0", got)
		}
		// Season 2 began March 25: the April 1 run closes it (the schedule
		// is the calendar, not a season length).
		c.Set(aprilFirst.Add(30 * time.Second))
		run(t, p, jobs.JobSeasons)
		cur, _ := p.svc.LatestSeason(ctx, guild)
		if cur.Number != 3 {
			t.Errorf("Got(season after April 1) = %d, want 3", cur.Number)
		}
		if ps := rec.posts(); len(ps) != 1 || !reflect.DeepEqual(ps[0].msg, finalStandings(t, p.svc, 2)) {
			t.Errorf("Got(posts after April 1) = %d (%+v), want season 2's table once", len(ps), ps)
		}
	})
}

// TestSeasonDue reads guild schedules in UTC.
func TestSeasonDue(t *testing.T) {
	cases := []struct {
		name, schedule string
		started, want  time.Time
		wantErr        bool
	}{
		{"quarterly from January", "0 0 1 1,4,7,10 *", time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC), time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC), false},
		{"started exactly on time", "0 0 1 1,4,7,10 *", time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC), false},
		{"late catch-up start", "0 0 1 1,4,7,10 *", time.Date(2026, 4, 3, 9, 30, 0, 0, time.UTC), time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC), false},
		{"monthly", "0 12 1 * *", time.Date(2026, 12, 15, 0, 0, 0, 0, time.UTC), time.Date(2027, 1, 1, 12, 0, 0, 0, time.UTC), false},
		// 23:00 at UTC−2 is already February 1 01:00 UTC: next is March 1.
		{"non-UTC start read in UTC", "0 0 1 * *", time.Date(2026, 1, 31, 23, 0, 0, 0, time.FixedZone("X", -2*3600)), time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), false},
		{"six fields", "0 0 0 1 1 *", time.Time{}, time.Time{}, true},
		{"garbage", "every quarter", time.Time{}, time.Time{}, true},
		{"never (Feb 30)", "0 0 30 2 *", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Time{}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := jobs.SeasonDue(tc.schedule, tc.started)
			if (err != nil) != tc.wantErr {
				t.Fatalf("Got(SeasonDue(%q) error) = %v, want error %v", tc.schedule, err, tc.wantErr)
			}
			if !got.Equal(tc.want) {
				t.Errorf("Got(SeasonDue(%q, %s)) = %s, want %s", tc.schedule, tc.started, got, tc.want)
			}
		})
	}
}

// TestDeadClaimTakenOver: a process claimed the April 1 close and died
// before closing. Within the lease (10 min) the others leave it alone;
// after it, the next run takes the claim over and closes the season.
func TestDeadClaimTakenOver(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		c := ladder.NewManualClock(seasonStart)
		rec := &poster{}
		p := newProc(t, testdb.DSN(t, b), c, rec)
		playSeason(t, p, c)

		c.Set(aprilFirst.Add(5 * time.Second))
		if ok, err := p.svc.ClaimJob(ctx, "season-close:"+guild, "2026-04-01T00:00:00Z"); err != nil || !ok {
			t.Fatalf("ClaimJob() = %v, %v; want the dead process's claim", ok, err)
		}
		c.Set(aprilFirst.Add(5 * time.Minute))
		run(t, p, jobs.JobSeasons)
		if cur, _ := p.svc.LatestSeason(ctx, guild); cur.Number != 1 {
			t.Fatalf("Got(season within the lease) = %d, want 1", cur.Number)
		}
		c.Set(aprilFirst.Add(11 * time.Minute))
		run(t, p, jobs.JobSeasons)
		if cur, _ := p.svc.LatestSeason(ctx, guild); cur.Number != 2 {
			t.Fatalf("Got(season after the lease) = %d, want 2", cur.Number)
		}
		runs, err := p.db.JobRuns(ctx, "season-close:"+guild)
		if err != nil || len(runs) != 1 || runs[0].FinishedAt.IsZero() || !runs[0].StartedAt.Equal(aprilFirst.Add(11*time.Minute)) {
			t.Errorf("Got(season-close runs) = %+v, %v; want the one run, taken over at 00:11 and finished", runs, err)
		}
		if got := len(rec.posts()); got != 1 {
			t.Errorf("Got(posts) = %d, want 1", got)
		}
	})
}

// TestScheduleChangedMidSeason: a moderator makes seasons monthly in the
// middle of February. /config says the next change is March 1, and that
// is when the season closes: the new schedule counts from when it was set,
// not from the season's start (January), whose first monthly time,
// February 1, had passed, so the season closed at once.
func TestScheduleChangedMidSeason(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		c := ladder.NewManualClock(seasonStart)
		rec := &poster{}
		p := newProc(t, testdb.DSN(t, b), c, rec)
		playSeason(t, p, c)
		c.Set(time.Date(2026, 2, 15, 10, 0, 0, 0, time.UTC))
		g, err := p.svc.Guild(ctx, guild)
		if err != nil {
			t.Fatal(err)
		}
		g.SeasonSchedule = "0 0 1 * *"
		if _, err := p.svc.UpdateGuild(ctx, moderator, g); err != nil {
			t.Fatalf("UpdateGuild(monthly) = %v", err)
		}
		if next, err := ladder.NextSeasonClose(g.SeasonSchedule, c.Now()); err != nil || !next.Equal(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)) {
			t.Fatalf("Got(next season change as /config shows it) = %v, %v; want March 1", next, err)
		}
		c.Add(time.Minute)
		run(t, p, jobs.JobSeasons)
		if cur, _ := p.svc.LatestSeason(ctx, guild); cur.Number != 1 || !cur.Running() {
			t.Errorf("Got(season a minute after the change) = %+v, want season 1 running until March 1", cur)
		}
		if got := len(rec.posts()); got != 0 {
			t.Errorf("Got(posts a minute after the change) = %d, want 0", got)
		}
		c.Set(time.Date(2026, 3, 1, 0, 0, 30, 0, time.UTC))
		run(t, p, jobs.JobSeasons)
		if cur, _ := p.svc.LatestSeason(ctx, guild); cur.Number != 2 {
			t.Errorf("Got(season on March 1) = %d, want 2", cur.Number)
		}
		// Setting the same schedule again changes nothing: season 2 closes
		// on April 1 as the schedule says.
		c.Set(time.Date(2026, 3, 20, 0, 0, 0, 0, time.UTC))
		if g, err = p.svc.Guild(ctx, guild); err != nil {
			t.Fatal(err)
		}
		g.StaleDays = 40
		if _, err := p.svc.UpdateGuild(ctx, moderator, g); err != nil {
			t.Fatalf("UpdateGuild(stale days) = %v", err)
		}
		c.Set(time.Date(2026, 4, 1, 0, 0, 30, 0, time.UTC))
		run(t, p, jobs.JobSeasons)
		if cur, _ := p.svc.LatestSeason(ctx, guild); cur.Number != 3 {
			t.Errorf("Got(season on April 1) = %d, want 3", cur.Number)
		}
	})
}

// failingPoster is a poster whose posts fail while down is set: Discord
// unreachable for a while.
type failingPoster struct {
	poster
	down atomic.Bool
}

func (p *failingPoster) Post(ctx context.Context, channelID string, msg commands.Reply) (string, error) {
	if p.down.Load() {
		return "", errors.New("discord: 503 Service Unavailable")
	}
	return p.poster.Post(ctx, channelID, msg)
}

// TestFailedSeasonCloseRetried: the season's close fails once (the
// database refuses the frozen table) and the post of its standings fails
// once (Discord is down for the three attempts). Both are tried again on
// a later run, once each, instead of leaving the season running for good
// and its table unposted.
func TestFailedSeasonCloseRetried(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		c := ladder.NewManualClock(seasonStart)
		rec := &failingPoster{}
		p := newProc(t, testdb.DSN(t, b), c, rec)
		playSeason(t, p, c)
		exec := func(q string) {
			t.Helper()
			if err := p.db.Gorm().Exec(q).Error; err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		runSeasons := func(at time.Time) error {
			c.Set(at)
			_, err := p.sched.Run(ctx, jobs.JobSeasons)
			return err
		}
		exec("ALTER TABLE season_results RENAME TO season_results_away")
		if err := runSeasons(aprilFirst.Add(30 * time.Second)); err == nil {
			t.Fatalf("Got(Run(seasons) without season_results) = nil, want the close's error")
		}
		exec("ALTER TABLE season_results_away RENAME TO season_results")
		if cur, _ := p.svc.LatestSeason(ctx, guild); cur.Number != 1 {
			t.Fatalf("Got(season after the failed close) = %d, want 1", cur.Number)
		}
		rec.down.Store(true)
		var closed time.Time
		for m := 1; m <= 10; m++ {
			at := aprilFirst.Add(time.Duration(m)*time.Minute + 30*time.Second)
			runSeasons(at)
			if cur, _ := p.svc.LatestSeason(ctx, guild); cur.Number == 2 {
				closed = at
				break
			}
		}
		if closed.IsZero() {
			t.Fatalf("Got(season 10 minutes after a failed close) = 1, want 2: the close was never tried again")
		}
		if got := len(rec.posts()); got != 0 {
			t.Fatalf("Got(posts while Discord is down) = %d, want 0", got)
		}
		rec.down.Store(false)
		for m := 1; m <= 15; m++ {
			runSeasons(closed.Add(time.Duration(m) * time.Minute))
		}
		if ps := rec.posts(); len(ps) != 1 || !reflect.DeepEqual(ps[0].msg, finalStandings(t, p.svc, 1)) {
			t.Errorf("Got(posts after Discord came back) = %d, want season 1's table once", len(ps))
		}
	})
}
