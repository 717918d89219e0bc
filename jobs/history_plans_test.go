package jobs_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
)

// TestSQLiteJobsReadNoHistory runs every scheduled job once over a
// SQLite ladder with a history, records each statement the ORM sends (its
// text with placeholders and its arguments, as sent), and asks SQLite for
// its plan: none may scan a table that grows with the history, unless
// through a partial index of the few rows it looks for. SQLite uses such
// an index only when the statement's own test implies the index's, which
// a state bound as a list of parameters cannot (the auto-confirm, rooms
// and integrity reads once scanned every match or room that way), and a
// job that runs every minute or every few seconds must cost its work, not
// the history.
func TestSQLiteJobsReadNoHistory(t *testing.T) {
	ctx := context.Background()
	p := newProc(t, testdb.DSN(t, testdb.SQLite), nil, &poster{})
	setupGuild(t, p.svc, 0)
	playRounds(t, p.svc, users(1, 32), 10, 1)
	sent := testdb.CaptureStatements(t, p.db.Gorm())
	// With map picks, so that the ready-checks job's tick runs theirs.
	sched := jobs.New(p.svc, &poster{}, slog.New(slog.DiscardHandler), jobs.Options{PostBackoff: time.Millisecond,
		Formats: formats.New(p.db, p.svc)})
	if err := sched.RunAll(ctx); err != nil {
		t.Fatalf("RunAll() = %v", err)
	}
	n := testdb.NoHistoryScans(t, p.db.SQL(), sent())
	if n < 10 {
		t.Errorf("Got(%d distinct statements), want the jobs' reads (at least 10)", n)
	}
}
