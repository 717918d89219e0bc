package storage

import (
	"context"
	"database/sql"
	"fmt"
	"github.com/ladderbot/ladderbot/community"
	"slices"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// planDB opens a PostgreSQL ladder for a plan test, with one guild (g)
// and its default queue and season.
func planDB(t *testing.T) (db *DB, g string) {
	t.Helper()
	db, err := Open(context.Background(), testdb.DSN(t, testdb.Postgres), nil)
	if err != nil {
		t.Fatalf("Open() = %v", err)
	}
	t.Cleanup(func() { db.Close() })
	g = "100000000000000001"
	if _, err := ladder.NewService(db, nil).EnsureGuild(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	return db, g
}

// sqlitePlanDB opens an empty SQLite ladder for a plan test: SQLite plans
// from the schema alone, so no rows are needed.
func sqlitePlanDB(t *testing.T) *DB {
	t.Helper()
	db, err := Open(context.Background(), testdb.DSN(t, testdb.SQLite), nil)
	if err != nil {
		t.Fatalf("Open() = %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// genericPlanConn is a connection of db whose prepared statements use
// their generic plan, the one a busy ladder runs; it closes with the test.
func genericPlanConn(t *testing.T, db *DB) *sql.Conn {
	t.Helper()
	conn, err := db.sql.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := conn.ExecContext(context.Background(), `SET plan_cache_mode = force_generic_plan`); err != nil {
		t.Fatal(err)
	}
	return conn
}

// querier is a connection, transaction or pool to explain a query on.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// explain returns the lines of EXPLAIN ANALYZE's plan of query.
func explain(t *testing.T, q querier, query string, args ...any) []string {
	t.Helper()
	rows, err := q.QueryContext(context.Background(), `EXPLAIN (ANALYZE, COSTS OFF) `+query, args...)
	if err != nil {
		t.Fatalf("EXPLAIN = %v", err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var l string
		if err := rows.Scan(&l); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, l)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return plan
}

// TestCountersReadProbesKeys: the integrity fold reads the counters of a
// rated write's players inside the rated write. On a ladder of thousands
// of counters whose statistics were taken while it was young (as a new
// ladder's are until autovacuum comes by), the read must look each key up
// by the primary key, not scan the ladder's counters and filter them: that
// scan grew with the ladder's history and halved a hot guild's results/s.
func TestCountersReadProbesKeys(t *testing.T) {
	ctx := context.Background()
	db, _ := planDB(t)
	if _, err := db.sql.ExecContext(ctx, `ANALYZE integrity_counters`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.sql.ExecContext(ctx, `INSERT INTO integrity_counters (queue_id, season_id, guild_id, key, value)
SELECT 1, 1, 'g', 'p:' || a || ':' || b, '{"n":1}' FROM generate_series(1, 100) a, generate_series(1, 90) b`); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for a := range 150 {
		keys = append(keys, fmt.Sprintf("p:%d:%d", a+1, a%90+1))
	}
	conn := genericPlanConn(t, db)
	plan := explain(t, conn, countersPG, 1, 1, keys)
	p := strings.Join(plan, "\n")
	if !strings.Contains(p, "key = k.key") || !strings.Contains(p, "Index Cond") || strings.Contains(p, "Rows Removed by Filter") {
		t.Errorf("the counters' read does not probe the primary key per key:\n%s", p)
	}
	t.Logf("plan:\n%s", p)
}

// TestLadderLockProbesPlayers: a rated result reads its ladder and locks
// its players' rating rows in one statement. In a guild of thousands of
// players whose statistics were taken while it was small, the read must
// look each player up by the primary key, not scan the ladder's ratings.
func TestLadderLockProbesPlayers(t *testing.T) {
	ctx := context.Background()
	db, g := planDB(t)
	for _, q := range []string{`ANALYZE ratings`, `INSERT INTO players (guild_id, user_id, name, created_at)
SELECT $1, (200000000000000000 + n)::text, 'p' || n, now() FROM generate_series(1, 10000) n`, `INSERT INTO ratings (queue_id, season_id, user_id, guild_id, rating, dev, base_rating, base_dev, display, display_dev)
SELECT q.id, s.id, (200000000000000000 + n)::text, $1, 1500, 350, 1500, 350, 0, 350
FROM queues q JOIN seasons s ON s.guild_id = q.guild_id, generate_series(1, 10000) n WHERE q.guild_id = $1`} {
		args := []any{}
		if strings.Contains(q, "$1") {
			args = append(args, g)
		}
		if _, err := db.sql.ExecContext(ctx, q, args...); err != nil {
			t.Fatal(err)
		}
	}
	users := []string{"200000000000000017", "200000000000000512", "200000000000004711", "200000000000009999"}
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	plan := explain(t, tx, lockLadderPG, "", "", users, g)
	p := strings.Join(plan, "\n")
	t.Logf("plan:\n%s", p)
	if !strings.Contains(p, "user_id = u.user_id") || !strings.Contains(p, "Index Cond") {
		t.Errorf("the ladder's read does not probe the players' rows by primary key:\n%s", p)
	}
	for _, l := range plan {
		if strings.Contains(l, "Rows Removed by Filter") && !strings.Contains(l, "Removed by Filter: 0") {
			t.Errorf("the ladder's read filters rows it scanned: %s", l)
		}
	}
}

// TestGapReadsLogEnd: the rated write asks whether the ladder's log has a
// rated match the integrity fold never saw, after the progress. With the
// progress at the log's end there is none, and the read must still not
// look through the log for it: it reads the last entries of matches_log.
// `seq > progress LIMIT n` made the planner scan every match (110 ms at
// 18,000 matches), a cost growing with the log.
func TestGapReadsLogEnd(t *testing.T) {
	ctx := context.Background()
	db, g := planDB(t)
	var q, season int64
	if err := db.sql.QueryRowContext(ctx, `SELECT q.id, s.id FROM queues q JOIN seasons s ON s.guild_id = q.guild_id WHERE q.guild_id = $1`, g).Scan(&q, &season); err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		`INSERT INTO matches (guild_id, queue_id, season_id, team1, team2, state, winner, seq, created_at)
SELECT $1, $2, $3, 'a,b', 'c,d', 'confirmed', 1, n, now() FROM generate_series(1, 20000) n`,
		`ANALYZE matches`,
		`INSERT INTO integrity_progress (queue_id, season_id, guild_id, seq, folded, live, clear) VALUES ($2, $3, $1, 20000, 20000, true, false)`,
	} {
		args := []any{g, q, season}
		if !strings.Contains(stmt, "$1") {
			args = nil
		}
		if _, err := db.sql.ExecContext(ctx, stmt, args...); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name string
		sql  string
		args []any
	}{
		{"unseenSQL", unseenSQL, []any{q, season, 2}},
		{"gapSQL", pgSQL(gapSQL), []any{q, season, 20001, q, season}},
	} {
		var n int
		if err := db.sql.QueryRowContext(ctx, c.sql, c.args...).Scan(&n); err != nil || n != 0 {
			t.Errorf("%s = %d, %v; want 0 (the progress is at the log's end)", c.name, n, err)
		}
		plan := explain(t, db.sql, c.sql, c.args...)
		p := strings.Join(plan, "\n")
		if strings.Contains(p, "Seq Scan on matches") || !strings.Contains(p, "Backward using matches_log") {
			t.Errorf("%s does not read the end of matches_log:\n%s", c.name, p)
		}
	}
}

// TestIdempotencyReadProbesKeys: a batch of API results reads its
// idempotency keys in its transaction. In a guild of thousands of keys
// whose statistics were taken while it had few, under the prepared
// statement's generic plan, the read must look each key up by the primary
// key, not read every key of the guild and filter them (5 ms a batch at
// 8,000 keys, BenchmarkHotGuild, and growing with the guild's history).
func TestIdempotencyReadProbesKeys(t *testing.T) {
	ctx := context.Background()
	db, g := planDB(t)
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// A long-lived connection of pgx's statement cache prepared the read
	// while the guild had no keys, and keeps its generic plan.
	const keysLit = `'{key-17,key-512,key-4711,key-9999,key-none}'`
	for _, q := range []string{`SET plan_cache_mode = force_generic_plan`, `PREPARE idem AS ` + idempotencyPG,
		`EXECUTE idem(` + keysLit + `, '` + g + `')`} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []string{`INSERT INTO matches (id, guild_id, queue_id, season_id, team1, team2, state, created_at)
SELECT 900000, $1, q.id, s.id, 'a,b', 'c,d', 'cancelled', now() FROM queues q JOIN seasons s ON s.guild_id = q.guild_id WHERE q.guild_id = $1`,
		`INSERT INTO idempotency_keys (guild_id, key, match_id, created_at) SELECT $1, 'key-' || n, 900000, now() FROM generate_series(1, 10000) n`} {
		if _, err := db.sql.ExecContext(ctx, q, g); err != nil {
			t.Fatal(err)
		}
	}
	keys := []string{"key-17", "key-512", "key-4711", "key-9999", "key-none"}
	err = db.InTx(ctx, func(tx ladder.Tx) error {
		used, err := tx.IdempotentMatches(ctx, g, keys)
		if err != nil {
			return err
		}
		if len(used) != 4 || used["key-4711"] != 900000 || used["key-none"] != 0 {
			t.Errorf("IdempotentMatches() = %v; want the four used keys of match 900000", used)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("InTx() = %v", err)
	}
	p := strings.Join(explain(t, conn, `EXECUTE idem(`+keysLit+`, '`+g+`')`), "\n")
	t.Logf("plan:\n%s", p)
	if !strings.Contains(p, "key = k.key") || !strings.Contains(p, "Index Cond") || strings.Contains(p, "Rows Removed by Filter") {
		t.Errorf("the idempotency keys' read does not probe the primary key per key:\n%s", p)
	}
}

// TestLockRatingsProbesPlayers: locking players' rating rows by their IDs
// (a result with a new player, a correction, a season's carry-over) must
// look each row up by the primary key, in the order given, however many
// players the ladder has and whatever its statistics say.
func TestLockRatingsProbesPlayers(t *testing.T) {
	ctx := context.Background()
	db, g := planDB(t)
	for _, q := range []string{`ANALYZE ratings`, `INSERT INTO players (guild_id, user_id, name, created_at)
SELECT $1, (200000000000000000 + n)::text, 'p' || n, now() FROM generate_series(1, 10000) n`, `INSERT INTO ratings (queue_id, season_id, user_id, guild_id, rating, dev, base_rating, base_dev, display, display_dev)
SELECT q.id, s.id, (200000000000000000 + n)::text, $1, 1400 + n % 200, 350, 1500, 350, 0, 350
FROM queues q JOIN seasons s ON s.guild_id = q.guild_id, generate_series(1, 10000) n WHERE q.guild_id = $1`} {
		args := []any{g}
		if !strings.Contains(q, "$1") {
			args = nil
		}
		if _, err := db.sql.ExecContext(ctx, q, args...); err != nil {
			t.Fatal(err)
		}
	}
	var k ladder.Key
	if err := db.sql.QueryRowContext(ctx, `SELECT q.id, s.id FROM queues q JOIN seasons s ON s.guild_id = q.guild_id WHERE q.guild_id = $1`, g).Scan(&k.QueueID, &k.SeasonID); err != nil {
		t.Fatal(err)
	}
	users := []string{"200000000000000017", "200000000000000512", "200000000000004711", "200000000000009999", "300000000000000000"}
	err := db.InTx(ctx, func(tx ladder.Tx) error {
		rs, err := tx.LockRatings(ctx, k, users)
		if err != nil {
			return err
		}
		if len(rs) != 4 || rs[2].UserID != users[2] || rs[2].State.Rating != 1400+4711%200 {
			t.Errorf("LockRatings() = %d rows (%+v); want the four existing players' rows in order", len(rs), rs)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("InTx() = %v", err)
	}
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `SET LOCAL plan_cache_mode = force_generic_plan`); err != nil {
		t.Fatal(err)
	}
	p := strings.Join(explain(t, tx, lockRatingsPG, k.QueueID, k.SeasonID, users), "\n")
	t.Logf("plan:\n%s", p)
	if !strings.Contains(p, "user_id = u.user_id") || !strings.Contains(p, "Index Cond") || strings.Contains(p, "Rows Removed by Filter") {
		t.Errorf("the players' rows are not probed by primary key:\n%s", p)
	}
}

// TestAheadReadsProbeKeys: the integrity reads sent ahead with a rated
// write's lock (ahead.go) look each counter up by the primary key in a
// ladder of thousands of counters, both the ones given their keys (a
// result's) and the ones that list their keys from a match's players (a
// confirm's). A key listed with a collation of its own was compared
// through a scan of every counter of the ladder.
func TestAheadReadsProbeKeys(t *testing.T) {
	ctx := context.Background()
	db, g := planDB(t)
	svc := ladder.NewService(db, nil)
	qs, err := svc.Queues(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	m, err := svc.CreateMatch(ctx, ladder.NewMatch{GuildID: g, QueueID: qs[0].ID,
		Teams: [2][]string{{"200000000000000001", "200000000000000002"}, {"200000000000000010", "200000000000000003"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.sql.ExecContext(ctx, `ANALYZE integrity_counters`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.sql.ExecContext(ctx, `INSERT INTO integrity_counters (queue_id, season_id, guild_id, key, value)
SELECT $1, $2, $3, 'p:' || a || ':' || b, '{"n":1}' FROM generate_series(1, 100) a, generate_series(1, 90) b`, m.QueueID, m.SeasonID, g); err != nil {
		t.Fatal(err)
	}
	conn := genericPlanConn(t, db)
	for _, c := range []struct {
		name, query string
		args        []any
	}{
		{"a result's", byName + aheadCounters, []any{g, "", []string{"l", "p:1:2", "p:7:9", "u:200000000000000001"}}},
		{"a confirm's", byMatch + aheadMatchCounters, []any{m.ID}},
	} {
		plan := explain(t, conn, c.query, c.args...)
		probes := slices.ContainsFunc(plan, func(l string) bool { return strings.Contains(l, "Index Cond") && strings.Contains(l, "key = ") })
		p := strings.Join(plan, "\n")
		if !probes || strings.Contains(p, "Seq Scan on integrity_counters") {
			t.Errorf("%s counters read ahead do not probe the primary key per key:\n%s", c.name, p)
		}
		t.Logf("%s plan:\n%s", c.name, p)
	}
}

// TestSQLiteCountersProbeByKey: the fold's read of counters on SQLite
// probes the primary key once per asked key (an import's batch asks for
// some 25,000), never scans the ladder's counters.
func TestSQLiteCountersProbeByKey(t *testing.T) {
	db := sqlitePlanDB(t)
	plan := testdb.SQLitePlan(t, db.sql, countersSQLite, `["u:1","o:1:2"]`, 1, 1)
	probes := false
	for _, d := range plan {
		if strings.HasPrefix(d, "SCAN c") {
			t.Errorf("Got(plan) = %q, want no scan of the counters", plan)
		}
		if strings.HasPrefix(d, "SEARCH c USING") && strings.Contains(d, "key=?") {
			probes = true
		}
	}
	if !probes {
		t.Errorf("Got(plan) = %q, want a search of the counters by key", plan)
	}
}

// TestSQLiteSeasonReadsUseTheLog: the integrity job's step reads a
// ladder's next rated matches, and the stats page a season's biggest
// upsets, best partnerships and busiest hours. On SQLite each must read
// an index of the ladder in the order it needs and stop at its page, so
// that its cost is the page's or the batch's, not the season's or the
// guild's whole history: the integrity entries from matches_log, which
// holds only rated matches by ladder and position (with the states bound
// as parameters SQLite could not use that partial index and read every
// match of the guild by matches_guild, and sorted them, at each step);
// the upsets from matches_upsets, the partnerships from season_pairs_best
// and the hours from season_hours, without a sort; the climbers of the
// last 30 days from rating_changes_at, the window's rows alone.
func TestSQLiteSeasonReadsUseTheLog(t *testing.T) {
	db := sqlitePlanDB(t)
	for _, c := range []struct {
		name, query, want string
		args              []any
	}{
		{"integrity entries", entriesSQL, "USING INDEX matches_log (queue_id=? AND season_id=? AND seq>?)", []any{1, 1, 10, "g", 500}},
		{"upsets", upsetsSQL, "USING INDEX matches_upsets (queue_id=? AND season_id=?)", []any{1, 1, "g", 10}},
		{"partnerships", partnershipsSQL(community.MinPartnerGames), "USING INDEX season_pairs_best (queue_id=? AND season_id=?)", []any{1, 1, "g", "g", "g", 10}},
		{"improved", improvedSQL, "rc USING INDEX rating_changes_at (queue_id=? AND season_id=? AND at>?)", []any{1, 1, "2026-01-01", "g"}},
		{"hours", hoursSQL, "season_hours USING INDEX sqlite_autoindex_season_hours_1 (queue_id=? AND season_id=?)", []any{1, 1, "g"}},
	} {
		plan := testdb.SQLitePlan(t, db.sql, c.query, c.args...)
		if len(plan) == 0 || !strings.Contains(plan[0], c.want) {
			t.Errorf("Got(plan of the %s) = %q, want it to start with %s", c.name, plan, c.want)
		}
		// The window's rows are sorted into log order: few, and the
		// index that has them is by time.
		if strings.Contains(strings.Join(plan, "\n"), "TEMP B-TREE") && c.name != "improved" {
			t.Errorf("Got(plan of the %s) = %q, want the index's order, without a sort", c.name, plan)
		}
	}
}
