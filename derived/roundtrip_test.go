package derived_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/derived"
	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// TestRatedWriteRoundTrips counts the round trips to PostgreSQL of a
// rated result with the derived rows wired as in production. A result
// told ahead (ladder.RatedAhead) is BEGIN with the read that locks the
// ladder and the players and reads what the integrity fold needs, then
// the write with the fold's writes and COMMIT: as many round trips as
// without derived rows, and the queue's lock held for one after the one
// that takes it. A confirm lists the fold's keys from its match's players
// in the statement that reads them, in the lock's round trip: the same.
func TestRatedWriteRoundTrips(t *testing.T) {
	ctx := context.Background()
	log := new(storage.RoundTripLog)
	db, err := storage.OpenTraced(ctx, testdb.DSN(t, testdb.Postgres), nil, log)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	derived.Wire(db, integrity.New(db, nil))
	svc := ladder.NewService(db, nil)
	const g = "100000000000000001"
	if _, err := svc.EnsureGuild(ctx, g); err != nil {
		t.Fatal(err)
	}
	u := func(i int) string { return fmt.Sprintf("2000000000000%05d", i) }
	in := ladder.ResultInput{GuildID: g, Team1: []string{u(1), u(2)}, Team2: []string{u(3), u(4)}, Winner: 1}
	if _, err := svc.RecordResult(ctx, in); err != nil {
		t.Fatalf("RecordResult() first = %v", err)
	}
	// count checks the round trips of what, and whether they recount the
	// predictors' points and MVP counts: a match created with its result
	// (an API result) can have no predictions or votes, so only a
	// confirmed lobby match is recounted.
	count := func(what string, want int, recount bool) {
		t.Helper()
		stmts := log.Reset()
		for i, s := range stmts {
			t.Logf("%s round trip %d: %.100s", what, i+1, s)
		}
		if len(stmts) != want {
			t.Errorf("%s took %d round trips, want %d", what, len(stmts), want)
		}
		if got := strings.Contains(strings.Join(stmts, "\n"), "INSERT INTO predictor_points"); got != recount {
			t.Errorf("%s recounts predictions and votes: %t, want %t", what, got, recount)
		}
	}
	log.Reset()
	if _, err := svc.RecordResult(ctx, in); err != nil {
		t.Fatalf("RecordResult() = %v", err)
	}
	count("RecordResult()", 2, false)
	// With an idempotency key, the key's read travels with BEGIN.
	keyed := in
	keyed.IdempotencyKey = "k-1"
	if _, err := svc.RecordResult(ctx, keyed); err != nil {
		t.Fatalf("RecordResult() with a key = %v", err)
	}
	count("RecordResult() with a key", 3, false)
	// A batch of results of one queue, as the API sends them: the same.
	batch := []ladder.ResultInput{in, in, keyed, in}
	batch[2].IdempotencyKey = "k-2"
	if _, errs := svc.RecordResults(ctx, batch); errors.Join(errs...) != nil {
		t.Fatalf("RecordResults() = %v", errs)
	}
	count("RecordResults()", 3, false)
	if res, err := svc.RecordResult(ctx, keyed); err != nil || !res.AlreadyDone {
		t.Fatalf("RecordResult() with the key again = %+v, %v; want AlreadyDone", res, err)
	}
	log.Reset()
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
	if res, err := svc.Confirm(ctx, ladder.Actor{UserID: u(2)}, g, m.ID); err != nil || res.Match.State != ladder.StateConfirmed {
		t.Fatalf("Confirm() = %s, %v; want confirmed, nil", res.Match.State, err)
	}
	// The match had no prediction or vote: its lock says so, and the
	// confirm recounts nothing.
	count("Confirm()", 2, false)
	// One with a prediction is recounted, in the same round trips, and
	// the caller's points are counted.
	m, err = svc.CreateMatch(ctx, ladder.NewMatch{GuildID: g, QueueID: qs[0].ID, Teams: [2][]string{{u(1), u(4)}, {u(2), u(3)}}})
	if err != nil {
		t.Fatalf("CreateMatch() = %v", err)
	}
	caller := u(9)
	if err := db.SavePrediction(ctx, g, community.Prediction{MatchID: m.ID, UserID: caller, Team: 1, Chance: 0.5, At: m.CreatedAt}); err != nil {
		t.Fatalf("SavePrediction() = %v", err)
	}
	if _, err := svc.Report(ctx, ladder.Actor{UserID: u(1)}, g, m.ID, ladder.Win); err != nil {
		t.Fatalf("Report() = %v", err)
	}
	log.Reset()
	if res, err := svc.Confirm(ctx, ladder.Actor{UserID: u(2)}, g, m.ID); err != nil || res.Match.State != ladder.StateConfirmed {
		t.Fatalf("Confirm() = %s, %v; want confirmed, nil", res.Match.State, err)
	}
	count("Confirm() of a predicted match", 2, true)
	ps, err := db.Predictors(ctx, g, qs[0].ID, m.SeasonID, 10)
	if err != nil || len(ps) != 1 || ps[0].UserID != caller || ps[0].Correct != 1 || ps[0].Points != community.Points(0.5) {
		t.Errorf("Predictors() = %+v, %v; want %s with 1 correct call of %d points", ps, err, caller, community.Points(0.5))
	}
	// Confirms of one queue pressed together (Service.Confirms): the
	// matches locked with BEGIN and their ladder read beside them, the lock
	// of the queue with the players and the fold's reads, then every write
	// with COMMIT. The predicted one is recounted in the same round trips.
	var confirms []ladder.ConfirmInput
	caller2 := u(30)
	for k := range 3 {
		a, b, c, d := u(10+4*k), u(11+4*k), u(12+4*k), u(13+4*k)
		// The players have rows: a new player's is made first, as for a
		// single confirm (three round trips more).
		if _, err := svc.RecordResult(ctx, ladder.ResultInput{GuildID: g, Team1: []string{a, c}, Team2: []string{b, d}, Winner: 1}); err != nil {
			t.Fatalf("RecordResult() = %v", err)
		}
		m, err := svc.CreateMatch(ctx, ladder.NewMatch{GuildID: g, QueueID: qs[0].ID, Teams: [2][]string{{a, b}, {c, d}}})
		if err != nil {
			t.Fatalf("CreateMatch() = %v", err)
		}
		if k == 1 {
			if err := db.SavePrediction(ctx, g, community.Prediction{MatchID: m.ID, UserID: caller2, Team: 2, Chance: 0.5, At: m.CreatedAt}); err != nil {
				t.Fatalf("SavePrediction() = %v", err)
			}
		}
		if _, err := svc.Report(ctx, ladder.Actor{UserID: a}, g, m.ID, ladder.Loss); err != nil {
			t.Fatalf("Report() = %v", err)
		}
		confirms = append(confirms, ladder.ConfirmInput{Actor: ladder.Actor{UserID: d}, GuildID: g, MatchID: m.ID})
	}
	log.Reset()
	res, errs := svc.Confirms(ctx, confirms)
	if err := errors.Join(errs...); err != nil {
		t.Fatalf("Confirms() = %v", err)
	}
	for i, r := range res {
		if r.Match.State != ladder.StateConfirmed || r.Match.Winner != 2 {
			t.Fatalf("Confirms()[%d] = %s won by %d; want confirmed, won by team 2", i, r.Match.State, r.Match.Winner)
		}
	}
	count("Confirms() of three matches", 3, true)
	ps, err = db.Predictors(ctx, g, qs[0].ID, m.SeasonID, 10)
	if err != nil || !slices.ContainsFunc(ps, func(p community.PredictorRow) bool { return p.UserID == caller2 && p.Correct == 1 }) {
		t.Errorf("Predictors() = %+v, %v; want %s with 1 correct call", ps, err, caller2)
	}
	rep, err := svc.Verify(ctx, g)
	if err != nil || len(rep.Diffs) != 0 {
		t.Errorf("Verify() = %d diffs, %v; want 0, nil", len(rep.Diffs), err)
	}
	ir, err := integrity.New(db, nil).Verify(ctx, g)
	if err != nil || len(ir.Diffs) != 0 || ir.Matches != 15 {
		t.Errorf("integrity Verify() = %d matches, %v, %v; want 15 matches, no differences", ir.Matches, ir.Diffs, err)
	}
}
