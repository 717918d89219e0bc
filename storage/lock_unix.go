//go:build unix

package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"
)

// fileLocker serializes SQLite migrations across processes with an
// exclusive flock on a file beside the database (goose's Locker).
type fileLocker struct {
	path string
	mu   sync.Mutex
	f    *os.File
}

// lockPoll is how often Lock tries again while another process holds
// the lock.
const lockPoll = 50 * time.Millisecond

// Lock blocks until it holds the lock or ctx ends. It polls a
// non-blocking flock instead of parking a goroutine in a blocking one:
// that goroutine could not be stopped when ctx ends, and would take the
// lock later for a caller that had given up.
func (l *fileLocker) Lock(ctx context.Context, _ *sql.DB) error {
	f, err := os.OpenFile(l.path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("storage: migration lock: %w", err)
	}
	var tick *time.Ticker
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			l.mu.Lock()
			l.f = f
			l.mu.Unlock()
			return nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return fmt.Errorf("storage: migration lock: %w", err)
		}
		if tick == nil {
			tick = time.NewTicker(lockPoll)
			defer tick.Stop()
		}
		select {
		case <-ctx.Done():
			f.Close()
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// Unlock releases the lock.
func (l *fileLocker) Unlock(context.Context, *sql.DB) error {
	l.mu.Lock()
	f := l.f
	l.f = nil
	l.mu.Unlock()
	if f == nil {
		return nil
	}
	defer f.Close()
	return syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}
