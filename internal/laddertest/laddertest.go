// Package laddertest holds the helpers that tests of the Service share,
// whichever package they live in (ladder's behaviours, storage's store
// tests): a Service over a fresh database of one backend, and the checks
// those tests make of it. It imports storage, so storage's internal tests
// (package storage) cannot use it; internal/testdb serves them.
package laddertest

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/derived"
	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// Open opens a fresh, empty database of backend (testdb.SQLite or
// testdb.Postgres), closed at the end of t.
func Open(t testing.TB, backend string) *storage.DB {
	t.Helper()
	return OpenDSN(t, testdb.DSN(t, backend))
}

// OpenDSN opens the database at dsn (testdb.DSN), closed at the end of t:
// a second handle on a database, as a second process has.
func OpenDSN(t testing.TB, dsn string) *storage.DB {
	t.Helper()
	db, err := storage.Open(context.Background(), dsn, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatalf("storage.Open() = %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// Clock returns a clock at a fixed Monday noon, so that deadlines and
// seasons fall the same way every run.
func Clock() *ladder.ManualClock {
	return ladder.NewManualClock(time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC))
}

// Service returns a Service on db reading clock, with guild set up.
func Service(t testing.TB, db *storage.DB, clock *ladder.ManualClock, guild string) *ladder.Service {
	t.Helper()
	svc := ladder.NewService(db, clock)
	if _, err := svc.EnsureGuild(context.Background(), guild); err != nil {
		t.Fatalf("EnsureGuild() = %v", err)
	}
	return svc
}

// Count returns the number of rows of a table.
func Count(t testing.TB, db *storage.DB, table string) int64 {
	t.Helper()
	var n int64
	if err := db.Gorm().Table(table).Count(&n).Error; err != nil {
		t.Fatalf("count %s: %v", table, err)
	}
	return n
}

// MustVerify fails t when the guild's stored ratings differ from the replay.
func MustVerify(t testing.TB, svc *ladder.Service, guild string) ladder.VerifyReport {
	t.Helper()
	rep, err := svc.Verify(context.Background(), guild)
	if err != nil {
		t.Fatalf("Verify() = %v", err)
	}
	for _, d := range rep.Diffs {
		t.Errorf("Verify() difference: %s %s", d.UserID, d.Problem)
	}
	return rep
}

// Open2v2 opens a match of the guild's first queue between (a, b) and (c, d).
func Open2v2(t testing.TB, svc *ladder.Service, guild, a, b, c, d string) ladder.Match {
	t.Helper()
	ctx := context.Background()
	qs, err := svc.Queues(ctx, guild)
	if err != nil {
		t.Fatalf("Queues() = %v", err)
	}
	m, err := svc.CreateMatch(ctx, ladder.NewMatch{GuildID: guild, QueueID: qs[0].ID, Teams: [2][]string{{a, b}, {c, d}}})
	if err != nil {
		t.Fatalf("CreateMatch() = %v", err)
	}
	return m
}

// Profile returns u's profile in the guild.
func Profile(t testing.TB, svc *ladder.Service, guild, u string) ladder.Profile {
	t.Helper()
	p, err := svc.Profile(context.Background(), ladder.ProfileQuery{GuildID: guild, UserID: u})
	if err != nil {
		t.Fatalf("Profile(%s) = %v", u, err)
	}
	return p
}

// OpenDerived is Open with the rows derived from the rated log (integrity
// counters and flags, predictors' points, MVP counts) wired into the rated
// write, as every command of the bot opens it (package derived). It
// returns the integrity service that folds them, with the clock now (nil:
// the wall clock).
func OpenDerived(t testing.TB, backend string, now func() time.Time) (*storage.DB, *integrity.Service) {
	t.Helper()
	db := Open(t, backend)
	in := integrity.New(db, now)
	derived.Wire(db, in)
	return db, in
}

// RecordHistory records n 2v2 results in guild, rotating through ids as
// (i, i+5) against (i+9, i+14) with the winner alternating, so that every
// player has partners and opponents of all kinds behind them; it returns
// the last match's ID. The plan tests give their ladders such a history
// before they watch what a night's reads cost.
func RecordHistory(t testing.TB, svc *ladder.Service, guild string, ids []string, n int) int64 {
	t.Helper()
	k := len(ids)
	var last int64
	for i := range n {
		r, err := svc.RecordResult(context.Background(), ladder.ResultInput{GuildID: guild, Winner: 1 + i%2,
			Team1: []string{ids[i%k], ids[(i+5)%k]}, Team2: []string{ids[(i+9)%k], ids[(i+14)%k]}})
		if err != nil {
			t.Fatalf("RecordResult(%d) = %v", i, err)
		}
		last = r.Match.ID
	}
	return last
}
