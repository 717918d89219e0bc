package jobs_test

import (
	"context"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestStale moves the clock past stale_days (30) without a match: the
// daily job flags the players, hides them from the leaderboard, and one
// match brings the players of that match back.
func TestStale(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		day0 := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
		c := ladder.NewManualClock(day0)
		p := newProc(t, testdb.DSN(t, b), c, &poster{})
		setupGuild(t, p.svc, 0)
		// Twelve rounds bring every RD under 100, out of placement.
		playRounds(t, p.svc, users(1, 8), 12, 1)

		listed := func() int {
			page, err := p.svc.Leaderboard(ctx, ladder.LeaderboardQuery{GuildID: guild, Limit: 200})
			if err != nil {
				t.Fatalf("Leaderboard() = %v", err)
			}
			return len(page.Standings)
		}
		if got := listed(); got != 8 {
			t.Fatalf("Got(listed before) = %d, want 8", got)
		}

		// Day 29.5: the midnight run finds them active.
		c.Set(time.Date(2026, 2, 4, 0, 0, 0, 0, time.UTC))
		if !run(t, p, jobs.JobStale) {
			t.Fatalf("Got(Run(stale) on day 29.5) = false, want true")
		}
		if s := standing(t, p.svc, user(1)); s.Stale {
			t.Errorf("Got(stale on day 29.5) = true, want false")
		}
		// A second run of the same day is claimed already.
		if run(t, p, jobs.JobStale) {
			t.Errorf("Got(second Run(stale) the same day) = true, want false")
		}

		// Day 30.5: flagged and hidden.
		c.Set(time.Date(2026, 2, 5, 0, 0, 0, 0, time.UTC))
		if !run(t, p, jobs.JobStale) {
			t.Fatalf("Got(Run(stale) on day 30.5) = false, want true")
		}
		for i := 1; i <= 8; i++ {
			if s := standing(t, p.svc, user(i)); !s.Stale {
				t.Errorf("Got(stale of player %d on day 30.5) = false, want true", i)
			}
		}
		if got := listed(); got != 0 {
			t.Errorf("Got(listed with everyone stale) = %d, want 0", got)
		}

		// One match clears the flag of its four players only.
		c.Set(time.Date(2026, 2, 5, 9, 0, 0, 0, time.UTC))
		record(t, p.svc, user(1), user(2), user(3), user(4), 2)
		for i := 1; i <= 8; i++ {
			want := i > 4
			if s := standing(t, p.svc, user(i)); s.Stale != want {
				t.Errorf("Got(stale of player %d after one match) = %v, want %v", i, s.Stale, want)
			}
		}
		if got := listed(); got != 4 {
			t.Errorf("Got(listed after one match) = %d, want 4", got)
		}
		// The next day's run does not flag them again.
		c.Set(time.Date(2026, 2, 6, 0, 0, 0, 0, time.UTC))
		run(t, p, jobs.JobStale)
		if s := standing(t, p.svc, user(1)); s.Stale {
			t.Errorf("Got(stale the day after playing) = true, want false")
		}
	})
}

// TestAutoConfirm leaves a report unanswered: the every-minute job leaves
// it alone inside the 30 min window, confirms and rates it after, and
// tells the match's channel.
func TestAutoConfirm(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		start := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
		c := ladder.NewManualClock(start)
		rec := &poster{}
		p := newProc(t, testdb.DSN(t, b), c, rec)
		setupGuild(t, p.svc, 0)
		qs, err := p.svc.Queues(ctx, guild)
		if err != nil {
			t.Fatalf("Queues() = %v", err)
		}
		m, err := p.svc.CreateMatch(ctx, ladder.NewMatch{GuildID: guild, QueueID: qs[0].ID, ChannelID: channel,
			Teams: [2][]string{{user(1), user(2)}, {user(3), user(4)}}})
		if err != nil {
			t.Fatalf("CreateMatch() = %v", err)
		}
		if _, err := p.svc.Report(ctx, ladder.Actor{UserID: user(1)}, guild, m.ID, ladder.Win); err != nil {
			t.Fatalf("Report() = %v", err)
		}

		state := func() ladder.MatchState {
			got, err := p.svc.Match(ctx, guild, m.ID)
			if err != nil {
				t.Fatalf("Match() = %v", err)
			}
			return got.State
		}
		c.Set(start.Add(29 * time.Minute))
		run(t, p, jobs.JobConfirm)
		if got := state(); got != ladder.StateReported {
			t.Fatalf("Got(state at 29 min) = %s, want %s", got, ladder.StateReported)
		}
		c.Set(start.Add(30*time.Minute + time.Second))
		if !run(t, p, jobs.JobConfirm) {
			t.Fatalf("Got(Run(confirm) at 30 min) = false, want true")
		}
		if got := state(); got != ladder.StateConfirmed {
			t.Fatalf("Got(state after the window) = %s, want %s", got, ladder.StateConfirmed)
		}
		s := standing(t, p.svc, user(1))
		if s.Wins != 1 || s.Games != 1 {
			t.Errorf("Got(record of the reporter) = %d wins in %d games, want 1 in 1", s.Wins, s.Games)
		}
		ns := rec.notes()
		if len(ns) != 1 || ns[0].channel != channel || len(ns[0].msg.Mentions) != 4 {
			t.Fatalf("Got(notices) = %+v, want one to %s pinging the 4 players", ns, channel)
		}
		// Running again (next minute) finds nothing to do.
		c.Set(start.Add(31 * time.Minute))
		run(t, p, jobs.JobConfirm)
		if got := len(rec.notes()); got != 1 {
			t.Errorf("Got(notices after another run) = %d, want 1", got)
		}
	})
}

// TestStaleAfterLateResolution resolves, after five weeks, a dispute of a
// match played on the first day, while its players kept playing every few
// days: the match is rated at its time, at the end of the log, and must
// not make its players look idle since then: neither the daily stale job
// nor the count of players due to go stale may take them for idle.
func TestStaleAfterLateResolution(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		day0 := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
		c := ladder.NewManualClock(day0)
		p := newProc(t, testdb.DSN(t, b), c, &poster{})
		setupGuild(t, p.svc, 0)
		playRounds(t, p.svc, users(1, 8), 12, 1)
		qs, err := p.svc.Queues(ctx, guild)
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.svc.CreateMatch(ctx, ladder.NewMatch{GuildID: guild, QueueID: qs[0].ID, Teams: [2][]string{{user(1), user(2)}, {user(3), user(4)}}})
		if err != nil {
			t.Fatalf("CreateMatch() = %v", err)
		}
		if _, err := p.svc.Report(ctx, ladder.Actor{UserID: user(1)}, guild, m.ID, ladder.Win); err != nil {
			t.Fatalf("Report() = %v", err)
		}
		if _, err := p.svc.Dispute(ctx, ladder.Actor{UserID: user(3)}, guild, m.ID, "we won that one", ""); err != nil {
			t.Fatalf("Dispute() = %v", err)
		}
		var last time.Time
		for day := 5; day <= 35; day += 5 {
			last = day0.AddDate(0, 0, day)
			c.Set(last)
			record(t, p.svc, user(1), user(2), user(3), user(4), 1+day/5%2)
		}
		c.Set(day0.AddDate(0, 0, 35).Add(time.Hour))
		if _, err := p.svc.Resolve(ctx, moderator, guild, m.ID, 2, "screenshot shows team 2 won"); err != nil {
			t.Fatalf("Resolve() = %v", err)
		}
		c.Set(time.Date(2026, 2, 10, 0, 0, 0, 0, time.UTC))
		if u, err := p.svc.Unlisted(ctx, guild, "", 0); err != nil || u.StaleDue != 4 {
			t.Errorf("Got(Unlisted) = %d due to go stale, %v; want 4, the players idle since the first day", u.StaleDue, err)
		}
		if !run(t, p, jobs.JobStale) {
			t.Fatalf("Got(Run(stale)) = false, want true")
		}
		for i := 1; i <= 4; i++ {
			if s := standing(t, p.svc, user(i)); s.Stale {
				t.Errorf("Got(stale of player %d a day after their last match, on %v) = true, want false", i, last)
			}
		}
		for i := 5; i <= 8; i++ {
			if s := standing(t, p.svc, user(i)); !s.Stale {
				t.Errorf("Got(stale of player %d, idle 36 days) = false, want true", i)
			}
		}
	})
}

// TestEveryMinuteRunsPruned: the daily job deletes the finished runs of
// every job claimed each minute once they are older than KeepRuns (48 h),
// so job_runs does not grow by 1,440 rows a day per job for ever; the
// weekly top's claim of the running week stays, or a restart later in the
// week would post its table again.
func TestEveryMinuteRunsPruned(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		day0 := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
		c := ladder.NewManualClock(day0)
		p := newProc(t, testdb.DSN(t, b), c, &poster{})
		setupGuild(t, p.svc, 0)
		if err := p.sched.RunAll(ctx); err != nil {
			t.Fatalf("RunAll() = %v", err)
		}
		c.Add(72 * time.Hour)
		run(t, p, jobs.JobStale)
		for _, name := range p.sched.Jobs() {
			if name == jobs.JobStale || name == jobs.JobWeekly || name == jobs.JobRoleReconcile {
				continue
			}
			runs, err := p.db.JobRuns(ctx, name)
			if err != nil {
				t.Fatalf("JobRuns(%s) = %v", name, err)
			}
			if len(runs) != 0 {
				t.Errorf("Got(runs of %s three days on) = %+v, want none: every-minute runs are pruned after 48 h", name, runs)
			}
		}
		if runs, err := p.db.JobRuns(ctx, jobs.JobWeekly); err != nil || len(runs) != 1 {
			t.Errorf("Got(runs of %s) = %+v, %v; want the week's claim kept", jobs.JobWeekly, runs, err)
		}
	})
}
