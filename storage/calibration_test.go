package storage_test

import (
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

// played is one result of the calibration test, as the pure fold sees it.
type played struct {
	teams  [2][]string
	winner int
	at     time.Time
}

// pureCalibration folds the rating model and a calibrator over log from new
// players, without the service: what the queue's shown chances must equal.
func pureCalibration(t *testing.T, q ladder.Queue, log []played) (rating.Model, map[string]rating.State, *rating.Calibrator) {
	t.Helper()
	model, err := rating.NewModel(q.Model, q.Params)
	if err != nil {
		t.Fatalf("NewModel(%s) = %v", q.Model, err)
	}
	states := map[string]rating.State{}
	get := func(us []string) []rating.State {
		out := make([]rating.State, len(us))
		for i, u := range us {
			st, ok := states[u]
			if !ok {
				st = model.New()
			}
			out[i] = st
		}
		return out
	}
	cal := rating.NewCalibrator(rating.DefaultCalPrior, rating.DefaultCalMemory)
	for _, r := range log {
		a, b := get(r.teams[0]), get(r.teams[1])
		score := ladder.Score(r.winner)
		cal.Observe(model.Predict(a, b, r.at), 0, score)
		model.Update(a, b, score, r.at)
		for t, sts := range [2][]rating.State{a, b} {
			for i, u := range r.teams[t] {
				states[u] = sts[i]
			}
		}
	}
	return model, states, cal
}

// TestCalibratedChances checks issue 18's calibration end to end: after N
// results the chance a new match shows is the pure calibrator's prediction
// folded over the same log, and a correction replays the calibration
// exactly as it replays ratings, with verify clean.
func TestCalibratedChances(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b)
		g, err := e.svc.Guild(e.ctx, guild)
		if err != nil {
			t.Fatal(err)
		}
		g.PlacementGames = 0
		if _, err := e.svc.UpdateGuild(e.ctx, mod, g); err != nil {
			t.Fatal(err)
		}
		qs, err := e.svc.Queues(e.ctx, guild)
		if err != nil {
			t.Fatalf("Queues() = %v", err)
		}
		q := qs[0]
		p := []string{user(1), user(2), user(3), user(4), user(5), user(6)}
		// The strong pair p0, p1 wins most of its matches: the calibration
		// has something to learn.
		plan := []struct {
			t1, t2 []string
			winner int
		}{
			{p[:2], p[2:4], 1}, {p[:2], p[4:6], 1}, {p[2:4], p[4:6], 2}, {p[:2], p[2:4], 1},
			{[]string{p[0], p[2]}, []string{p[1], p[3]}, 1}, {p[4:6], p[:2], 2}, {p[2:4], p[:2], 2},
			{[]string{p[1], p[4]}, []string{p[0], p[5]}, 2}, {p[:2], p[4:6], 1}, {p[2:4], p[4:6], 1},
			{p[:2], p[2:4], 2}, {[]string{p[0], p[3]}, []string{p[2], p[5]}, 1},
		}
		var log []played
		var first int64
		for i, r := range plan {
			res, err := e.svc.RecordResult(e.ctx, result(r.t1, r.t2, r.winner))
			if err != nil {
				t.Fatalf("RecordResult(%d) = %v", i, err)
			}
			if i == 0 {
				first = res.Match.ID
			}
			log = append(log, played{teams: [2][]string{r.t1, r.t2}, winner: r.winner, at: res.Match.PlayedAt})
			e.clock.Add(time.Hour)
		}
		model, states, want := pureCalibration(t, q, log)
		if want.N != len(plan) {
			t.Fatalf("pure calibrator N = %d, want %d", want.N, len(plan))
		}
		m := open2v2(t, e, p[0], p[1], p[2], p[3])
		raw := model.Predict([]rating.State{states[p[0]], states[p[1]]}, []rating.State{states[p[2]], states[p[3]]}, m.CreatedAt)
		if wantP := want.Predict(raw, 0); m.PTeam1 != wantP {
			t.Errorf("Got(PTeam1) = %v, want the calibrated %v (raw %v)", m.PTeam1, wantP, raw)
		}
		if m.PTeam1 == raw {
			t.Errorf("Got(PTeam1) = %v, the raw model's chance: no calibration applied", m.PTeam1)
		}
		got, err := e.svc.Calibrator(e.ctx, guild, "")
		if err != nil {
			t.Fatalf("Calibrator() = %v", err)
		}
		if *got != *want {
			t.Errorf("Got(Calibrator) = %+v, want %+v", *got, *want)
		}
		mustVerify(t, e)

		// A correction of the first result replays the calibration from the start.
		if _, err := e.svc.Correct(e.ctx, mod, guild, first, 2, "reported the wrong way"); err != nil {
			t.Fatalf("Correct() = %v", err)
		}
		log[0].winner = 2
		_, _, want = pureCalibration(t, q, log)
		if got, err = e.svc.Calibrator(e.ctx, guild, ""); err != nil {
			t.Fatalf("Calibrator() = %v", err)
		}
		if *got != *want {
			t.Errorf("after correction Got(Calibrator) = %+v, want %+v", *got, *want)
		}
		mustVerify(t, e)

		// A log whose Before states no longer match the replay feeds the
		// calibrator other predictions: verify says so, though every
		// player's final rating still equals the replay — both that the
		// log's predictions differ from the replay's and that the stored
		// calibrator (moved by the true results) differs from a fold of
		// the edited log.
		if err := e.db.Gorm().Exec("UPDATE rating_changes SET before_rating = before_rating + 50 WHERE match_id = ? AND user_id = ?", first, p[0]).Error; err != nil {
			t.Fatal(err)
		}
		rep, err := e.svc.Verify(e.ctx, guild)
		if err != nil {
			t.Fatalf("Verify() = %v", err)
		}
		if len(rep.Diffs) != 2 || !strings.Contains(rep.Diffs[0].Problem, "calibration: match at seq") ||
			!strings.Contains(rep.Diffs[1].Problem, "calibration: the stored calibrator") {
			t.Errorf("Got(Verify of an edited log) = %+v, want the two calibration differences", rep.Diffs)
		}
	})
}
