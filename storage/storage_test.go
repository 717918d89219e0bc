package storage_test

import (
	"context"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// backend opens fresh, empty databases of one dialect.
type backend struct {
	name string
	// dsn returns the DSN of a new empty database, dropped at the end of t.
	dsn func(t testing.TB) string
}

// backends returns SQLite always and PostgreSQL when TEST_DATABASE_URL is set.
func backends() []backend {
	return []backend{
		{"sqlite", func(t testing.TB) string { return testdb.DSN(t, testdb.SQLite) }},
		{"postgres", pgDSN},
	}
}

// pgDSN returns a fresh PostgreSQL schema of TEST_DATABASE_URL (testdb).
func pgDSN(t testing.TB) string { return testdb.DSN(t, testdb.Postgres) }

func open(t testing.TB, b backend) *storage.DB {
	t.Helper()
	db, err := storage.Open(context.Background(), b.dsn(t), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatalf("Open(%s) = %v", b.name, err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// newClock returns the clock a test's Service reads, at a fixed Monday noon.
func newClock() *ladder.ManualClock {
	return ladder.NewManualClock(time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC))
}

// env is one test's service over a fresh database.
type env struct {
	db    *storage.DB
	svc   *ladder.Service
	clock *ladder.ManualClock
	ctx   context.Context
}

const guild = "100000000000000001"

func newEnv(t *testing.T, b backend) *env {
	t.Helper()
	db := open(t, b)
	c := newClock()
	e := &env{db: db, svc: ladder.NewService(db, c), clock: c, ctx: context.Background()}
	if _, err := e.svc.EnsureGuild(e.ctx, guild); err != nil {
		t.Fatalf("EnsureGuild() = %v", err)
	}
	return e
}

// suite runs each case on every backend as TestX/<backend>/<case>.
func suite(t *testing.T, cases map[string]func(t *testing.T, b backend)) {
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			for name, fn := range cases {
				t.Run(name, func(t *testing.T) { fn(t, b) })
			}
		})
	}
}

func user(i int) string { return fmt.Sprintf("2000000000000%05d", i) }

// count returns the number of rows of a table.
func count(t *testing.T, db *storage.DB, table string) int64 {
	t.Helper()
	var n int64
	if err := db.Gorm().Table(table).Count(&n).Error; err != nil {
		t.Fatalf("count %s: %v", table, err)
	}
	return n
}

// mustVerify fails t when the stored ratings differ from the replay.
func mustVerify(t *testing.T, e *env) ladder.VerifyReport {
	t.Helper()
	rep, err := e.svc.Verify(e.ctx, guild)
	if err != nil {
		t.Fatalf("Verify() = %v", err)
	}
	for _, d := range rep.Diffs {
		t.Errorf("Verify() difference: %s %s", d.UserID, d.Problem)
	}
	return rep
}
