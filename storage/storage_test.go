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

// open opens a fresh, empty database of backend (testdb.SQLite or
// testdb.Postgres), closed at the end of t.
func open(t testing.TB, b string) *storage.DB {
	t.Helper()
	db, err := storage.Open(context.Background(), testdb.DSN(t, b), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatalf("Open(%s) = %v", b, err)
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

func newEnv(t *testing.T, b string) *env {
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
func suite(t *testing.T, cases map[string]func(t *testing.T, b string)) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		for name, fn := range cases {
			t.Run(name, func(t *testing.T) { fn(t, b) })
		}
	})
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

var mod = ladder.Actor{UserID: "900000000000000001", Moderator: true}

func result(t1, t2 []string, winner int) ladder.ResultInput {
	return ladder.ResultInput{GuildID: guild, Team1: t1, Team2: t2, Winner: winner}
}

// open2v2 opens a queue match between (a, b) and (c, d).
func open2v2(t *testing.T, e *env, a, b, c, d string) ladder.Match {
	t.Helper()
	qs, err := e.svc.Queues(e.ctx, guild)
	if err != nil {
		t.Fatalf("Queues() = %v", err)
	}
	m, err := e.svc.CreateMatch(e.ctx, ladder.NewMatch{GuildID: guild, QueueID: qs[0].ID, Teams: [2][]string{{a, b}, {c, d}}})
	if err != nil {
		t.Fatalf("CreateMatch() = %v", err)
	}
	return m
}

func profile(t *testing.T, e *env, u string) ladder.Profile {
	t.Helper()
	p, err := e.svc.Profile(e.ctx, ladder.ProfileQuery{GuildID: guild, UserID: u})
	if err != nil {
		t.Fatalf("Profile(%s) = %v", u, err)
	}
	return p
}
