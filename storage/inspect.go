package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// ErrNoDatabase says that the SQLite file a DATABASE_URL names does not
// exist.
var ErrNoDatabase = errors.New("no database file")

// Schema is what a database holds of the ladder's schema.
type Schema struct {
	// Version is the newest migration applied to the database, 0 when it
	// holds no ladder schema at all.
	Version int64
	// Latest is the newest migration this binary knows.
	Latest int64
	// Dialect is Postgres or SQLite.
	Dialect string
}

// InspectSchema reads the schema version of the database at dsn without
// creating, migrating or writing anything, as Open would: a command that
// reads an existing ladder (backup) checks with it first. A SQLite path with
// no file is ErrNoDatabase, naming the absolute path.
func InspectSchema(ctx context.Context, dsn string) (Schema, error) {
	var sqlDB *sql.DB
	var dialect string
	switch {
	case sqlitePath(dsn) != "":
		path := sqlitePath(dsn)
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			abs, aerr := filepath.Abs(path)
			if aerr != nil {
				abs = path
			}
			return Schema{}, fmt.Errorf("storage: %w at %s", ErrNoDatabase, abs)
		}
		db, err := sql.Open("sqlite3", sqliteURI(path)+"?mode=ro&_pragma=busy_timeout(10000)")
		if err != nil {
			return Schema{}, fmt.Errorf("storage: open sqlite: %w", err)
		}
		sqlDB, dialect = db, SQLite
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		cfg, err := pgx.ParseConfig(dsn)
		if err != nil {
			return Schema{}, fmt.Errorf("storage: %q: %w", redact(dsn), err)
		}
		sqlDB, dialect = stdlib.OpenDB(*cfg), Postgres
	default:
		return Schema{}, fmt.Errorf("storage: %q: want postgres://… or sqlite:PATH", redact(dsn))
	}
	defer sqlDB.Close()
	p, err := provider(sqlDB, dialect, "")
	if err != nil {
		return Schema{}, err
	}
	s := Schema{Dialect: dialect}
	if srcs := p.ListSources(); len(srcs) > 0 {
		s.Latest = srcs[len(srcs)-1].Version
	}
	exists := "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'goose_db_version'"
	if dialect == Postgres {
		exists = "SELECT count(*) FROM (SELECT to_regclass('goose_db_version') AS t) r WHERE t IS NOT NULL"
	}
	var n int
	if err := sqlDB.QueryRowContext(ctx, exists).Scan(&n); err != nil {
		return Schema{}, fmt.Errorf("storage: schema version: %w", unavailable(err))
	}
	if n == 0 {
		return s, nil
	}
	var v sql.NullInt64
	if err := sqlDB.QueryRowContext(ctx, "SELECT max(version_id) FROM goose_db_version").Scan(&v); err != nil {
		return Schema{}, fmt.Errorf("storage: schema version: %w", unavailable(err))
	}
	s.Version = v.Int64
	return s, nil
}

// CheckBackupFile reads the schema version of the backup at path without
// writing it (SQLite's immutable mode: no lock, no journal) and refuses
// what Restore would refuse on sight: a path that is not a file, a file
// that is not a ladderbot backup, a backup of a newer schema than this
// binary's. restore runs it before opening the target, which creates a
// SQLite database that does not exist yet: a mistyped --from used to
// leave an empty, migrated database behind.
func CheckBackupFile(ctx context.Context, path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("storage: restore: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("storage: restore: %s is not a file: give the file ladderbot backup wrote", path)
	}
	db, err := sql.Open("sqlite3", sqliteURI(path)+"?mode=ro&immutable=1")
	if err != nil {
		return fmt.Errorf("storage: restore: %w", err)
	}
	defer db.Close()
	var v sql.NullInt64
	if err := db.QueryRowContext(ctx, "SELECT max(version_id) FROM goose_db_version").Scan(&v); err != nil || !v.Valid {
		if err == nil {
			err = errors.New("no schema version")
		}
		return fmt.Errorf("storage: restore: %s is not a ladderbot backup: %w", path, err)
	}
	p, err := provider(db, SQLite, "")
	if err != nil {
		return err
	}
	if srcs := p.ListSources(); len(srcs) > 0 && v.Int64 > srcs[len(srcs)-1].Version {
		return fmt.Errorf("storage: restore: %s has schema version %d, newer than this ladderbot's %d: restore it with the ladderbot that wrote it",
			path, v.Int64, srcs[len(srcs)-1].Version)
	}
	return nil
}
