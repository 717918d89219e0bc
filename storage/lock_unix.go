//go:build unix

package storage

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"sync"
	"syscall"
)

// fileLocker serializes SQLite migrations across processes with an
// exclusive flock on a file beside the database (goose's Locker).
type fileLocker struct {
	path string
	mu   sync.Mutex
	f    *os.File
}

// Lock blocks until it holds the lock or ctx ends.
func (l *fileLocker) Lock(ctx context.Context, _ *sql.DB) error {
	f, err := os.OpenFile(l.path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("storage: migration lock: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }()
	select {
	case err := <-done:
		if err != nil {
			f.Close()
			return fmt.Errorf("storage: migration lock: %w", err)
		}
		l.mu.Lock()
		l.f = f
		l.mu.Unlock()
		return nil
	case <-ctx.Done():
		f.Close() // unblocks nothing, but the lock dies with the process
		return ctx.Err()
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
