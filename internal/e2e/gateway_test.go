package e2e

import (
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestGatewayDrop cuts the gateway connection (no close frame, as a
// network failure) several times during the load: the process resumes its
// session, the fake replays what it missed, and no interaction is handled
// twice or lost.
func TestGatewayDrop(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		ctx := testCtx(t, 3*time.Minute)
		dsn := freshDSN(t, backend)
		fake := startFake(t)
		p := newProc(t, "shard0", dsn, fake, 0, 1)
		p.start()
		p.waitConnected(ctx, fake, 1)
		waitCommands(t, ctx, fake, p)

		l := newLoad(t, fake, dsn, 2, 12, 1)
		drops := make(chan int)
		go func() {
			n := 0
			defer func() { drops <- n }()
			for n < 4 && ctx.Err() == nil {
				for fake.ShardSessions(0, 1) == 0 && ctx.Err() == nil {
					time.Sleep(10 * time.Millisecond)
				}
				time.Sleep(200 * time.Millisecond)
				if l.sent.Load() >= 450 {
					return
				}
				fake.Drop()
				n++
			}
		}()
		l.run(ctx, loadTarget(t, 500))
		n := <-drops
		st := fake.Gateway()
		t.Logf("load: %s; gateway dropped %d times: %d identifies, %d resumes", l.summary(), n, st.Identifies, st.Resumes)
		if st.Resumes < n {
			t.Errorf("Got(resumes) = %d, want one per drop (%d)", st.Resumes, n)
		}
		l.mu.Lock()
		for _, c := range []string{classInternal, classTimeout, classNoSession, classUnavailable, classExpired} {
			if k := l.classes[c]; k > 0 {
				t.Errorf("Got(%s answers) = %d, want 0: a resumed session replays what it missed; e.g. %q", c, k, l.samples[c])
			}
		}
		l.mu.Unlock()
		p.stop()
		checkCallbacks(t, fake, false)
		handledOnce(t, fake, p)
		checkLedger(t, l, dsn)
	})
}

// handledOnce compares the process's "interaction" log lines with the
// interactions the fake sent: one line each, none twice.
func handledOnce(t *testing.T, fake *fakediscord.Server, procs ...*proc) {
	t.Helper()
	lines := 0
	for _, p := range procs {
		for _, l := range p.lines() {
			if l["msg"] == "interaction" {
				lines++
			}
		}
	}
	if sent := len(fake.Interactions()); lines != sent {
		t.Errorf("Got(interactions handled, by the log) = %d, want %d (each sent one handled once)", lines, sent)
	}
}
