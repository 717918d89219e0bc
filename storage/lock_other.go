//go:build !unix

package storage

import (
	"context"
	"database/sql"
)

// fileLocker is a no-op where flock is missing: SQLite's own locking still
// keeps each migration atomic, only the version check may race.
type fileLocker struct {
	path string
}

// Lock does nothing.
func (*fileLocker) Lock(context.Context, *sql.DB) error { return nil }

// Unlock does nothing.
func (*fileLocker) Unlock(context.Context, *sql.DB) error { return nil }
