package storage

import (
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestMigrationLockCancel: a Lock that gives up because its context ended
// leaves nothing behind — no goroutine still waiting in flock that would
// take the lock later for nobody — and the lock is free for the next
// process once its holder lets go.
func TestMigrationLockCancel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db.migrate-lock")
	holder := &fileLocker{path: path}
	if err := holder.Lock(context.Background(), nil); err != nil {
		t.Fatalf("Lock() = %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	waiter := &fileLocker{path: path}
	go func() { done <- waiter.Lock(ctx, nil) }()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Got(Lock() with a cancelled context while held) = %v, want context.Canceled", err)
	}
	buf := make([]byte, 1<<20)
	stacks := string(buf[:runtime.Stack(buf, true)])
	if strings.Contains(stacks, "fileLocker).Lock") {
		t.Errorf("Got(a goroutine of Lock still waiting after it gave up) = true, want none:\n%s", stacks)
	}
	if err := holder.Unlock(context.Background(), nil); err != nil {
		t.Fatalf("Unlock() = %v", err)
	}
	next := &fileLocker{path: path}
	ctx2, cancel2 := context.WithTimeout(context.Background(), time.Minute)
	defer cancel2()
	if err := next.Lock(ctx2, nil); err != nil {
		t.Fatalf("Got(Lock() after the holder let go) = %v, want the lock", err)
	}
	if err := next.Unlock(context.Background(), nil); err != nil {
		t.Fatalf("Unlock() = %v", err)
	}
}

// TestRetryWaitWatchesContext: a transaction that lost a conflict waits
// before its retry, and a cancelled context ends that wait at once. The
// wait is made an hour long: a retry loop that slept regardless would
// still be asleep when the test gives up on it.
func TestRetryWaitWatchesContext(t *testing.T) {
	for _, backend := range testdb.Backends() {
		t.Run(backend, func(t *testing.T) {
			db := openBackend(t, backend)
			// The wait is asked for just before it starts: the test
			// cancels then, so the cancel lands during the wait.
			waiting := make(chan struct{}, 10)
			db.retryWait = func(int) time.Duration { waiting <- struct{}{}; return time.Hour }
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			calls := make(chan struct{}, 10)
			done := make(chan error, 1)
			go func() {
				done <- db.InTx(ctx, func(ladder.Tx) error {
					calls <- struct{}{}
					return &lostConn{errors.New("connection lost before BEGIN")}
				})
			}()
			<-calls
			<-waiting
			cancel()
			select {
			case err := <-done:
				if err == nil {
					t.Fatalf("Got(InTx() after a cancel during the retry wait) = nil, want an error")
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("Got(InTx() still waiting to retry 30 s after its context was cancelled), want it to return")
			}
			if n := len(calls); n != 0 {
				t.Errorf("Got(attempts after the cancel) = %d, want 0", n)
			}
		})
	}
}
