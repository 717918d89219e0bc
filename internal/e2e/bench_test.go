package e2e

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
)

// BenchmarkLoad measures the load of the scale-out test against 1 and 2
// ladderbot processes (one per shard) on one database: interactions per
// second end to end (each sent and its complete answer waited for, many at
// once) and the acknowledgement latency percentiles (dispatch on the
// gateway to the first callback Discord receives). One op is one
// interaction; run it with a fixed count, e.g.
//
//	go test ./internal/e2e -run '^$' -bench Load -benchtime 2000x
func BenchmarkLoad(b *testing.B) {
	testdb.ForEach(b, func(b *testing.B, backend string) {
		for _, procs := range []int{1, 2} {
			if backend == "sqlite" && procs > 1 {
				continue // the embedded database serves one process
			}
			b.Run(fmt.Sprintf("procs=%d", procs), func(b *testing.B) { benchLoad(b, backend, procs) })
		}
	})
}

func benchLoad(b *testing.B, backend string, n int) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	dsn := freshDSN(b, backend)
	fake := startFake(b)
	var procs []*proc
	for i := range n {
		p := newProc(b, fmt.Sprintf("shard%d", i), dsn, fake, i, n)
		p.start()
		procs = append(procs, p)
	}
	for _, p := range procs {
		p.waitConnected(ctx, fake, 1)
	}
	waitCommands(b, ctx, fake, procs...)
	l := newLoad(b, fake, dsn, 4, 16, n)
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
