package storage_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ladderbot/ladderbot/internal/laddertest"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// open opens a fresh, empty database of backend (testdb.SQLite or
// testdb.Postgres), closed at the end of t.
func open(t testing.TB, b string) *storage.DB { t.Helper(); return laddertest.Open(t, b) }

// newClock returns the clock a test's Service reads, at a fixed Monday noon.
func newClock() *ladder.ManualClock { return laddertest.Clock() }

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
	db, c := open(t, b), newClock()
	return &env{db: db, svc: laddertest.Service(t, db, c, guild), clock: c, ctx: context.Background()}
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
	return laddertest.Count(t, db, table)
}

// mustVerify fails t when the stored ratings differ from the replay.
func mustVerify(t *testing.T, e *env) ladder.VerifyReport {
	t.Helper()
	return laddertest.MustVerify(t, e.svc, guild)
}

var mod = ladder.Actor{UserID: "900000000000000001", Moderator: true}

func result(t1, t2 []string, winner int) ladder.ResultInput {
	return ladder.ResultInput{GuildID: guild, Team1: t1, Team2: t2, Winner: winner}
}

// open2v2 opens a queue match between (a, b) and (c, d).
func open2v2(t *testing.T, e *env, a, b, c, d string) ladder.Match {
	t.Helper()
	return laddertest.Open2v2(t, e.svc, guild, a, b, c, d)
}

func profile(t *testing.T, e *env, u string) ladder.Profile {
	t.Helper()
	return laddertest.Profile(t, e.svc, guild, u)
}
