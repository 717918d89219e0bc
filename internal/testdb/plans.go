package testdb

import (
	"context"
	"database/sql"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"gorm.io/gorm"
)

// Statement is a statement the ORM sent: its text with placeholders and
// its bound arguments.
type Statement struct {
	SQL  string
	Vars []any
}

// CaptureStatements records every statement the ORM runs on g from now
// on (its query, row, raw, update and delete callbacks), as sent, so that
// a test can ask the database for the plan of the very statement a method
// sends. The returned function lists them so far.
func CaptureStatements(t testing.TB, g *gorm.DB) func() []Statement {
	t.Helper()
	var (
		mu   sync.Mutex
		sent []Statement
	)
	rec := func(d *gorm.DB) {
		mu.Lock()
		defer mu.Unlock()
		sent = append(sent, Statement{d.Statement.SQL.String(), append([]any(nil), d.Statement.Vars...)})
	}
	cb := g.Callback()
	for _, err := range []error{
		cb.Query().After("gorm:query").Register("testdb:capture", rec),
		cb.Row().After("gorm:row").Register("testdb:capture", rec),
		cb.Raw().After("gorm:raw").Register("testdb:capture", rec),
		cb.Update().After("gorm:update").Register("testdb:capture", rec),
		cb.Delete().After("gorm:delete").Register("testdb:capture", rec),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return func() []Statement {
		mu.Lock()
		defer mu.Unlock()
		return append([]Statement(nil), sent...)
	}
}

// SQLitePlan returns the details of SQLite's EXPLAIN QUERY PLAN of query
// with args, one line each.
func SQLitePlan(t testing.TB, db *sql.DB, query string, args ...any) []string {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		t.Fatalf("EXPLAIN QUERY PLAN %s = %v", query, err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return plan
}

// HistoryTables are the tables that grow with a ladder's history: one or
// more rows for every match, result, vote or delivery ever made.
// webhook_events is not among them: its rows are kept for a week
// (ladder.EventRetention), so it holds a week's results, and the one
// statement that scans it is the daily prune of the week before.
var HistoryTables = []string{"matches", "match_players", "rating_changes", "disputes", "audit_log", "idempotency_keys",
	"ready_checks", "ready_players", "cancel_votes", "sub_requests", "no_shows", "webhook_deliveries",
	"webhook_attempts", "match_announcements", "match_rooms", "room_warnings", "match_messages", "result_posts",
	"map_picks", "map_votes", "map_bans", "series_games", "queue_joins", "rematches", "rematch_votes",
	"integrity_audit", "predictions", "mvp_votes", "drafts", "draft_seats", "season_pairs"}

// HistoryPageWalk is the statement of the guild's match history page, which
// the plan tests accept: it walks the guild's matches newest first and
// keeps the rated ones, nearly all of a guild's, up to its LIMIT.
const HistoryPageWalk = "FROM matches AS m WHERE m.guild_id = ? AND m.state IN (?,?) ORDER BY m.id DESC LIMIT"

// liveIndexes are the partial indexes that hold only the few rows a
// statement looks for (open, due or disputed matches, live rooms, open
// messages, pending deliveries, the rated log of one ladder): a read
// through one of them costs the live rows, not the history.
var liveIndexes = []string{"matches_open", "matches_due", "matches_state", "match_rooms_live", "match_rooms_channel",
	"map_picks_due", "match_announcements_open", "match_messages_open", "matches_log", "match_players_active",
	"disputes_open", "series_games_disputed", "webhook_deliveries_due", "webhook_deliveries_pending"}

// throughLive reports whether d, a line of SQLite's plan, reads through
// one of liveIndexes.
func throughLive(d string) bool {
	for _, partial := range liveIndexes {
		if strings.Contains(d, "INDEX "+partial+" ") || strings.HasSuffix(d, "INDEX "+partial) {
			return true
		}
	}
	return false
}

// ScansHistory reports whether d, a line of SQLite's plan of query,
// scans a history table other than through a partial index of live rows.
func ScansHistory(d, query string) bool {
	if !strings.HasPrefix(d, "SCAN ") || throughLive(d) {
		return false
	}
	return historyTable(strings.Fields(d)[1], query)
}

// SearchesGuildHistory reports whether d, a line of SQLite's plan of
// query, reads a history table by the guild alone (an index searched with
// `guild_id=?` and nothing more): every row the guild ever wrote there.
// That is the cost of a page only when the rows come in the index's order,
// the guild is the statement's only test and a LIMIT stops the walk (the
// newest matches of a guild); the caller tells the order by the whole
// plan: ordered is false when SQLite sorts. With any other test (a state,
// say) the walk goes on until it has found the page, which for a rare
// state is the guild's whole history.
func SearchesGuildHistory(d, query string, ordered bool) bool {
	if !strings.HasPrefix(d, "SEARCH ") || !strings.HasSuffix(d, "(guild_id=?)") || throughLive(d) {
		return false
	}
	if ordered && guildOnlyWalk.MatchString(strings.Join(strings.Fields(strings.ReplaceAll(query, "`", "")), " ")) {
		return false
	}
	return historyTable(strings.Fields(d)[1], query)
}

// guildOnlyWalk matches a statement whose only test is the guild, read in
// order up to a LIMIT.
var guildOnlyWalk = regexp.MustCompile(`(?i) WHERE ([a-z_]+\.)?guild_id = \? ORDER BY [^ ]+( DESC| ASC)? LIMIT `)

// historyTable reports whether name, a table or its alias in a plan of
// query, is a history table.
func historyTable(name, query string) bool {
	q := " " + strings.Join(strings.Fields(strings.ReplaceAll(query, "`", "")), " ") + " "
	for _, h := range HistoryTables {
		// A table scanned under an alias is named by it in the plan.
		if name == h || strings.Contains(q, " "+h+" "+name+" ") || strings.Contains(q, " "+h+" AS "+name+" ") {
			return true
		}
	}
	return false
}

// NoHistoryScans asks SQLite for the plan of each distinct statement of
// sent and fails t for every one that scans a history table
// (ScansHistory) or reads one by the guild alone (SearchesGuildHistory),
// except the statements that contain one of accepted (with its words
// separated by single spaces), which the caller has reasons to accept. It
// returns the number of distinct statements planned.
func NoHistoryScans(t testing.TB, db *sql.DB, sent []Statement, accepted ...string) int {
	t.Helper()
	seen := map[string]bool{}
	for _, s := range sent {
		if seen[s.SQL] {
			continue
		}
		seen[s.SQL] = true
		flat := strings.Join(strings.Fields(s.SQL), " ")
		if slices.ContainsFunc(accepted, func(a string) bool { return strings.Contains(flat, a) }) {
			continue
		}
		plan := SQLitePlan(t, db, s.SQL, s.Vars...)
		ordered := !slices.ContainsFunc(plan, func(d string) bool { return strings.HasPrefix(d, "USE TEMP B-TREE FOR ORDER BY") })
		for _, d := range plan {
			if ScansHistory(d, s.SQL) || SearchesGuildHistory(d, s.SQL, ordered) {
				t.Errorf("Got(plan of %s) = %q, want no scan of a history table (nor a read of all the guild's rows) but through a partial index of live rows",
					strings.Join(strings.Fields(s.SQL), " "), plan)
				break
			}
		}
	}
	return len(seen)
}
