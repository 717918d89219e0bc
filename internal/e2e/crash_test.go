package e2e

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestCrash kills ladderbot processes with SIGKILL at random instants
// during the load (Discord interactions, and a game server posting results
// to the HTTP API with idempotency keys, retried across the kills) and
// restarts them: every result acknowledged to a user or a game server is
// stored exactly once, nothing is rated twice, and `ladderbot verify` is
// clean. On embedded SQLite (one process, the deployment it is for) and
// on PostgreSQL (two shards).
func TestCrash(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		shards := 1
		if backend == "postgres" {
			shards = 2
		}
		ctx := testCtx(t, 3*time.Minute)
		dsn := freshDSN(t, backend)
		fake := startFake(t)
		var procs []*proc
		var addrs []string
		for i := range shards {
			p := newProc(t, "shard"+string(rune('0'+i)), dsn, fake, i, shards)
			addrs = append(addrs, freeAddr(t))
			p.env = append(p.env, "HTTP_ADDR="+addrs[i])
			p.start()
			procs = append(procs, p)
		}
		for _, p := range procs {
			p.waitConnected(ctx, fake, 1)
		}
		waitCommands(t, ctx, fake, procs...)

		l := newLoad(t, fake, dsn, 2*shards, 12, shards)
		l.wait = 6 * time.Second
		seed := uint64(time.Now().UnixNano())
		t.Logf("kill schedule seed %d", seed)
		more := func() bool { return l.sent.Load() < loadTarget(t, 800) }
		kills := killAtRandom(ctx, t, rand.New(rand.NewPCG(seed, 1)), fake, procs, 4, more)
		gs := newGameServer(t, l, l.guilds[0].id, addrs)
		apiDone := make(chan struct{})
		go func() { defer close(apiDone); gs.run(ctx, seed, more) }()
		l.run(ctx, loadTarget(t, 800))
		n := <-kills
		<-apiDone
		t.Logf("load: %s; %d processes killed with SIGKILL and restarted", l.summary(), n)
		if n == 0 {
			t.Errorf("Got(kills) = 0, want the load to run long enough for some")
		}
		for _, p := range procs {
			if !p.running() {
				p.start()
			}
		}
		for _, p := range procs {
			p.waitConnected(ctx, fake, 1)
		}
		// After the restarts the ladder keeps working: one more clean round.
		before := l.sent.Load()
		l.run(ctx, before+60)
		for _, p := range procs {
			p.stop()
		}
		l.mu.Lock()
		if l.classes[classInternal] > 0 {
			t.Errorf("Got(internal errors) = %d, want 0: a killed peer is not an internal error; e.g. %q", l.classes[classInternal], l.samples[classInternal])
		}
		l.mu.Unlock()
		checkLedger(t, l, dsn)
		gs.check(t, l)
	})
}

// killAtRandom kills one of procs with SIGKILL every 0.15–0.9 s, up to
// limit times while more() holds, and restarts it at once (the supervisor's
// job), waiting for its gateway session. It sends the number of kills when done.
func killAtRandom(ctx context.Context, t *testing.T, rng *rand.Rand, fake *fakediscord.Server, procs []*proc, limit int, more func() bool) <-chan int {
	done := make(chan int, 1)
	go func() {
		n := 0
		defer func() { done <- n }()
		for n < limit && more() && ctx.Err() == nil {
			time.Sleep(150*time.Millisecond + time.Duration(rng.Int64N(int64(750*time.Millisecond))))
			if !more() {
				return
			}
			p := procs[rng.IntN(len(procs))]
			p.kill()
			n++
			p.start()
			for fake.ShardSessions(p.shard[0], p.shard[1]) < 1 && ctx.Err() == nil && p.running() {
				time.Sleep(20 * time.Millisecond)
			}
		}
	}()
	return done
}
