package ladder_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// twoProcesses opens two Services on two connection pools to one fresh
// database of the backend, sharing a manual clock: two processes of the
// bot, for the race tests.
func twoProcesses(t *testing.T, backend string) ([2]*ladder.Service, [2]*storage.DB) {
	t.Helper()
	svcs, dbs, _ := processes(t, backend, 2)
	return [2]*ladder.Service(svcs), [2]*storage.DB(dbs)
}

// processes is twoProcesses for n processes, with their shared clock.
func processes(t *testing.T, backend string, n int) ([]*ladder.Service, []*storage.DB, *ladder.ManualClock) {
	t.Helper()
	dsn := testdb.DSN(t, backend)
	c := ladder.NewManualClock(time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC))
	svcs := make([]*ladder.Service, n)
	dbs := make([]*storage.DB, n)
	for i := range svcs {
		db, err := storage.Open(context.Background(), dsn, nil)
		if err != nil {
			t.Fatalf("Open(%s) = %v", backend, err)
		}
		t.Cleanup(func() { db.Close() })
		svcs[i], dbs[i] = ladder.NewService(db, c), db
	}
	return svcs, dbs, c
}

// recordInPairs starts writers goroutines on wg, each recording perWriter
// API results among four players of its own (so results never wait on
// each other's rating rows, only on what the race is about), the pairs
// changing every result. The first error of each writer goes to errs.
func recordInPairs(ctx context.Context, wg *sync.WaitGroup, errs chan<- error, svc *ladder.Service, writers, perWriter int) {
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := func(i int) string { return user(100*w + i + 1) }
			for i := range perWriter {
				t1, t2 := []string{p(0), p(1)}, []string{p(2), p(3)}
				if i%2 == 1 {
					t1, t2 = []string{p(0), p(2)}, []string{p(1), p(3)}
				}
				if _, err := svc.RecordResult(ctx, result(t1, t2, 1+i%2)); err != nil {
					errs <- fmt.Errorf("RecordResult() = %w", err)
					return
				}
			}
		}()
	}
}
