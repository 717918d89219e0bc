package storage

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"log/slog"
	"time"

	"github.com/ladderbot/ladderbot/migrations"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

// Migrate opens dsn, which applies every pending migration, and closes it
// (`ladderbot migrate`). It returns the schema version.
func Migrate(ctx context.Context, dsn string, log *slog.Logger) (int64, error) {
	db, err := Open(ctx, dsn, log)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	return db.SchemaVersion(ctx)
}

// SchemaVersion returns the version of the newest applied migration.
func (db *DB) SchemaVersion(ctx context.Context) (int64, error) {
	p, err := provider(db.sql, db.dialect, "")
	if err != nil {
		return 0, err
	}
	v, err := p.GetDBVersion(ctx)
	if err != nil {
		return 0, fmt.Errorf("storage: schema version: %w", err)
	}
	return v, nil
}

func provider(sqlDB *sql.DB, dialect, path string) (*goose.Provider, error) {
	var (
		fsys    fs.FS
		gd      goose.Dialect
		options []goose.ProviderOption
		err     error
	)
	switch dialect {
	case Postgres:
		fsys, err = fs.Sub(migrations.Postgres, "postgres")
		gd = goose.DialectPostgres
		locker, lerr := lock.NewPostgresSessionLocker(lock.WithLockTimeout(1, 600))
		if lerr != nil {
			return nil, fmt.Errorf("storage: migration lock: %w", lerr)
		}
		options = append(options, goose.WithSessionLocker(locker))
	default:
		fsys, err = fs.Sub(migrations.SQLite, "sqlite")
		gd = goose.DialectSQLite3
		if path != "" && path != ":memory:" {
			options = append(options, goose.WithLocker(&fileLocker{path: path + ".migrate-lock"}))
		}
	}
	if err != nil {
		return nil, fmt.Errorf("storage: migrations: %w", err)
	}
	p, err := goose.NewProvider(gd, sqlDB, fsys, options...)
	if err != nil {
		return nil, fmt.Errorf("storage: migrations: %w", err)
	}
	return p, nil
}

// migrate applies pending migrations at start-up.
func migrate(ctx context.Context, sqlDB *sql.DB, dialect, path string, log *slog.Logger) error {
	p, err := provider(sqlDB, dialect, path)
	if err != nil {
		return err
	}
	results, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("storage: migrate: %w", err)
	}
	// One line says what changed; each migration's detail is for debugging.
	var total time.Duration
	for _, r := range results {
		log.DebugContext(ctx, "storage: applied migration", "version", r.Source.Version, "file", r.Source.Path, "duration_ms", r.Duration.Milliseconds())
		total += r.Duration
	}
	if n := len(results); n > 0 {
		log.InfoContext(ctx, "storage: migrations applied", "count", n,
			"from", results[0].Source.Version, "to", results[n-1].Source.Version, "duration_ms", total.Milliseconds())
	}
	return nil
}
