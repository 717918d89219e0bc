package storage_test

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

// foldModels replays log from new players, rating the matches from index
// switchAt on with after (never when switchAt < 0) and the others with
// before: what the stored ratings must equal when the queue adopted new
// constants at that point.
func foldModels(t *testing.T, before, after rating.Model, switchAt int, log []played) map[string]rating.State {
	t.Helper()
	states := map[string]rating.State{}
	for i, r := range log {
		m := before
		if switchAt >= 0 && i >= switchAt {
			m = after
		}
		var teams [2][]rating.State
		for k := range 2 {
			for _, u := range r.teams[k] {
				st, ok := states[u]
				if !ok {
					st = m.New()
				}
				teams[k] = append(teams[k], st)
			}
		}
		m.Update(teams[0], teams[1], ladder.Score(r.winner), r.at)
		for k := range 2 {
			for j, u := range r.teams[k] {
				states[u] = teams[k][j]
			}
		}
	}
	return states
}

// storedStates returns the stored state of every player of the guild's
// default queue in its running season.
func storedStates(t *testing.T, e *env) map[string]rating.State {
	t.Helper()
	l, err := e.db.Ladder(e.ctx, guild, "")
	if err != nil {
		t.Fatalf("Ladder() = %v", err)
	}
	rs, err := e.db.Ratings(e.ctx, ladder.Key{QueueID: l.Queue.ID, SeasonID: l.Season.ID}, nil)
	if err != nil {
		t.Fatalf("Ratings() = %v", err)
	}
	out := map[string]rating.State{}
	for _, r := range rs {
		out[r.UserID] = r.State
	}
	return out
}

func sameStates(a, b map[string]rating.State) bool {
	if len(a) != len(b) {
		return false
	}
	for u, s := range a {
		o, ok := b[u]
		if !ok || s.Rating != o.Rating || s.Dev != o.Dev || s.Games != o.Games {
			return false
		}
	}
	return true
}

// TestConstantsMidLog checks that a queue whose constants changed mid-log
// replays exactly: the stored ratings equal a fold with each
// match rated by the constants in force at its seq, a correction before
// the change replays through it, and verify stays clean.
func TestConstantsMidLog(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b)
		qs, err := e.svc.Queues(e.ctx, guild)
		if err != nil {
			t.Fatalf("Queues() = %v", err)
		}
		q := qs[0]
		p := []string{user(1), user(2), user(3), user(4), user(5), user(6)}
		pairs := [][2][]string{
			{p[:2], p[2:4]}, {p[4:6], p[:2]}, {p[2:4], p[4:6]},
			{{p[0], p[2]}, {p[1], p[3]}}, {{p[0], p[4]}, {p[1], p[5]}}, {{p[2], p[5]}, {p[3], p[4]}},
		}
		var log []played
		var first int64
		record := func(n int) {
			t.Helper()
			for i := 0; i < n; i++ {
				pr := pairs[len(log)%len(pairs)]
				w := 1 + len(log)%3%2
				res, err := e.svc.RecordResult(e.ctx, result(pr[0], pr[1], w))
				if err != nil {
					t.Fatalf("RecordResult() = %v", err)
				}
				if first == 0 {
					first = res.Match.ID
				}
				log = append(log, played{teams: pr, winner: w, at: res.Match.PlayedAt})
				e.clock.Add(36 * time.Hour)
			}
		}
		record(6)
		before, err := rating.ResolveParams(q.Model, q.Params)
		if err != nil {
			t.Fatal(err)
		}
		after := map[string]float64{}
		for k, v := range before {
			after[k] = v
		}
		after["boost"], after["c"], after["rd0"], after["scale"] = 0, 20, 200, 2
		// An adoption as the service records it: a row of the log, then the
		// queue's constants.
		err = e.db.InTx(e.ctx, func(tx ladder.Tx) error {
			seq, err := tx.NextSeq(e.ctx)
			if err != nil {
				return err
			}
			if err := tx.AddConstants(e.ctx, ladder.Constants{Seq: seq, QueueID: q.ID, Model: q.Model, Before: before, Params: after,
				Source: "moderator", ActorID: mod.UserID, At: e.clock.Now()}); err != nil {
				return err
			}
			q.Params = after
			return tx.UpdateQueue(e.ctx, q)
		})
		if err != nil {
			t.Fatalf("adopt: %v", err)
		}
		record(6)
		m1, err := rating.NewModel(q.Model, before)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := rating.NewModel(q.Model, after)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := storedStates(t, e), foldModels(t, m1, m2, 6, log); !sameStates(got, want) {
			t.Errorf("Got(stored) = %v, want the fold with the switch %v", got, want)
		}
		if sameStates(storedStates(t, e), foldModels(t, m1, m2, -1, log)) {
			t.Fatalf("the new constants change nothing: the test cannot tell a replay that ignores them")
		}
		mustVerify(t, e)

		// Correct a result before the change: the replay crosses it.
		if _, err := e.svc.Correct(e.ctx, mod, guild, first, 2, "reported the wrong way"); err != nil {
			t.Fatalf("Correct() = %v", err)
		}
		log[0].winner = 2
		if got, want := storedStates(t, e), foldModels(t, m1, m2, 6, log); !sameStates(got, want) {
			t.Errorf("after correction Got(stored) = %v, want %v", got, want)
		}
		mustVerify(t, e)
	})
}

// TestSelfTuneAtSeasonClose checks the season boundary of self-tuning: a queue
// with self_tune on whose constants are far from how its community plays
// adopts fitted ones when the season-close job runs, records them in the
// log, and verify stays clean after later results and a correction; a
// queue with self_tune off keeps its constants.
func TestSelfTuneAtSeasonClose(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		for _, on := range []bool{true, false} {
			e := newEnv(t, b)
			qs, err := e.svc.Queues(e.ctx, guild)
			if err != nil {
				t.Fatalf("Queues() = %v", err)
			}
			q := qs[0]
			// Ratings that barely move (c and rd0 at their floors): the true
			// skills below are far apart, so better constants are easy to find.
			q.Params = map[string]float64{"boost": 0, "c": 0.1, "rd0": 40}
			q.SelfTune = on
			if q, err = e.svc.UpdateQueue(e.ctx, mod, q); err != nil {
				t.Fatalf("UpdateQueue() = %v", err)
			}
			rng := rand.New(rand.NewPCG(18, 2))
			skill := make([]float64, 12)
			for i := range skill {
				skill[i] = float64(i) * 150
			}
			var first int64
			for i := 0; i < 400; i++ {
				perm := rng.Perm(len(skill))
				t1 := []string{user(perm[0] + 1), user(perm[1] + 1)}
				t2 := []string{user(perm[2] + 1), user(perm[3] + 1)}
				d := skill[perm[0]] + skill[perm[1]] - skill[perm[2]] - skill[perm[3]]
				w := 2
				if rng.Float64() < 1/(1+math.Pow(10, -d/800)) {
					w = 1
				}
				res, err := e.svc.RecordResult(e.ctx, result(t1, t2, w))
				if err != nil {
					t.Fatalf("RecordResult() = %v", err)
				}
				if first == 0 {
					first = res.Match.ID
				}
				e.clock.Add(time.Hour)
			}
			if _, err := e.svc.CloseSeasonDue(e.ctx, guild, e.clock.Now()); err != nil {
				t.Fatalf("CloseSeasonDue() = %v", err)
			}
			cs, err := e.db.ConstantsLog(e.ctx, q.ID)
			if err != nil {
				t.Fatalf("ConstantsLog() = %v", err)
			}
			got, err := e.db.Queue(e.ctx, q.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !on {
				if len(cs) != 0 || !sameParamMaps(got.Params, q.Params) {
					t.Errorf("self_tune off: Got(constants log) = %d rows, params %v, want none and %v", len(cs), got.Params, q.Params)
				}
				continue
			}
			if len(cs) != 1 || cs[0].Source != "season" {
				t.Fatalf("Got(constants log) = %+v, want one adoption by the season close", cs)
			}
			if !(cs[0].Gain > 2*cs[0].SE) || !sameParamMaps(got.Params, cs[0].Params) || cs[0].Params["rd0"] <= 40 {
				t.Errorf("Got(adoption) = gain %v ± %v, params %v (queue %v), want a gain above 2 SE to larger rd0", cs[0].Gain, cs[0].SE, cs[0].Params, got.Params)
			}
			if _, err := e.svc.RecordResult(e.ctx, result([]string{user(1), user(2)}, []string{user(3), user(4)}, 2)); err != nil {
				t.Fatalf("RecordResult() = %v", err)
			}
			if _, err := e.svc.Correct(e.ctx, mod, guild, first, 0, "it was a draw"); err != nil {
				t.Fatalf("Correct() = %v", err)
			}
			mustVerify(t, e)
		}
	})
}

func sameParamMaps(a, b map[string]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
