package jobs_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
)

// historyTables are the tables that grow with a ladder's history: one
// or more rows for every match ever played.
var historyTables = []string{"matches", "match_players", "rating_changes", "match_announcements", "match_messages",
	"match_rooms", "map_picks", "audit_log", "webhook_deliveries", "ready_checks", "disputes", "series_games"}

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
	if err := p.sched.RunAll(ctx); err != nil {
		t.Fatalf("RunAll() = %v", err)
	}
	seen := map[string]bool{}
	for _, s := range sent() {
		if seen[s.SQL] {
			continue
		}
		seen[s.SQL] = true
		plan := testdb.SQLitePlan(t, p.db.SQL(), s.SQL, s.Vars...)
		for _, d := range plan {
			if scansHistory(d, s.SQL) {
				t.Errorf("Got(plan of %s) = %q, want no scan of a history table but through a partial index of live rows",
					strings.Join(strings.Fields(s.SQL), " "), plan)
			}
		}
	}
	if len(seen) < 10 {
		t.Errorf("Got(%d distinct statements), want the jobs' reads (at least 10)", len(seen))
	}
}

// scansHistory reports whether a plan line of SQLite scans a history
// table of query other than through one of the partial indexes of live
// rows.
func scansHistory(d, query string) bool {
	if !strings.HasPrefix(d, "SCAN ") {
		return false
	}
	for _, partial := range []string{"matches_open", "matches_due", "match_rooms_live", "map_picks_due",
		"match_announcements_open", "match_messages_open", "matches_log"} {
		if strings.Contains(d, "INDEX "+partial+" ") || strings.HasSuffix(d, "INDEX "+partial) {
			return false
		}
	}
	name := strings.Fields(d)[1]
	q := " " + strings.Join(strings.Fields(strings.ReplaceAll(query, "`", "")), " ") + " "
	for _, h := range historyTables {
		// A table scanned under an alias is named by it in the plan.
		if name == h || strings.Contains(q, " "+h+" "+name+" ") || strings.Contains(q, " "+h+" AS "+name+" ") {
			return true
		}
	}
	return false
}
