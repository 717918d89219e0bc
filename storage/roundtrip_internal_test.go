package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// statementLog records the round trips to PostgreSQL (RoundTripLog).
type statementLog = RoundTripLog

// roundTripGuild is the guild of tracedLadder's ladder.
const roundTripGuild = "100000000000000001"

func roundTripUser(i int) string { return fmt.Sprintf("2000000000000%05d", i) }

// tracedLadder opens a PostgreSQL ladder whose round trips log records,
// with one 2v2 result in (returned as in) so that its four players have
// rating rows; the log starts empty.
func tracedLadder(t *testing.T) (*ladder.Service, *statementLog, ladder.ResultInput) {
	t.Helper()
	ctx := context.Background()
	log := new(statementLog)
	db, err := open(ctx, testdb.DSN(t, testdb.Postgres), nil, log)
	if err != nil {
		t.Fatalf("open() = %v", err)
	}
	t.Cleanup(func() { db.Close() })
	svc := ladder.NewService(db, nil)
	if _, err := svc.EnsureGuild(ctx, roundTripGuild); err != nil {
		t.Fatalf("EnsureGuild() = %v", err)
	}
	u := roundTripUser
	in := ladder.ResultInput{GuildID: roundTripGuild, Team1: []string{u(1), u(2)}, Team2: []string{u(3), u(4)}, Winner: 1}
	if _, err := svc.RecordResult(ctx, in); err != nil {
		t.Fatalf("RecordResult() first = %v", err)
	}
	log.Reset()
	return svc, log, in
}

// TestRecordResultRoundTrips counts the round trips of a confirmed 2v2
// result to PostgreSQL once its players have ratings: the throughput of
// BenchmarkRecordResult is bound by them.
func TestRecordResultRoundTrips(t *testing.T) {
	ctx := context.Background()
	svc, log, in := tracedLadder(t)
	if _, err := svc.RecordResult(ctx, in); err != nil {
		t.Fatalf("RecordResult() = %v", err)
	}
	stmts := log.Reset()
	for i, s := range stmts {
		t.Logf("round trip %d: %.60s … %.40s", i+1, s, s[max(0, len(s)-40):])
	}
	// BEGIN with the read that locks the players' rows, then the write
	// with COMMIT.
	const want = 2
	if len(stmts) > want {
		t.Errorf("RecordResult() took %d round trips, want at most %d", len(stmts), want)
	}
}

// TestConfirmRoundTrips counts the round trips to PostgreSQL of a Discord
// confirm of a reported 2v2 whose players have ratings: BenchmarkConfirm's
// throughput is bound by them.
func TestConfirmRoundTrips(t *testing.T) {
	ctx := context.Background()
	svc, log, _ := tracedLadder(t)
	const g = roundTripGuild
	u := roundTripUser
	qs, err := svc.Queues(ctx, g)
	if err != nil {
		t.Fatalf("Queues() = %v", err)
	}
	m, err := svc.CreateMatch(ctx, ladder.NewMatch{GuildID: g, QueueID: qs[0].ID, Teams: [2][]string{{u(1), u(3)}, {u(2), u(4)}}})
	if err != nil {
		t.Fatalf("CreateMatch() = %v", err)
	}
	if _, err := svc.Report(ctx, ladder.Actor{UserID: u(1)}, g, m.ID, ladder.Win); err != nil {
		t.Fatalf("Report() = %v", err)
	}
	log.Reset()
	res, err := svc.Confirm(ctx, ladder.Actor{UserID: u(2)}, g, m.ID)
	if err != nil || res.AlreadyDone || res.Match.State != ladder.StateConfirmed || len(res.Changes) != 4 {
		t.Fatalf("Confirm() = %s, AlreadyDone %v, %d changes, %v; want confirmed, false, 4, nil", res.Match.State, res.AlreadyDone, len(res.Changes), err)
	}
	stmts := log.Reset()
	for i, s := range stmts {
		t.Logf("round trip %d: %.60s … %.40s", i+1, s, s[max(0, len(s)-40):])
	}
	// BEGIN with the read that locks the match, its ladder and the
	// players' rows, then the write with COMMIT.
	const want = 2
	if len(stmts) != want {
		t.Errorf("Confirm() took %d round trips, want %d", len(stmts), want)
	}
	if rep, err := svc.Verify(ctx, g); err != nil || rep.Matches != 2 || len(rep.Diffs) != 0 {
		t.Errorf("Verify() = %d matches, %d diffs, %v, want 2, 0, nil", rep.Matches, len(rep.Diffs), err)
	}
}

// TestRecordResultAfterLostConnection records a result on a pooled
// PostgreSQL connection whose server process was terminated: the round
// trip carrying BEGIN fails, and InTx runs the transaction again on a new
// connection instead of reporting the database unavailable.
func TestRecordResultAfterLostConnection(t *testing.T) {
	ctx := context.Background()
	dsn := testdb.DSN(t, testdb.Postgres)
	db, err := open(ctx, dsn, nil, nil)
	if err != nil {
		t.Fatalf("open() = %v", err)
	}
	defer db.Close()
	db.sql.SetMaxOpenConns(1)
	svc := ladder.NewService(db, nil)
	const g = "100000000000000001"
	u := func(i int) string { return fmt.Sprintf("2000000000000%05d", i) }
	in := ladder.ResultInput{GuildID: g, Team1: []string{u(1), u(2)}, Team2: []string{u(3), u(4)}, Winner: 1}
	if _, err := svc.RecordResult(ctx, in); err != nil {
		t.Fatalf("RecordResult() first = %v", err)
	}
	var pid int64
	if err := db.Gorm().Raw("SELECT pg_backend_pid()").Scan(&pid).Error; err != nil || pid == 0 {
		t.Fatalf("pg_backend_pid() = %d, %v", pid, err)
	}
	if err := testdb.Exec(testdb.PostgresURL(t), fmt.Sprintf("SELECT pg_terminate_backend(%d)", pid)); err != nil {
		t.Fatalf("pg_terminate_backend(%d) = %v", pid, err)
	}
	res, err := svc.RecordResult(ctx, in)
	if err != nil {
		t.Fatalf("RecordResult() after the connection was lost = %v, want nil", err)
	}
	if res.Match.ID == 0 || res.AlreadyDone {
		t.Errorf("RecordResult() after the connection was lost = match %d, AlreadyDone %v, want a new match", res.Match.ID, res.AlreadyDone)
	}
	rep, err := svc.Verify(ctx, g)
	if err != nil || rep.Matches != 2 || len(rep.Diffs) != 0 {
		t.Errorf("Verify() = %d matches, %d diffs, %v, want 2, 0, nil", rep.Matches, len(rep.Diffs), err)
	}
}

// TestMatchLadderPlan checks the plan PostgreSQL picks for matchLadderPG,
// the read every confirm starts with, in a ladder of 5,000 rating rows: it
// must look the players' rows up by key. Two round trips were no guard
// against a plan that scanned every rating row of the ladder against a
// subquery (283 ms a confirm at 40,000 rows, BenchmarkConfirm at 14/s).
func TestMatchLadderPlan(t *testing.T) {
	ctx := context.Background()
	db, err := open(ctx, testdb.DSN(t, testdb.Postgres), nil, nil)
	if err != nil {
		t.Fatalf("open() = %v", err)
	}
	defer db.Close()
	svc := ladder.NewService(db, nil)
	u := roundTripUser
	if _, err := svc.EnsureGuild(ctx, roundTripGuild); err != nil {
		t.Fatalf("EnsureGuild() = %v", err)
	}
	in := ladder.ResultInput{GuildID: roundTripGuild, Team1: []string{u(1), u(2)}, Team2: []string{u(3), u(4)}, Winner: 1}
	if _, err := svc.RecordResult(ctx, in); err != nil {
		t.Fatalf("RecordResult() = %v", err)
	}
	// Copies of u(1)'s row for 5,000 more players, then fresh statistics.
	g := db.Gorm()
	if err := g.Exec(`INSERT INTO players (guild_id, user_id)
SELECT ?, '3' || lpad(n::text, 17, '0') FROM generate_series(1, 5000) n`, roundTripGuild).Error; err != nil {
		t.Fatalf("insert players: %v", err)
	}
	if err := g.Exec(`INSERT INTO ratings (queue_id, season_id, user_id, guild_id, rating, dev, games, last_at, recent,
 base_rating, base_dev, base_games, base_last_at, base_recent, wins, losses, draws, streak, stale, display, display_dev, provisional)
SELECT queue_id, season_id, '3' || lpad(n::text, 17, '0'), guild_id, rating, dev, games, last_at, recent,
 base_rating, base_dev, base_games, base_last_at, base_recent, wins, losses, draws, streak, stale, display, display_dev, provisional
FROM ratings, generate_series(1, 5000) n WHERE user_id = ?`, u(1)).Error; err != nil {
		t.Fatalf("insert ratings: %v", err)
	}
	if err := g.Exec("ANALYZE").Error; err != nil {
		t.Fatalf("ANALYZE: %v", err)
	}
	qs, err := svc.Queues(ctx, roundTripGuild)
	if err != nil {
		t.Fatalf("Queues() = %v", err)
	}
	m, err := svc.CreateMatch(ctx, ladder.NewMatch{GuildID: roundTripGuild, QueueID: qs[0].ID, Teams: [2][]string{{u(1), u(3)}, {u(2), u(4)}}})
	if err != nil {
		t.Fatalf("CreateMatch() = %v", err)
	}
	var plan string
	if err := g.Raw("EXPLAIN (FORMAT JSON) "+strings.Replace(matchLadderPG, "$1", "?", 1), m.ID).Row().Scan(&plan); err != nil {
		t.Fatalf("EXPLAIN matchLadderPG: %v", err)
	}
	if scans := seqScans(t, plan); slices.Contains(scans, "ratings") {
		t.Errorf("matchLadderPG scans %v sequentially, want index lookups of the players' rows; plan:\n%s", scans, plan)
	}
}

// seqScans returns the relations a JSON plan reads by sequential scan.
func seqScans(t *testing.T, plan string) []string {
	t.Helper()
	var nodes []struct{ Plan planNode }
	if err := json.Unmarshal([]byte(plan), &nodes); err != nil || len(nodes) != 1 {
		t.Fatalf("EXPLAIN (FORMAT JSON) = %.200s: %v", plan, err)
	}
	var out []string
	var walk func(n planNode)
	walk = func(n planNode) {
		if n.NodeType == "Seq Scan" {
			out = append(out, n.Relation)
		}
		for _, c := range n.Plans {
			walk(c)
		}
	}
	walk(nodes[0].Plan)
	return out
}

// planNode is one node of PostgreSQL's JSON plan.
type planNode struct {
	NodeType string     `json:"Node Type"`
	Relation string     `json:"Relation Name"`
	Plans    []planNode `json:"Plans"`
}
