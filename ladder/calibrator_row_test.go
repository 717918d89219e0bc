package ladder_test

import (
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// TestCalibratorRow: the calibrator kept as a row, moved by each rated
// write, equals a fold of the log (verify) after results from the API, a
// void and a correction; a row changed behind the ladder's back is found by
// verify; and on a queue without sides the same team-1-favouring history
// teaches no edge, so the shown chance is symmetric.
func TestCalibratorRow(t *testing.T) {
	behaviours(t, []behaviour{{"incremental equals the log", func(t *testing.T, e *env) {
		players := []string{user(1), user(2), user(3), user(4), user(5), user(6)}
		var ids []int64
		for i := range 40 {
			r := i % len(players)
			t1 := []string{players[r], players[(r+1)%6]}
			t2 := []string{players[(r+2)%6], players[(r+3)%6]}
			winner := 1
			if i%5 == 4 {
				winner = 2
			}
			res, err := e.svc.RecordResult(e.ctx, result(t1, t2, winner))
			if err != nil {
				t.Fatalf("RecordResult(%d) = %v", i, err)
			}
			ids = append(ids, res.Match.ID)
			e.clock.Add(time.Hour)
		}
		clean := func(when string) {
			t.Helper()
			rep, err := e.svc.Verify(e.ctx, "")
			if err != nil || len(rep.Diffs) != 0 {
				t.Fatalf("Verify() %s = %+v, %v, want no difference", when, rep.Diffs, err)
			}
		}
		clean("after 40 results")
		cal, err := e.svc.Calibrator(e.ctx, guild, "")
		if err != nil {
			t.Fatal(err)
		}
		if cal.N != 40 || cal.W[1] != 0 {
			t.Errorf("Got(calibrator) = %d results, intercept %v; want 40 and 0 on a queue without sides", cal.N, cal.W[1])
		}
		for _, p := range []float64{0.2, 0.5, 0.7} {
			if got := cal.Predict(p, 0) + cal.Predict(1-p, 0); got < 1-1e-12 || got > 1+1e-12 {
				t.Errorf("Got(P(A beats B) + P(B beats A)) = %v at raw %v, want 1", got, p)
			}
		}
		mod := ladder.Actor{UserID: user(90), Moderator: true}
		if _, err := e.svc.Void(e.ctx, mod, guild, ids[10], "test"); err != nil {
			t.Fatalf("Void() = %v", err)
		}
		clean("after a void")
		if _, err := e.svc.Correct(e.ctx, mod, guild, ids[20], 2, "test"); err != nil {
			t.Fatalf("Correct() = %v", err)
		}
		clean("after a correction")
		if cal, _ = e.svc.Calibrator(e.ctx, guild, ""); cal.N != 39 {
			t.Errorf("Got(calibrator results after a void) = %d, want 39", cal.N)
		}
		// Sides on: refolded in the new mode, still equal to the log.
		if err := e.svc.SetQueueSides(e.ctx, mod, guild, "", true); err != nil {
			t.Fatalf("SetQueueSides() = %v", err)
		}
		clean("after sides on")
		if cal, _ = e.svc.Calibrator(e.ctx, guild, ""); cal.W[1] <= 0 {
			t.Errorf("Got(intercept with sides) = %v, want the team-1 edge learnt (> 0)", cal.W[1])
		}
		if _, err := e.svc.RecordResult(e.ctx, result(players[:2], players[2:4], 1)); err != nil {
			t.Fatal(err)
		}
		clean("after a result with sides")
		// A row changed by hand is a difference.
		qs, _ := e.svc.Queues(e.ctx, guild)
		row, err := e.db.CalibratorOf(e.ctx, qs[0].ID)
		if err != nil || !row.Built {
			t.Fatalf("CalibratorOf() = %+v, %v, want a built row", row, err)
		}
		row.Cal.W[0] += 1e-9
		if err := e.db.SaveCalibrator(e.ctx, row); err != nil {
			t.Fatal(err)
		}
		rep, err := e.svc.Verify(e.ctx, "")
		if err != nil || len(rep.Diffs) != 1 || !strings.Contains(rep.Diffs[0].Problem, "calibration: the stored calibrator") {
			t.Errorf("Verify() after a hand edit = %+v, %v, want one calibration difference", rep.Diffs, err)
		}
	}}})
}
