package web

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/derived"
	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/rooms"
	"github.com/ladderbot/ladderbot/storage"
)

func newTestLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// env is a server over a real service and database.
type env struct {
	db  *storage.DB
	svc *ladder.Service
	srv *Server
	// in folds the integrity counters of the rated writes.
	in *integrity.Service
}

func newEnv(t testing.TB, dsn string, opts Options) *env {
	t.Helper()
	ctx := context.Background()
	db, err := storage.Open(ctx, dsn, nil)
	if err != nil {
		t.Fatalf("storage.Open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	// The rows derived from the log, wired as ladderbot serve wires them.
	in := integrity.New(db, nil)
	derived.Wire(db, in)
	svc := ladder.NewService(db, nil)
	opts.Service = svc
	if opts.Ping == nil {
		opts.Ping = db.Ping
	}
	if opts.Rates == nil {
		opts.Rates = db // as ladderbot serve has it: limits shared in the database
	}
	if opts.Rooms == nil {
		opts.Rooms = rooms.New(db, nil, svc, nil) // as ladderbot serve has it
	}
	if opts.Formats == nil {
		opts.Formats = formats.New(db, svc)
	}
	return &env{db: db, svc: svc, srv: New(opts), in: in}
}

// forEachDB runs fn once per real database (SQLite always, PostgreSQL from
// TEST_DATABASE_URL; STYLE.md: no mocks of the database), as subtests.
func forEachDB(t *testing.T, fn func(t *testing.T, dsn string)) {
	testdb.ForEach(t, func(t *testing.T, b string) { fn(t, testdb.DSN(t, b)) })
}

// The fixture ladder: guild G with eight players, a few matches and set
// ratings, so that exactly four are listed, in a known order:
//
//	1001 Alice 1900 ± 40, 1002 Bob 1800 ± 50, 1003 Cleo 1700 ± 60, 1004 Dan 1600 ± 70
//
// and four are hidden: 1005 Eve (RD 150, provisional), 1006 Finn (one
// old match: provisional and stale), 1007 Gus (1750 ± 45 but stale), 1008
// Hana (stale).
const (
	guildG     = "100000000000000001"
	otherGuild = "100000000000000002"
)

var fixtureNames = map[string]string{
	"1001": "Alice", "1002": "Bob", "1003": "Cleo", "1004": "Dan",
	"1005": "Eve", "1006": "Finn", "1007": "Gus", "1008": "Hana",
}

// fixtureMatches are recorded in this order; the first is 60 days old.
var fixtureMatches = []struct {
	team1, team2 []string
	winner       int
	daysAgo      int
}{
	{[]string{"1007", "1008"}, []string{"1005", "1006"}, 1, 60},
	{[]string{"1001", "1002"}, []string{"1003", "1004"}, 1, 2},
	{[]string{"1001", "1003"}, []string{"1002", "1005"}, 2, 1},
	{[]string{"1004", "1005"}, []string{"1001", "1002"}, 0, 0},
}

type fixture struct {
	matchIDs []int64
}

func seedFixture(t *testing.T, e *env) fixture {
	t.Helper()
	ctx := context.Background()
	g, err := e.svc.EnsureGuild(ctx, guildG)
	if err != nil {
		t.Fatalf("EnsureGuild: %v", err)
	}
	g.PlacementGames = 1
	if _, err := e.svc.UpdateGuild(ctx, ladder.System, g); err != nil {
		t.Fatalf("UpdateGuild: %v", err)
	}
	var f fixture
	now := time.Now().UTC()
	for i, m := range fixtureMatches {
		res, err := e.svc.RecordResult(ctx, ladder.ResultInput{GuildID: guildG, Team1: m.team1, Team2: m.team2,
			Winner: m.winner, Names: fixtureNames, PlayedAt: now.Add(-time.Duration(m.daysAgo)*24*time.Hour - time.Hour), Source: "test"})
		if err != nil {
			t.Fatalf("RecordResult #%d: %v", i, err)
		}
		f.matchIDs = append(f.matchIDs, res.Match.ID)
	}
	for _, s := range []struct {
		id         string
		rating, rd float64
	}{
		{"1001", 1900, 40}, {"1002", 1800, 50}, {"1003", 1700, 60}, {"1004", 1600, 70},
		{"1005", 1500, 150}, {"1007", 1750, 45},
	} {
		if _, err := e.svc.SetRating(ctx, ladder.System, guildG, "", s.id, s.rating, s.rd, "fixture"); err != nil {
			t.Fatalf("SetRating %s: %v", s.id, err)
		}
	}
	season, err := e.db.CurrentSeason(ctx, guildG)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := e.db.MarkStale(ctx, guildG, season.ID, now.Add(-30*24*time.Hour)); err != nil || n != 3 {
		t.Fatalf("MarkStale = %d, %v; want 3 (Finn, Gus and Hana played only the old match)", n, err)
	}
	e.srv.Invalidate(guildG)
	return f
}

// newToken creates an API token for guild and returns its secret.
func newToken(t *testing.T, e *env, guild, name string) string {
	t.Helper()
	secret, _, err := e.svc.CreateToken(context.Background(), ladder.System, guild, name)
	if err != nil {
		t.Fatalf("CreateToken: %v", err)
	}
	return secret
}

func mustf(t *testing.T, err error, format string, args ...any) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", fmt.Sprintf(format, args...), err)
	}
}
