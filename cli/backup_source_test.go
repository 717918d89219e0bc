package cli

import (
	"bytes"
	"context"
	"database/sql"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pressly/goose/v3"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/migrations"
)

// TestReadingCommandsNeedALadder runs the commands that read an existing
// ladder against a SQLite DATABASE_URL whose file does not exist, as the
// default sqlite:ladder.db is from any other working directory (a cron
// job's): each exits 1 naming the missing file, and neither the database
// nor a backup file is created.
func TestReadingCommandsNeedALadder(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "ladder.db")
	out := filepath.Join(dir, "backup.db")
	for _, args := range [][]string{
		{"backup", "--out", out},
		{"verify"},
		{"export", "--guild", "123456789012345678"},
		{"token", "list", "--guild", "123456789012345678"},
		{"token", "revoke", "--guild", "123456789012345678", "x"},
	} {
		var stdout, stderr bytes.Buffer
		code := Main(args, []string{"DATABASE_URL=sqlite:" + missing, "LOG_LEVEL=error"}, &stdout, &stderr)
		prefix := "ladderbot " + args[0] + ": "
		if code != 1 || !strings.HasPrefix(stderr.String(), prefix) || !strings.Contains(stderr.String(), "names no ladder") ||
			!strings.Contains(stderr.String(), missing) {
			t.Errorf("ladderbot %s on a missing database = %d, %q, %q; want 1 and %q… names no ladder … %s",
				strings.Join(args, " "), code, stdout.String(), stderr.String(), prefix, missing)
		}
		for _, f := range []string{missing, out} {
			if _, err := os.Stat(f); err == nil {
				t.Fatalf("ladderbot %s created %s", strings.Join(args, " "), f)
			}
		}
	}
}

// TestBackupDoesNotMigrate backs up databases whose schema is not this
// binary's: an older one is refused and left at its version (a backup
// taken with the new binary before an upgrade must not upgrade the live
// database under the old bot), and so is a PostgreSQL one of a newer
// schema, whose copy would drop what the newer migrations added; a newer
// SQLite one is copied whole.
func TestBackupDoesNotMigrate(t *testing.T) {
	ctx := context.Background()
	run := func(env string, args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := Main(args, []string{env, "LOG_LEVEL=error"}, &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	version := func(t *testing.T, driver, dsn string) int64 {
		db, err := sql.Open(driver, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var v int64
		if err := db.QueryRowContext(ctx, "SELECT max(version_id) FROM goose_db_version").Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}

	t.Run("older", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "old.db")
		db, err := sql.Open("sqlite3", "file:"+path)
		if err != nil {
			t.Fatal(err)
		}
		fsys, err := fs.Sub(migrations.SQLite, "sqlite")
		if err != nil {
			t.Fatal(err)
		}
		p, err := goose.NewProvider(goose.DialectSQLite3, db, fsys)
		if err != nil {
			t.Fatal(err)
		}
		srcs := p.ListSources()
		older := srcs[len(srcs)-2].Version
		if _, err := p.UpTo(ctx, older); err != nil {
			t.Fatal(err)
		}
		db.Close()
		out := filepath.Join(t.TempDir(), "b.db")
		code, stdout, stderr := run("DATABASE_URL=sqlite:"+path, "backup", "--out", out)
		if code != 1 || !strings.HasPrefix(stderr, "ladderbot backup: ") || !strings.Contains(stderr, "older than this ladderbot's") {
			t.Errorf("ladderbot backup of a schema at %d = %d, %q, %q; want 1 and \"ladderbot backup: … older than this ladderbot's\"", older, code, stdout, stderr)
		}
		if v := version(t, "sqlite3", "file:"+path+"?mode=ro"); v != older {
			t.Errorf("schema version after a backup = %d, want %d (unmigrated)", v, older)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("a refused backup wrote %s", out)
		}
	})

	for _, backend := range testdb.Backends() {
		t.Run("newer/"+backend, func(t *testing.T) {
			dsn := testdb.DSN(t, backend)
			if code, _, stderr := run("DATABASE_URL="+dsn, "migrate"); code != 0 {
				t.Fatalf("ladderbot migrate = %d, %q", code, stderr)
			}
			driver, conn := "pgx", dsn
			if backend == testdb.SQLite {
				driver, conn = "sqlite3", "file:"+strings.TrimPrefix(dsn, "sqlite:")
			}
			db, err := sql.Open(driver, conn)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.ExecContext(ctx, "INSERT INTO goose_db_version (version_id, is_applied) VALUES (99999, true)"); err != nil {
				t.Fatal(err)
			}
			db.Close()
			out := filepath.Join(t.TempDir(), "b.db")
			code, stdout, stderr := run("DATABASE_URL="+dsn, "backup", "--out", out)
			if backend == testdb.SQLite {
				if code != 0 || !strings.Contains(stdout, "schema version 99999") {
					t.Errorf("ladderbot backup of a newer SQLite schema = %d, %q, %q; want 0 and a copy at schema version 99999", code, stdout, stderr)
				}
				return
			}
			if code != 1 || !strings.HasPrefix(stderr, "ladderbot backup: ") || !strings.Contains(stderr, "newer than this ladderbot's") {
				t.Errorf("ladderbot backup of a newer PostgreSQL schema = %d, %q, %q; want 1 and \"ladderbot backup: … newer than this ladderbot's\"", code, stdout, stderr)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("a refused backup wrote %s", out)
			}
		})
	}
}
