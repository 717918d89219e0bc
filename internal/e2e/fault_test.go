package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestPostgresRestart restarts the PostgreSQL server under load with
// pg_ctlcluster. It disturbs every other test using that server, so it
// runs only with LADDERBOT_FAULT_TESTS=1 (PG_CLUSTER, default "15 main",
// names the cluster). The processes must stay up and reconnect; an
// interaction during the outage is answered "try again" (never an
// internal error); the load carries on afterwards, and the ledger and
// `ladderbot verify` are clean.
func TestPostgresRestart(t *testing.T) {
	if os.Getenv("LADDERBOT_FAULT_TESTS") != "1" {
		testdb.Skip(t, testdb.Reason{
			Why:    "without LADDERBOT_FAULT_TESTS=1",
			Enable: "set it (with TEST_DATABASE_URL, on a server of your own) to run the tests that restart PostgreSQL",
		})
	}
	needPostgres(t)
	ctx := testCtx(t, 4*time.Minute)
	dsn := freshDSN(t, "postgres")
	fake := startFake(t)
	procs := []*proc{newProc(t, "shard0", dsn, fake, 0, 2), newProc(t, "shard1", dsn, fake, 1, 2)}
	for _, p := range procs {
		p.start()
	}
	for _, p := range procs {
		p.waitConnected(ctx, fake, 1)
	}
	waitCommands(t, ctx, fake, procs...)

	l := newLoad(t, fake, dsn, 4, 12, 2)
	l.wait = 15 * time.Second
	restarted := make(chan error, 1)
	go func() {
		for l.sent.Load() < 300 && ctx.Err() == nil {
			time.Sleep(10 * time.Millisecond)
		}
		cluster := os.Getenv("PG_CLUSTER")
		if cluster == "" {
			cluster = "15 main"
		}
		args := append([]string{"--skip-systemctl-redirect"}, splitFields(cluster)...)
		args = append(args, "restart", "-m", "fast")
		out, err := exec.Command("pg_ctlcluster", args...).CombinedOutput()
		if err != nil {
			t.Logf("pg_ctlcluster: %s", out)
		}
		restarted <- err
	}()
	l.run(ctx, loadTarget(t, 1200))
	if err := <-restarted; err != nil {
		t.Fatalf("restart PostgreSQL: %v", err)
	}
	t.Logf("load across the restart: %s", l.summary())
	for _, p := range procs {
		if !p.running() {
			t.Errorf("%s exited during the PostgreSQL restart:\n%s", p.name, p.tail(20))
		}
	}
	l.mu.Lock()
	if n := l.classes[classInternal]; n > 0 {
		t.Errorf("during the outage: Got(internal errors) = %d, want 0: a database that is down is a \"try again\"", n)
		for _, p := range procs {
			t.Logf("%s: internal errors logged: %q", p.name, loggedErrors(p, "internal", 5))
		}
	}
	if l.classes[classUnavailable] == 0 {
		t.Errorf("Got(\"try again\" answers) = 0, want some: the load ran through the outage")
	}
	l.mu.Unlock()
	// After the restart everything works again.
	l.mu.Lock()
	l.classes = map[string]int{}
	l.mu.Unlock()
	before := l.sent.Load()
	l.run(ctx, before+200)
	t.Logf("load after the restart: %s", l.summary())
	l.mu.Lock()
	for _, c := range []string{classInternal, classTimeout, classUnavailable} {
		if n := l.classes[c]; n > 0 {
			t.Errorf("after the restart: Got(%s answers) = %d, want 0; e.g. %q", c, n, l.samples[c])
		}
	}
	l.mu.Unlock()
	for _, p := range procs {
		p.stop()
	}
	checkLedger(t, l, dsn)
}

func splitFields(s string) []string {
	var out []string
	cur := ""
	for _, r := range s + " " {
		if r == ' ' {
			if cur != "" {
				out = append(out, cur)
			}
			cur = ""
			continue
		}
		cur += string(r)
	}
	return out
}

// loggedErrors returns up to n distinct err values of the process's
// interaction log lines with code.
func loggedErrors(p *proc, code string, n int) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range p.lines() {
		if l["msg"] != "interaction" || l["code"] != code {
			continue
		}
		e := fmt.Sprint(l["err"])
		if len(e) > 300 {
			e = e[:300]
		}
		if !seen[e] && len(out) < n {
			seen[e] = true
			out = append(out, e)
		}
	}
	return out
}
