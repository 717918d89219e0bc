package cli

import (
	"bytes"
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestMigrateLogsOneLine: a fresh database's migrations are one INFO line
// with their count, not a line each; LOG_LEVEL=debug shows each.
func TestMigrateLogsOneLine(t *testing.T) {
	for _, c := range []struct {
		level     string
		wantEach  bool
		wantTotal bool
	}{
		{"info", false, true},
		{"debug", true, true},
	} {
		t.Run(c.level, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			env := []string{"DATABASE_URL=sqlite:" + filepath.Join(t.TempDir(), "ladder.db"), "LOG_LEVEL=" + c.level}
			if code := Main([]string{"migrate"}, env, &stdout, &stderr); code != 0 {
				t.Fatalf("Got(migrate) = %d, %q, want 0", code, stderr.String())
			}
			log := stderr.String()
			each := strings.Count(log, "applied migration")
			total := strings.Count(log, "migrations applied")
			if (each > 1) != c.wantEach || (total == 1) != c.wantTotal {
				t.Errorf("Got(log at %s) = %d per-migration lines, %d summary lines, want each %v and one summary:\n%s", c.level, each, total, c.wantEach, log)
			}
		})
	}
}

// TestMigrateNewerSchema runs migrate on a database a newer ladderbot
// migrated, on both backends: it changes nothing, prints the version and
// exits 1 saying the binary is older than the database, so a deploy that
// runs migrate with a stale binary does not pass as an upgrade.
func TestMigrateNewerSchema(t *testing.T) {
	ctx := context.Background()
	for _, backend := range testdb.Backends() {
		t.Run(backend, func(t *testing.T) {
			dsn := testdb.DSN(t, backend)
			run := func() (int, string, string) {
				var stdout, stderr bytes.Buffer
				code := Main([]string{"migrate"}, []string{"DATABASE_URL=" + dsn, "LOG_LEVEL=error"}, &stdout, &stderr)
				return code, stdout.String(), stderr.String()
			}
			if code, _, stderr := run(); code != 0 {
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
			defer db.Close()
			if _, err := db.ExecContext(ctx, "INSERT INTO goose_db_version (version_id, is_applied) VALUES (99999, true)"); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := run()
			if code != 1 || !strings.Contains(stdout, "schema at version 99999") ||
				!strings.HasPrefix(stderr, "ladderbot migrate: ") || !strings.Contains(stderr, "newer than this ladderbot's") {
				t.Errorf("ladderbot migrate on a newer schema = %d, %q, %q; want 1, the version and \"ladderbot migrate: … newer than this ladderbot's\"", code, stdout, stderr)
			}
		})
	}
}
