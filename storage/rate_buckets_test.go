package storage_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/storage"
)

// TestTakeTokenConcurrent: 40 requests at once against a bucket of 10,
// from two connections pools (two processes): exactly 10 get a token, as
// the one statement refills and charges atomically.
func TestTakeTokenConcurrent(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		ctx := context.Background()
		dsn := testdb.DSN(t, b)
		var dbs []*storage.DB
		for range 2 {
			db, err := storage.Open(ctx, dsn, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			dbs = append(dbs, db)
		}
		now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
		var mu sync.Mutex
		var wg sync.WaitGroup
		taken, refused := 0, 0
		for i := range 40 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, wait, err := dbs[i%2].TakeToken(ctx, "token:7", 1, 10, now)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err != nil:
					t.Errorf("TakeToken() = %v", err)
				case ok:
					taken++
				case wait != time.Second:
					t.Errorf("Got(wait of a refused request) = %v, want 1s (an empty bucket at 1/s)", wait)
				default:
					refused++
				}
			}()
		}
		wg.Wait()
		if taken != 10 || refused != 30 {
			t.Errorf("Got(taken, refused) = %d, %d, want 10, 30", taken, refused)
		}
		// Other buckets are their own.
		if ok, _, err := dbs[0].TakeToken(ctx, "token:8", 1, 10, now); !ok || err != nil {
			t.Errorf("Got(another bucket) = %v, %v, want a token", ok, err)
		}
	})
}

// BenchmarkTakeToken is the cost the shared rate limit adds to every
// authenticated API request: one statement.
func BenchmarkTakeToken(b *testing.B) {
	for _, backend := range testdb.Backends() {
		b.Run(backend, func(b *testing.B) {
			ctx := context.Background()
			db, err := storage.Open(ctx, testdb.DSN(b, backend), nil)
			if err != nil {
				b.Skip(err)
			}
			defer db.Close()
			now := time.Now()
			for b.Loop() {
				now = now.Add(time.Second)
				if _, _, err := db.TakeToken(ctx, "token:1", 20, 40, now); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
