package storage_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

// sportHistory is a 2v2 history shaped like a real sport's log: draws, a
// tournament day where every match has the same timestamp, years-long gaps
// (RD regrowth), one dominant player and players who play once.
func sportHistory(n int) []rating.MatchRecord {
	rng := rand.New(rand.NewPCG(77, 3))
	const pool = 40
	skill := make([]float64, pool)
	for i := range skill {
		skill[i] = rng.NormFloat64() * 200
	}
	skill[0] = 1200
	at := time.Date(1975, 3, 1, 18, 0, 0, 0, time.UTC)
	recs := make([]rating.MatchRecord, n)
	for i := range recs {
		switch {
		case i%200 == 199:
			at = at.AddDate(4, 0, 0) // a long gap
		case i%50 < 20:
			// a tournament day: same timestamp
		default:
			at = at.Add(26 * time.Hour)
		}
		perm := rng.Perm(pool)[:4]
		ids := make([]string, 4)
		for j, p := range perm {
			ids[j] = fmt.Sprintf("7%017d", p+1)
		}
		if i%37 == 0 {
			ids[3] = fmt.Sprintf("8%017d", i) // plays once
		}
		d := (skill[perm[0]] + skill[perm[1]] - skill[perm[2]] - skill[perm[3]]) / 2
		pa := 1 / (1 + math.Pow(10, -d/400))
		w := 2
		switch u := rng.Float64(); {
		case u < 0.15*(1-math.Abs(2*pa-1)):
			w = 0
		case u < pa:
			w = 1
		}
		recs[i] = rating.MatchRecord{Seq: i, Date: at, Team1: ids[:2], Team2: ids[2:], Winner: w}
	}
	return recs
}

// TestImportedHistorySelfTunes imports a real-sport-shaped history into a
// self-tuning queue whose constants are far off, then closes the season:
// the imported ratings and the calibrator row equal a fold of the rating
// package over the file, the adopted constants are finite and within the
// search box with a finite gain and a non-negative SE, and verify is clean
// after the adoption, later results and a correction.
func TestImportedHistorySelfTunes(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b)
		qs, err := e.svc.Queues(e.ctx, guild)
		if err != nil {
			t.Fatal(err)
		}
		q := qs[0]
		q.Params = map[string]float64{"boost": 0, "c": 0.1, "rd0": 40}
		q.SelfTune = true
		if q, err = e.svc.UpdateQueue(e.ctx, mod, q); err != nil {
			t.Fatalf("UpdateQueue() = %v", err)
		}
		recs := sportHistory(1200)
		if _, err := e.svc.ImportMatches(e.ctx, guild, "", recs, nil); err != nil {
			t.Fatalf("ImportMatches() = %v", err)
		}
		checkFold(t, e, q, recs)
		mustVerify(t, e)

		// A correction in the middle of the history: the replayed rows
		// equal the fold of the corrected file.
		var id int64
		if err := e.db.Gorm().Raw("SELECT id FROM matches WHERE guild_id = ? ORDER BY seq LIMIT 1 OFFSET 600", guild).Scan(&id).Error; err != nil {
			t.Fatal(err)
		}
		recs[600].Winner = (recs[600].Winner + 1) % 3
		if _, err := e.svc.Correct(e.ctx, mod, guild, id, recs[600].Winner, "the score sheet was misread"); err != nil {
			t.Fatalf("Correct() = %v", err)
		}
		checkFold(t, e, q, recs)
		mustVerify(t, e)

		e.clock.Add(time.Hour)
		if _, err := e.svc.CloseSeasonDue(e.ctx, guild, e.clock.Now()); err != nil {
			t.Fatalf("CloseSeasonDue() = %v", err)
		}
		cs, err := e.db.ConstantsLog(e.ctx, q.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) != 1 {
			t.Fatalf("Got(constants log) = %+v, want one adoption", cs)
		}
		axes, _ := rating.TuneSpace(q.Model)
		for _, a := range axes {
			if v := cs[0].Params[a.Key]; !(v >= a.Min && v <= a.Max) {
				t.Errorf("Got(adopted %s) = %v, want within [%v, %v]", a.Key, v, a.Min, a.Max)
			}
		}
		if _, err := rating.NewModel(q.Model, cs[0].Params); err != nil || math.IsNaN(cs[0].Gain) || !(cs[0].SE >= 0) || !(cs[0].Gain > 2*cs[0].SE) {
			t.Errorf("Got(adoption) = %+v (%v), want valid constants and a gain above 2 SE", cs[0], err)
		}
		for i := 0; i < 10; i++ {
			r := recs[i]
			if _, err := e.svc.RecordResult(e.ctx, result(r.Team1, r.Team2, r.Winner)); err != nil {
				t.Fatalf("RecordResult() = %v", err)
			}
			e.clock.Add(time.Minute)
		}
		mustVerify(t, e)
		ms, err := e.svc.ExportMatches(e.ctx, guild, "", 1)
		if err != nil || len(ms) != len(recs) {
			t.Fatalf("ExportMatches() = %d, %v", len(ms), err)
		}
	})
}

// checkFold wants the stored ratings of the running season and queue q's
// calibrator row equal to a fold of the rating package over recs from new
// players with q's constants.
func checkFold(t *testing.T, e *env, q ladder.Queue, recs []rating.MatchRecord) {
	t.Helper()
	d, err := rating.NewDataset(recs)
	if err != nil {
		t.Fatal(err)
	}
	m, err := rating.NewModel(q.Model, q.Params)
	if err != nil {
		t.Fatal(err)
	}
	preds := make([]float64, d.Len())
	final := d.Predict(m, d.Len(), preds)
	cal := rating.NewCalibrator(rating.DefaultCalPrior, rating.DefaultCalMemory)
	for i, r := range recs {
		cal.Observe(preds[i], 0, r.Score())
	}
	row, err := e.db.CalibratorOf(e.ctx, q.ID)
	if err != nil {
		t.Fatal(err)
	}
	if row.Cal.W != cal.W || row.Cal.H != cal.H || row.Cal.N != cal.N {
		t.Errorf("Got(calibrator row) = %+v, want the fold of the file %+v", row.Cal, *cal)
	}
	stored := storedStates(t, e)
	for i, u := range d.Players {
		if s := stored[u]; s.Rating != final[i].Rating || s.Dev != final[i].Dev || s.Games != final[i].Games {
			t.Fatalf("Got(%s) = %+v, want %+v", u, s, final[i])
		}
	}
}
