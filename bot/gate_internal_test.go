package bot

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// TestDrainGateRace admits interactions from many goroutines while the bot
// starts its drain: nothing may be admitted once the drain has finished
// waiting, and under -race the WaitGroup's Adds must be ordered before
// its Wait.
func TestDrainGateRace(t *testing.T) {
	for range 100 {
		b := &Bot{}
		var (
			start    sync.WaitGroup
			admitted atomic.Int64
			late     atomic.Int64
			drained  atomic.Bool
		)
		start.Add(1)
		var workers sync.WaitGroup
		for range 8 {
			workers.Go(func() {
				start.Wait()
				for {
					if !b.admit() {
						return
					}
					runtime.Gosched()
					if drained.Load() {
						late.Add(1)
					}
					admitted.Add(1)
					b.inflight.Done()
				}
			})
		}
		start.Done()
		<-b.drain()
		drained.Store(true)
		workers.Wait()
		if n := late.Load(); n > 0 {
			t.Fatalf("admit() let %d interactions in after the drain", n)
		}
	}
}
