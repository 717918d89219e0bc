package e2e

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/fakediscord"
)

// loadTarget is how many interactions the CI load sends;
// LADDERBOT_E2E_INTERACTIONS raises it for a longer run.
func loadTarget(t testing.TB, ci int64) int64 {
	if s := os.Getenv("LADDERBOT_E2E_INTERACTIONS"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 1 {
			t.Fatalf("LADDERBOT_E2E_INTERACTIONS=%q: want a positive number", s)
		}
		return n
	}
	return ci
}

// testCtx ends a little before the test's deadline.
func testCtx(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// startFake starts the fake Discord for the processes of a test.
func startFake(t testing.TB) *fakediscord.Server {
	f := fakediscord.New()
	f.Token = botToken
	t.Cleanup(f.Close)
	return f
}

// waitCommands waits until shard 0 registered the commands globally.
func waitCommands(t testing.TB, ctx context.Context, fake *fakediscord.Server, procs ...*proc) {
	t.Helper()
	for len(fake.Commands("")) == 0 {
		select {
		case <-ctx.Done():
			for _, p := range procs {
				t.Logf("%s:\n%s", p.name, p.tail(20))
			}
			t.Fatal("no commands registered")
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// TestScaleOut runs two shards on one PostgreSQL database plus a second
// process on shard 0 that receives every interaction of its shard too (as
// Discord does with two sessions of one shard), under a concurrent load of
// joins, leaves, reports, confirms, disputes and moderator actions; then
// checks the ledger, `ladderbot verify`, that no interaction was answered
// twice, and that each scheduled job period ran in one process only.
func TestScaleOut(t *testing.T) {
	needPostgres(t)
	ctx := testCtx(t, 4*time.Minute)
	dsn := freshDSN(t, "postgres")
	fake := startFake(t)
	fake.SetFanOut(true)
	shard0 := newProc(t, "shard0", dsn, fake, 0, 2)
	shard1 := newProc(t, "shard1", dsn, fake, 1, 2)
	twin := newProc(t, "shard0-twin", dsn, fake, 0, 2)
	for _, p := range []*proc{shard0, shard1, twin} {
		p.start()
	}
	shard0.waitConnected(ctx, fake, 2)
	shard1.waitConnected(ctx, fake, 1)
	waitCommands(t, ctx, fake, shard0, shard1, twin)

	l := newLoad(t, fake, dsn, 4, 16, 2)
	target := loadTarget(t, 1000)
	start := time.Now()
	l.run(ctx, target)
	elapsed := time.Since(start)
	t.Logf("load: %s in %s (%.0f interactions/s)", l.summary(), elapsed.Round(time.Millisecond), float64(l.sent.Load())/elapsed.Seconds())
	if l.sent.Load() < target {
		t.Errorf("Got(interactions sent) = %d, want %d before the deadline", l.sent.Load(), target)
	}
	l.mu.Lock()
	for _, c := range []string{classInternal, classTimeout, classNoSession, classUnavailable} {
		if n := l.classes[c]; n > 0 {
			t.Errorf("Got(%s answers) = %d, want 0 without faults; e.g. %q", c, n, l.samples[c])
		}
	}
	l.mu.Unlock()
	// Let every process's cron fire the every-minute jobs at the same
	// instant at least once: the claims race, one process runs each.
	next := time.Now().Truncate(time.Minute).Add(time.Minute + 5*time.Second)
	t.Logf("waiting %s for a minute boundary with three schedulers running", time.Until(next).Round(time.Second))
	select {
	case <-time.After(time.Until(next)):
	case <-ctx.Done():
	}
	for _, p := range []*proc{shard0, shard1, twin} {
		p.stop()
	}
	checkCallbacks(t, fake, true)
	checkLedger(t, l, dsn)
	// The start-up catch-up, then at least one minute tick.
	checkJobs(t, l, map[string]int{"stale": 1, "confirm": 2, "queue-expiry": 2, "seasons": 2}, shard0, shard1, twin)
}
