package e2e

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
)

// BenchmarkLoad measures the load of the scale-out tests, side by side in
// one run, against ladderbot processes on one database: over the gateway
// with 1 and 2 processes (one per shard), and over HTTP interactions
// (DISCORD_TRANSPORT=http) with 1, 2 and 3 identical processes behind a
// round-robin proxy (PostgreSQL only: the embedded database serves one
// process, so SQLite runs the 1-process cases). It reports interactions
// per second end to end (each sent and its complete answer waited for,
// many at once) and the acknowledgement latency percentiles (from the
// dispatch to the first callback Discord receives: a REST callback on the
// gateway, the POST's response over HTTP). One op is one interaction; run
// it with a fixed count, e.g.
//
//	go test ./internal/e2e -run '^$' -bench Load -benchtime 2000x
func BenchmarkLoad(b *testing.B) {
	testdb.ForEach(b, func(b *testing.B, backend string) {
		for _, tc := range []struct {
			transport string
			procs     []int
		}{{"gateway", []int{1, 2}}, {"http", []int{1, 2, 3}}} {
			for _, procs := range tc.procs {
				if backend == "sqlite" && procs > 1 {
					continue // the embedded database serves one process
				}
				b.Run(fmt.Sprintf("%s/procs=%d", tc.transport, procs), func(b *testing.B) { benchLoad(b, backend, tc.transport, procs) })
			}
		}
	})
}

func benchLoad(b *testing.B, backend, transport string, n int) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	dsn := freshDSN(b, backend)
	fake := startFake(b)
	var procs []*proc
	shards := n
	if transport == "http" {
		procs, _ = startHTTPProcs(b, ctx, dsn, fake, n)
		shards = 1
	} else {
		for i := range n {
			p := newProc(b, fmt.Sprintf("shard%d", i), dsn, fake, i, n)
			p.start()
			procs = append(procs, p)
		}
		for _, p := range procs {
			p.waitConnected(ctx, fake, 1)
		}
		waitCommands(b, ctx, fake, procs...)
	}
	l := newLoad(b, fake, dsn, 4, 16, shards)
	first := len(fake.Interactions())

	b.ResetTimer()
	start := time.Now()
	l.run(ctx, int64(b.N))
	elapsed := time.Since(start)
	b.StopTimer()

	var acks []time.Duration
	for _, ix := range fake.Interactions()[first:] {
		if d := ix.AckLatency(); d >= 0 {
			acks = append(acks, d)
		}
	}
	slices.Sort(acks)
	pct := func(p float64) float64 {
		if len(acks) == 0 {
			return 0
		}
		return float64(acks[min(len(acks)-1, int(p*float64(len(acks))))]) / float64(time.Millisecond)
	}
	b.ReportMetric(float64(l.sent.Load())/elapsed.Seconds(), "interactions/s")
	b.ReportMetric(pct(0.50), "ack-p50-ms")
	b.ReportMetric(pct(0.95), "ack-p95-ms")
	b.ReportMetric(pct(0.99), "ack-p99-ms")
	l.mu.Lock()
	if bad := l.classes[classInternal] + l.classes[classTimeout]; bad > 0 {
		b.Errorf("Got(internal errors and timeouts) = %d, want 0: %s", bad, l.summary())
	}
	l.mu.Unlock()
	for _, p := range procs {
		p.stop()
	}
}
