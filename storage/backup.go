package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
)

// backupTables are the ladder's tables in an order that inserts parents
// before children, so a restore satisfies every foreign key as it goes.
// goose's version table is not copied: each database keeps its own.
// TestBackupCoversEveryTable fails when a migration adds a table that is
// missing here.
var backupTables = []string{
	"guilds", "queues", "seasons", "players", "ratings",
	"matches", "match_players", "rating_seq", "rating_changes", "rating_constants",
	"season_results", "disputes",
	"queue_entries", "queue_entry_members", "party_invites", "queue_bans",
	"audit_log", "job_runs", "api_tokens", "idempotency_keys", "interaction_deliveries",
	"webhooks", "webhook_events", "webhook_deliveries", "webhook_attempts",
	"showdown_links", "match_replays", "behaviour_flags", "match_announcements", "match_messages",
	"division_roles", "applied_roles", "role_problems", "badge_roles", "role_wants", "role_workers",
	"queue_lobby", "ready_checks", "ready_players", "queue_cooldowns", "cancel_votes", "sub_requests", "no_shows",
	"drafts", "draft_seats", "calibrators",
	"room_settings", "match_rooms", "room_warnings",
	"rate_buckets",
	"queue_panels", "results_channels", "result_posts", "queue_waits",
	"queue_formats", "queue_maps", "map_picks", "map_votes", "map_bans", "series_games",
	"queue_joins", "rematches", "rematch_votes",
	"integrity_counters", "integrity_progress", "integrity_flags",
	"community_settings", "predictions", "mvp_votes", "predictor_points", "mvp_counts",
	"season_pairs", "season_hours",
}

// notBackedUp are the tables a backup leaves out: the dashboard's login
// sessions, which a restore must not bring back to life after their users
// logged out; and role_plans, which the triggers of the restored tables
// fill (every mapped guild due once).
var notBackedUp = []string{"dashboard_sessions", "role_plans"}

// BackupStats says what a backup or a restore copied.
type BackupStats struct {
	// Version is the schema version of the snapshot.
	Version int64
	// Rows counts the rows of each table in the snapshot.
	Rows map[string]int64
}

// Total returns the number of rows over every table.
func (s BackupStats) Total() int64 {
	var n int64
	for _, r := range s.Rows {
		n += r
	}
	return n
}

// Backup writes a consistent snapshot of every table to a new SQLite
// database file at path, replacing it only once the snapshot is complete,
// while other processes keep writing. A SQLite ladder is copied by
// VACUUM INTO, which reads in one transaction; a PostgreSQL ladder is read
// in one REPEATABLE READ READ ONLY transaction, so every table shows the
// same instant, and written into a fresh SQLite file migrated to the same
// schema version. The file is what Restore reads, on either backend.
func (db *DB) Backup(ctx context.Context, path string) (BackupStats, error) {
	if err := db.refuseLiveTarget(ctx, path); err != nil {
		return BackupStats{}, err
	}
	tmp, err := tempPath(path)
	if err != nil {
		return BackupStats{}, err
	}
	defer removeSQLite(tmp)
	if db.dialect == SQLite {
		if _, err := db.sql.ExecContext(ctx, "VACUUM INTO ?", tmp); err != nil {
			return BackupStats{}, fmt.Errorf("storage: backup: %w", unavailable(err))
		}
	} else if err := db.backupPG(ctx, tmp); err != nil {
		return BackupStats{}, err
	}
	st, err := backupStats(ctx, tmp)
	if err != nil {
		return BackupStats{}, err
	}
	// Discord IDs and token hashes: readable by the owner only.
	if err := os.Chmod(tmp, 0o600); err != nil {
		return BackupStats{}, fmt.Errorf("storage: backup: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return BackupStats{}, fmt.Errorf("storage: backup: %w", err)
	}
	return st, nil
}

// backupPG copies the PostgreSQL ladder into a new SQLite file at path.
func (db *DB) backupPG(ctx context.Context, path string) error {
	dst, err := Open(ctx, "sqlite:"+path, nil)
	if err != nil {
		return fmt.Errorf("storage: backup: create %s: %w", path, err)
	}
	defer dst.Close()
	src, err := db.sql.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return fmt.Errorf("storage: backup: %w", unavailable(err))
	}
	defer src.Rollback()
	out, err := dst.sql.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("storage: backup: %w", err)
	}
	defer out.Rollback()
	if _, err := out.ExecContext(ctx, "DELETE FROM rating_seq"); err != nil {
		return fmt.Errorf("storage: backup: %w", err)
	}
	for _, table := range backupTables {
		if table == "rating_seq" {
			// A sequence is outside every snapshot; its value now is at
			// least every seq the snapshot holds, which is all a counter
			// needs to be.
			var last int64
			var called bool
			if err := src.QueryRowContext(ctx, "SELECT last_value, is_called FROM rating_seq").Scan(&last, &called); err != nil {
				return fmt.Errorf("storage: backup: rating_seq: %w", unavailable(err))
			}
			if !called {
				last = 0
			}
			if _, err := out.ExecContext(ctx, "INSERT INTO rating_seq (id, value) VALUES (1, ?)", last); err != nil {
				return fmt.Errorf("storage: backup: rating_seq: %w", err)
			}
			continue
		}
		cols, err := sqliteColumns(ctx, dst.sql, table)
		if err != nil {
			return err
		}
		if err := copyTable(ctx, src, out, table, cols, copyBatch, false); err != nil {
			return err
		}
	}
	if err := out.Commit(); err != nil {
		return fmt.Errorf("storage: backup: %w", err)
	}
	return nil
}

// Restore loads the backup at path into db, which must hold no ladder: a
// non-empty database is refused and left unchanged. The rows are written
// in one transaction, parents first; PostgreSQL's ID sequences and the
// rating-log counter then continue after the largest restored values, so
// new rows never collide with restored ones. A backup of an older schema
// is migrated on a temporary copy first; one of a newer schema is
// refused. The caller runs the ladder's verify on the result.
func (db *DB) Restore(ctx context.Context, path string) (BackupStats, error) {
	src, cleanup, err := db.openBackup(ctx, path)
	if err != nil {
		return BackupStats{}, err
	}
	defer cleanup()
	st := BackupStats{Rows: map[string]int64{}}
	if st.Version, err = src.SchemaVersion(ctx); err != nil {
		return BackupStats{}, err
	}
	if err := checkBackup(ctx, src); err != nil {
		return BackupStats{}, err
	}
	in, err := src.sql.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return BackupStats{}, fmt.Errorf("storage: restore: %w", err)
	}
	defer in.Rollback()
	out, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return BackupStats{}, fmt.Errorf("storage: restore: %w", unavailable(err))
	}
	defer out.Rollback()
	if err := refuseNonEmpty(ctx, out); err != nil {
		return BackupStats{}, err
	}
	batch := copyBatch
	if db.dialect == Postgres {
		// More rows per INSERT, still well under PostgreSQL's 65,535
		// parameters, make the copy one round trip per batch.
		batch = 200
	}
	for _, table := range backupTables {
		if table == "rating_seq" {
			continue
		}
		cols, err := sqliteColumns(ctx, src.sql, table)
		if err != nil {
			return BackupStats{}, err
		}
		if err := copyTable(ctx, in, out, table, cols, batch, db.dialect == Postgres); err != nil {
			return BackupStats{}, err
		}
		var n int64
		if err := out.QueryRowContext(ctx, "SELECT count(*) FROM "+table).Scan(&n); err != nil {
			return BackupStats{}, fmt.Errorf("storage: restore: count %s: %w", table, unavailable(err))
		}
		st.Rows[table] = n
	}
	if err := db.restoreCounters(ctx, in, out); err != nil {
		return BackupStats{}, err
	}
	st.Rows["rating_seq"] = 1
	if err := out.Commit(); err != nil {
		return BackupStats{}, fmt.Errorf("storage: restore: commit: %w", unavailable(err))
	}
	return st, nil
}

// openBackup copies the backup at path to a temporary file and opens that
// copy migrated to this binary's schema, so the caller's file is never
// written (opening SQLite may write to it, and a migration would).
func (db *DB) openBackup(ctx context.Context, path string) (*DB, func(), error) {
	want, err := db.SchemaVersion(ctx)
	if err != nil {
		return nil, nil, err
	}
	dir, err := os.MkdirTemp("", "ladderbot-restore-")
	if err != nil {
		return nil, nil, fmt.Errorf("storage: restore: %w", err)
	}
	cleanup := func() { os.RemoveAll(dir) }
	tmp := filepath.Join(dir, "backup.db")
	if err := copyFile(path, tmp); err != nil {
		cleanup()
		return nil, nil, fmt.Errorf("storage: restore: %w", err)
	}
	got, err := fileVersion(ctx, tmp)
	if err != nil {
		cleanup()
		return nil, nil, fmt.Errorf("storage: restore: %s is not a ladderbot backup: %w", path, err)
	}
	if got > want {
		cleanup()
		return nil, nil, fmt.Errorf("storage: restore: %s has schema version %d, newer than this ladderbot's %d: restore it with the ladderbot that wrote it", path, got, want)
	}
	src, err := Open(ctx, "sqlite:"+tmp, slog.New(slog.DiscardHandler))
	if err != nil {
		cleanup()
		return nil, nil, fmt.Errorf("storage: restore: open %s: %w", path, err)
	}
	return src, func() { src.Close(); cleanup() }, nil
}

// refuseNonEmpty fails unless every table of the ladder is empty; the
// rating-log counter's one row does not count.
func refuseNonEmpty(ctx context.Context, tx *sql.Tx) error {
	var full []string
	for _, table := range backupTables {
		if table == "rating_seq" {
			continue
		}
		var any bool
		if err := tx.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM "+table+")").Scan(&any); err != nil {
			return fmt.Errorf("storage: restore: %s: %w", table, unavailable(err))
		}
		if any {
			full = append(full, table)
		}
	}
	if len(full) > 0 {
		return fmt.Errorf("storage: restore: the database is not empty (rows in %s): restore only into a new, empty database", strings.Join(full, ", "))
	}
	return nil
}

// restoreCounters moves the rating-log counter, and on PostgreSQL every ID
// sequence, past the largest restored value.
func (db *DB) restoreCounters(ctx context.Context, in, out *sql.Tx) error {
	var seq int64
	err := in.QueryRowContext(ctx, `SELECT max(v) FROM (
		SELECT value AS v FROM rating_seq
		UNION ALL SELECT coalesce(max(seq), 0) FROM matches
		UNION ALL SELECT coalesce(max(seq), 0) FROM rating_changes
		UNION ALL SELECT coalesce(max(seq), 0) FROM rating_constants)`).Scan(&seq)
	if err != nil {
		return fmt.Errorf("storage: restore: rating_seq: %w", err)
	}
	if db.dialect == SQLite {
		if _, err := out.ExecContext(ctx, "UPDATE rating_seq SET value = ? WHERE id = 1", seq); err != nil {
			return fmt.Errorf("storage: restore: rating_seq: %w", err)
		}
		// INTEGER PRIMARY KEY columns continue after their largest value
		// by themselves.
		return nil
	}
	// nextval then returns seq + 1.
	if _, err := out.ExecContext(ctx, "SELECT setval('rating_seq', $1, false)", seq+1); err != nil {
		return fmt.Errorf("storage: restore: rating_seq: %w", unavailable(err))
	}
	// Every bigserial column; its table is in the current schema, where the
	// connection's search_path puts the ladder.
	rows, err := out.QueryContext(ctx, `SELECT table_name, column_name, pg_get_serial_sequence(table_name, column_name)
		FROM information_schema.columns
		WHERE table_schema = current_schema() AND column_default LIKE 'nextval(%'`)
	if err != nil {
		return fmt.Errorf("storage: restore: sequences: %w", unavailable(err))
	}
	type serial struct{ table, column, seq string }
	var serials []serial
	for rows.Next() {
		var s serial
		if err := rows.Scan(&s.table, &s.column, &s.seq); err != nil {
			rows.Close()
			return fmt.Errorf("storage: restore: sequences: %w", unavailable(err))
		}
		serials = append(serials, s)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("storage: restore: sequences: %w", unavailable(err))
	}
	for _, s := range serials {
		q := fmt.Sprintf("SELECT setval($1, (SELECT coalesce(max(%s), 0) + 1 FROM %s), false)", s.column, s.table)
		if _, err := out.ExecContext(ctx, q, s.seq); err != nil {
			return fmt.Errorf("storage: restore: %s sequence: %w", s.table, unavailable(err))
		}
	}
	return nil
}

// backupStats counts the rows of every table of the backup file at path
// and reads its schema version, which also checks that the file is one.
func backupStats(ctx context.Context, path string) (BackupStats, error) {
	db, err := Open(ctx, "sqlite:"+path, nil)
	if err != nil {
		return BackupStats{}, fmt.Errorf("storage: backup: reopen: %w", err)
	}
	defer db.Close()
	st := BackupStats{Rows: map[string]int64{}}
	if st.Version, err = db.SchemaVersion(ctx); err != nil {
		return BackupStats{}, err
	}
	if err := checkSnapshot(ctx, db.sql); err != nil {
		return BackupStats{}, err
	}
	for _, table := range backupTables {
		var n int64
		if err := db.sql.QueryRowContext(ctx, "SELECT count(*) FROM "+table).Scan(&n); err != nil {
			return BackupStats{}, fmt.Errorf("storage: backup: count %s: %w", table, err)
		}
		st.Rows[table] = n
	}
	// Leave one self-contained file: no write-ahead log beside it.
	if _, err := db.sql.ExecContext(ctx, "PRAGMA journal_mode=DELETE"); err != nil {
		return BackupStats{}, fmt.Errorf("storage: backup: %w", err)
	}
	return st, nil
}

// fileVersion reads the schema version of a SQLite file without migrating it.
func fileVersion(ctx context.Context, path string) (int64, error) {
	db, err := sql.Open("sqlite3", sqliteURI(path)+"?mode=ro")
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var v sql.NullInt64
	if err := db.QueryRowContext(ctx, "SELECT max(version_id) FROM goose_db_version").Scan(&v); err != nil {
		return 0, err
	}
	if !v.Valid {
		return 0, errors.New("no schema version")
	}
	return v.Int64, nil
}

// tempPath returns a name in path's directory for the snapshot being
// written, so the final rename replaces path atomically.
func tempPath(path string) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return "", fmt.Errorf("storage: backup: %w", err)
	}
	name := f.Name()
	f.Close()
	// VACUUM INTO and a new database both want the file not to exist.
	if err := os.Remove(name); err != nil {
		return "", fmt.Errorf("storage: backup: %w", err)
	}
	return name, nil
}

// removeSQLite removes a SQLite file and what may lie beside it.
func removeSQLite(path string) {
	for _, suffix := range []string{"", "-wal", "-shm", "-journal", ".migrate-lock"} {
		os.Remove(path + suffix)
	}
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
