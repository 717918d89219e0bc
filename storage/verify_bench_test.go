package storage_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/derived"
	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/internal/laddertest"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"github.com/ladderbot/ladderbot/storage"
)

// BenchmarkVerifyMemory runs each part of `ladderbot verify` (the ladder
// replay, the integrity refold, the seasons' counts) on an imported 2v2
// log of random pairs among 2,000 players, on SQLite, and reports the
// peak live heap of the run (peak-MB) beside its time: the memory verify
// needs as a guild's history grows. The logs are imported once into files
// of the temporary directory and reused by later runs.
func BenchmarkVerifyMemory(b *testing.B) {
	for _, n := range []int{50_000, 200_000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			db := verifyFixture(b, n)
			ctx := context.Background()
			parts := []struct {
				name string
				run  func() (int, error)
			}{
				{"ladder", func() (int, error) {
					rep, err := ladder.NewService(db, nil).Verify(ctx, guild)
					if err == nil && rep.Matches != n {
						err = fmt.Errorf("replayed %d matches, want %d", rep.Matches, n)
					}
					return len(rep.Diffs), err
				}},
				{"integrity", func() (int, error) {
					rep, err := integrity.New(db, nil).Verify(ctx, guild)
					if err == nil && rep.Matches != n {
						err = fmt.Errorf("refolded %d matches, want %d", rep.Matches, n)
					}
					return len(rep.Diffs), err
				}},
				{"counts", func() (int, error) {
					ds, err := community.VerifyCounts(ctx, db, guild)
					return len(ds), err
				}},
			}
			for _, p := range parts {
				b.Run(p.name, func(b *testing.B) {
					var peak uint64
					cpu0 := cpuTime()
					for b.Loop() {
						pk, diffs, err := peakHeap(p.run)
						if err != nil || diffs != 0 {
							b.Fatalf("verify %s = %d differences, %v", p.name, diffs, err)
						}
						peak = max(peak, pk)
					}
					b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
					// The process's CPU time (user and system, the
					// collector's included) tells the cost on a shared
					// machine better than the time on the clock.
					b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
				})
			}
		})
	}
}

// cpuTime is the CPU time the process has used.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// peakHeap runs fn after a collection and returns the highest live heap
// (bytes in heap objects) sampled every millisecond while it ran.
func peakHeap(fn func() (int, error)) (uint64, int, error) {
	runtime.GC()
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak uint64
	var mu sync.Mutex
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			mu.Lock()
			peak = max(peak, s[0].Value.Uint64())
			mu.Unlock()
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	diffs, err := fn()
	close(stop)
	<-done
	return peak, diffs, err
}

// verifyFixture opens an SQLite database holding n imported 2v2 matches
// of random players among 2,000, with every derived row written as the
// import's rated writes write them; built once per n.
func verifyFixture(b *testing.B, n int) *storage.DB {
	path := filepath.Join(os.TempDir(), fmt.Sprintf("ladderbot-verify-bench-%d.db", n))
	_, statErr := os.Stat(path)
	db := laddertest.OpenDSN(b, "sqlite:"+path)
	derived.Wire(db, integrity.New(db, nil))
	if statErr == nil && laddertest.Count(b, db, "matches") == int64(n) {
		return db
	}
	if statErr == nil {
		b.Fatalf("%s holds a partial fixture: delete it", path)
	}
	const players = 2000
	r := rand.New(rand.NewPCG(uint64(n), 7))
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	recs := make([]rating.MatchRecord, n)
	for i := range recs {
		p := r.Perm(players)[:4]
		id := func(k int) string { return fmt.Sprintf("%d", 200000000000000000+p[k]) }
		recs[i] = rating.MatchRecord{Seq: i, Date: t0.Add(time.Duration(i) * time.Minute),
			Team1: []string{id(0), id(1)}, Team2: []string{id(2), id(3)}, Winner: 1 + r.IntN(2)}
	}
	if _, err := ladder.NewService(db, nil).ImportMatches(context.Background(), guild, "", recs, nil); err != nil {
		b.Fatalf("ImportMatches() = %v", err)
	}
	return db
}
