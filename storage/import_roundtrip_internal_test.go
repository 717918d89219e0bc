package storage

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

// copyLog is a statementLog that records COPYs too, as "COPY table".
type copyLog struct{ statementLog }

func (l *copyLog) TraceCopyFromStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceCopyFromStartData) context.Context {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stmts = append(l.stmts, "COPY "+strings.Join(d.TableName, "."))
	return ctx
}

func (l *copyLog) TraceCopyFromEnd(context.Context, *pgx.Conn, pgx.TraceCopyFromEndData) {}

// TestImportRoundTrips counts the round trips to PostgreSQL of importing
// one batch of 2,000 2v2 matches among 200 new players: the matches, their
// players, log rows and keys go in four COPYs, and the rest is a few
// statements per batch (the first also folds the queue's calibrator from
// the log once), where recording the matches one by one took three or
// more per match.
func TestImportRoundTrips(t *testing.T) {
	ctx := context.Background()
	log := new(copyLog)
	db, err := open(ctx, testdb.DSN(t, testdb.Postgres), nil, log)
	if err != nil {
		t.Fatalf("open() = %v", err)
	}
	t.Cleanup(func() { db.Close() })
	svc := ladder.NewService(db, nil)
	if _, err := svc.EnsureGuild(ctx, roundTripGuild); err != nil {
		t.Fatalf("EnsureGuild() = %v", err)
	}
	start := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	recs := make([]rating.MatchRecord, 2000)
	for i := range recs {
		p := func(k int) string { return roundTripUser((i*4 + k) % 200) }
		recs[i] = rating.MatchRecord{Date: start.Add(time.Duration(i) * time.Minute),
			Team1: []string{p(0), p(1)}, Team2: []string{p(2), p(3)}, Winner: 1 + i%2}
	}
	log.Reset()
	rep, err := svc.ImportMatches(ctx, roundTripGuild, "", recs, nil)
	if err != nil || rep.Imported != len(recs) {
		t.Fatalf("ImportMatches() = %+v, %v, want %d imported", rep, err, len(recs))
	}
	stmts := log.Reset()
	var copies []string
	for i, s := range stmts {
		t.Logf("round trip %d: %.80s", i+1, s)
		if strings.HasPrefix(s, "COPY ") {
			copies = append(copies, strings.TrimPrefix(s, "COPY "))
		}
	}
	if got, want := fmt.Sprint(copies), "[matches match_players rating_changes idempotency_keys]"; got != want {
		t.Errorf("Got(COPYs) = %s, want %s", got, want)
	}
	const most = 30
	if len(stmts) > most {
		t.Errorf("ImportMatches() of %d matches took %d round trips, want at most %d", len(recs), len(stmts), most)
	}
}
