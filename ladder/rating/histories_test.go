package rating

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"testing"
	"time"
)

// Histories shaped like other sports' real match logs, each with its own
// pitfall: draws, uneven teams, identical timestamps, decades with long
// gaps, a dominant player, players who play once. They are generated from
// hidden skills so that a model has something to learn.

type historyShape struct {
	name string
	recs []MatchRecord
}

// genHistory plays n matches of sizeA v sizeB players drawn from a pool of
// players with hidden skills; draw is the chance of a draw between even
// sides (shrinking with the gap), date returns match i's time.
func genHistory(seed int64, n, pool, sizeA, sizeB int, draw float64, date func(i int) time.Time, skill func(p int) float64) []MatchRecord {
	rng := rand.New(rand.NewSource(seed))
	recs := make([]MatchRecord, n)
	for i := range recs {
		perm := rng.Perm(pool)[:sizeA+sizeB]
		var sa, sb float64
		r := MatchRecord{Seq: i, Date: date(i)}
		for j, p := range perm {
			id := fmt.Sprintf("p%04d", p)
			if j < sizeA {
				r.Team1 = append(r.Team1, id)
				sa += skill(p) / float64(sizeA)
			} else {
				r.Team2 = append(r.Team2, id)
				sb += skill(p) / float64(sizeB)
			}
		}
		pa := 1 / (1 + math.Pow(10, -(sa-sb)/400))
		dr := draw * (1 - math.Abs(2*pa-1))
		u := rng.Float64()
		switch {
		case u < dr:
			r.Winner = 0
		case u < dr+(1-dr)*pa:
			r.Winner = 1
		default:
			r.Winner = 2
		}
		recs[i] = r
	}
	return recs
}

func spreadSkill(seed int64, pool int, sd float64) func(int) float64 {
	rng := rand.New(rand.NewSource(seed))
	s := make([]float64, pool)
	for i := range s {
		s[i] = rng.NormFloat64() * sd
	}
	return func(p int) float64 { return s[p] }
}

func histories() []historyShape {
	base := time.Date(1990, 1, 1, 0, 0, 0, 0, time.UTC)
	hourly := func(i int) time.Time { return base.Add(time.Duration(i) * time.Hour) }
	var out []historyShape
	// Chess: 1v1, a third of even games drawn.
	out = append(out, historyShape{"chess", genHistory(1, 6000, 300, 1, 1, 0.45, hourly, spreadSkill(1, 300, 200))})
	// Football clubs: 1v1 of teams, a quarter drawn, one match day a week
	// with every match of the day at the same kick-off.
	out = append(out, historyShape{"football", genHistory(2, 4000, 40, 1, 1, 0.3,
		func(i int) time.Time { return base.AddDate(0, 0, 7*(i/10)) }, spreadSkill(2, 40, 150))})
	// 3v3 esports, no draws.
	out = append(out, historyShape{"esports3v3", genHistory(3, 5000, 150, 3, 3, 0, hourly, spreadSkill(3, 150, 250))})
	// Uneven sides, 2v3.
	out = append(out, historyShape{"uneven2v3", genHistory(4, 3000, 60, 2, 3, 0, hourly, spreadSkill(4, 60, 200))})
	// A whole tournament at the identical timestamp.
	out = append(out, historyShape{"sametime", genHistory(5, 3000, 80, 2, 2, 0.1,
		func(int) time.Time { return base }, spreadSkill(5, 80, 200))})
	// Decades with long gaps: bursts of play separated by years.
	out = append(out, historyShape{"decades", genHistory(6, 3000, 100, 2, 2, 0.05,
		func(i int) time.Time {
			return base.AddDate(-20+3*(i/250), 0, 0).Add(time.Duration(i%250) * 24 * time.Hour)
		}, spreadSkill(6, 100, 200))})
	// A single dominant player, 1500 points above everyone.
	dom := spreadSkill(7, 50, 100)
	out = append(out, historyShape{"dominant", genHistory(7, 3000, 50, 1, 1, 0.02, hourly,
		func(p int) float64 {
			if p == 0 {
				return 1500
			}
			return dom(p)
		})})
	// Players with one game each: every ID is new.
	one := genHistory(8, 2000, 40, 2, 2, 0, hourly, spreadSkill(8, 40, 200))
	for i := range one {
		for j := range one[i].Team1 {
			one[i].Team1[j] = fmt.Sprintf("m%d-a%d", i, j)
		}
		for j := range one[i].Team2 {
			one[i].Team2[j] = fmt.Sprintf("m%d-b%d", i, j)
		}
	}
	out = append(out, historyShape{"onegame", one})
	return out
}

// refTeamGlicko is an independent implementation of team-glicko as
// docs/ratings.md and docs/spec.md 2.1 state it, written from the text
// (10^x, not e^x; no shared helpers).
type refPlayer struct {
	r, rd  float64
	last   time.Time
	played bool
}

type refParams struct{ r0, rd0, rdMin, rdMax, scale, boost, c float64 }

func refPredictUpdate(p refParams, players map[string]*refPlayer, rec MatchRecord) float64 {
	q := math.Log(10) / 400
	g := func(rd float64) float64 { return 1 / math.Sqrt(1+3*q*q*rd*rd/(math.Pi*math.Pi)) }
	get := func(id string) *refPlayer {
		pl, ok := players[id]
		if !ok {
			pl = &refPlayer{r: p.r0, rd: p.rd0}
			players[id] = pl
		}
		return pl
	}
	// Step 1: inactivity.
	grown := func(pl *refPlayer) float64 {
		if !pl.played {
			return pl.rd
		}
		days := rec.Date.Sub(pl.last).Seconds() / 86400
		if days < 0 {
			days = 0
		}
		return math.Min(p.rd0, math.Sqrt(pl.rd*pl.rd+p.c*p.c*days))
	}
	var ta, tb []*refPlayer
	for _, id := range rec.Team1 {
		ta = append(ta, get(id))
	}
	for _, id := range rec.Team2 {
		tb = append(tb, get(id))
	}
	for _, pl := range append(append([]*refPlayer(nil), ta...), tb...) {
		pl.rd = grown(pl)
	}
	// Step 2: team values.
	team := func(t []*refPlayer) (r, rd float64) {
		var sr, sv float64
		for _, pl := range t {
			sr += pl.r
			sv += pl.rd * pl.rd
		}
		n := float64(len(t))
		rd = math.Sqrt(sv / n)
		return sr/n + p.boost*(p.rdMax-rd), rd
	}
	ra, rda := team(ta)
	rb, rdb := team(tb)
	// Step 3.
	ea := 1 / (1 + math.Pow(10, -g(rdb)*(ra-rb)/400))
	eb := 1 / (1 + math.Pow(10, -g(rda)*(rb-ra)/400))
	sa := rec.Score()
	// Step 4.
	upd := func(t []*refPlayer, gOpp, e, s float64) {
		d2 := 1 / (q * q * gOpp * gOpp * e * (1 - e))
		for _, pl := range t {
			f := math.Max(1/p.scale, pl.rd/p.rdMax)
			den := 1/(pl.rd*pl.rd) + 1/d2
			pl.r += p.scale * f * q / den * gOpp * (s - e)
			pl.rd = math.Max(p.rdMin, math.Sqrt(1/den))
			pl.last = rec.Date
			pl.played = true
		}
	}
	upd(ta, g(rdb), ea, sa)
	upd(tb, g(rda), eb, 1-sa)
	return ea
}

func relClose(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// TestTeamGlickoMatchesIndependentReplay replays every history with the
// package's team-glicko and with refTeamGlicko, for the defaults and for
// constants far from them, and wants every prediction and every final
// rating and RD equal to 1e-9.
func TestTeamGlickoMatchesIndependentReplay(t *testing.T) {
	for _, h := range histories() {
		for _, params := range []map[string]float64{nil, {"boost": 3, "c": 30, "rd0": 300, "scale": 1.5, "rd_min": 40}} {
			t.Run(fmt.Sprintf("%s/%v", h.name, params), func(t *testing.T) {
				ds, err := NewDataset(h.recs)
				if err != nil {
					t.Fatal(err)
				}
				v, err := ResolveParams("team-glicko", params)
				if err != nil {
					t.Fatal(err)
				}
				m, _ := NewModel("team-glicko", v)
				preds := make([]float64, ds.Len())
				states := ds.Predict(m, ds.Len(), preds)
				rp := refParams{v["r0"], v["rd0"], v["rd_min"], v["rd_max"], v["scale"], v["boost"], v["c"]}
				ref := map[string]*refPlayer{}
				for i, rec := range h.recs {
					want := refPredictUpdate(rp, ref, rec)
					if !relClose(preds[i], want, 1e-9) {
						t.Fatalf("Got(prediction of match %d) = %.15g, want %.15g", i, preds[i], want)
					}
				}
				for i, id := range ds.Players {
					s, w := states[i], ref[id]
					if !relClose(s.Rating, w.r, 1e-9) || !relClose(s.Dev, w.rd, 1e-9) {
						t.Fatalf("Got(%s) = %.12f/%.12f, want %.12f/%.12f", id, s.Rating, s.Dev, w.r, w.rd)
					}
					if s.Dev < v["rd_min"] || s.Dev > math.Max(v["rd0"], v["rd_max"]) || math.IsNaN(s.Rating) {
						t.Fatalf("Got(%s) = %v, out of bounds", id, s)
					}
				}
			})
		}
	}
}

// TestScoreMatchesHandComputation checks eval's log loss, Brier, accuracy
// and ECE against a computation from their definitions on every history,
// draws included.
func TestScoreMatchesHandComputation(t *testing.T) {
	for _, h := range histories() {
		t.Run(h.name, func(t *testing.T) {
			ds, err := NewDataset(h.recs)
			if err != nil {
				t.Fatal(err)
			}
			res, preds := ds.Evaluate(NewTeamGlicko(), 0.8)
			start := int(0.8 * float64(len(h.recs)))
			var ll, br, acc float64
			var binP, binY [10]float64
			var binN [10]int
			for i := start; i < len(h.recs); i++ {
				p := preds[i]
				y := h.recs[i].Score()
				pc := math.Min(math.Max(p, 1e-6), 1-1e-6)
				ll += -(y*math.Log(pc) + (1-y)*math.Log(1-pc))
				br += (p - y) * (p - y)
				switch {
				case y == 0.5 || p == 0.5:
					acc += 0.5
				case (p > 0.5 && y == 1) || (p < 0.5 && y == 0):
					acc++
				}
				b := int(math.Floor(p * 10))
				if b > 9 {
					b = 9
				}
				binN[b]++
				binP[b] += p
				binY[b] += y
			}
			n := float64(len(h.recs) - start)
			var ece float64
			for b := range binN {
				if binN[b] > 0 {
					ece += float64(binN[b]) / n * math.Abs(binP[b]/float64(binN[b])-binY[b]/float64(binN[b]))
				}
			}
			if res.Scored != len(h.recs)-start || !relClose(res.LogLoss, ll/n, 1e-12) || !relClose(res.Brier, br/n, 1e-12) ||
				!relClose(res.Accuracy, acc/n, 1e-12) || !relClose(res.ECE, ece, 1e-12) {
				t.Fatalf("Got(score) = %d %.12f %.12f %.12f %.12f, want %d %.12f %.12f %.12f %.12f",
					res.Scored, res.LogLoss, res.Brier, res.Accuracy, res.ECE, len(h.recs)-start, ll/n, br/n, acc/n, ece)
			}
		})
	}
}

func saneParams(t *testing.T, model string, p map[string]float64) {
	t.Helper()
	for k, v := range p {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("Got(%s %s) = %v, want finite", model, k, v)
		}
	}
	if _, err := NewModel(model, p); err != nil {
		t.Fatalf("Got(%s constants %v) refused: %v", model, p, err)
	}
	axes, _ := TuneSpace(model)
	for _, a := range axes {
		if v := p[a.Key]; v < a.Min || v > a.Max {
			t.Fatalf("Got(%s %s) = %v, outside [%v, %v]", model, a.Key, v, a.Min, a.Max)
		}
	}
}

// TestAutoTuneOnHistories runs eval --auto-tune's protocol on every history
// and every model: every round ends, the constants stay finite and within
// the search box, every shown chance is a probability and every rating and
// deviation of the final state is finite and non-negative.
func TestAutoTuneOnHistories(t *testing.T) {
	if testing.Short() {
		t.Skip("replays every history many times")
	}
	for _, h := range histories() {
		ds, err := NewDataset(h.recs)
		if err != nil {
			t.Fatal(err)
		}
		for _, model := range ModelNames() {
			t.Run(h.name+"/"+model, func(t *testing.T) {
				res, err := ds.AutoEvaluate(context.Background(), AutoOptions{Model: model, Warmup: 0.8, Tune: true, Every: ds.Len() / 4,
					Calibrate: true, SelfTune: SelfTuneOptions{TuneOptions: TuneOptions{MaxEvals: 30}}})
				if err != nil {
					t.Fatal(err)
				}
				saneParams(t, model, res.Params)
				for _, r := range res.Rounds {
					saneParams(t, model, r.Candidate)
					if math.IsNaN(r.Gain) || math.IsNaN(r.SE) || r.SE < 0 {
						t.Fatalf("Got(round at %d) gain %v se %v", r.At, r.Gain, r.SE)
					}
				}
				for i, p := range res.Preds {
					if !(p >= 0 && p <= 1) {
						t.Fatalf("Got(pred %d) = %v", i, p)
					}
				}
				for _, w := range res.Calibrator.W {
					if math.IsNaN(w) || math.IsInf(w, 0) {
						t.Fatalf("Got(calibrator) = %+v", res.Calibrator)
					}
				}
				if math.IsNaN(res.LogLoss) || math.IsNaN(res.ECE) {
					t.Fatalf("Got(result) = %+v", res.EvalResult)
				}
				m, _ := NewModel(model, res.Params)
				preds := make([]float64, ds.Len())
				for i, s := range ds.Predict(m, ds.Len(), preds) {
					if math.IsNaN(s.Rating) || math.IsInf(s.Rating, 0) || math.IsNaN(s.Dev) || s.Dev < 0 {
						t.Fatalf("Got(%s) = %+v", ds.Players[i], s)
					}
				}
				t.Logf("%s %s: ll %.4f rounds %d params %v", h.name, model, res.LogLoss, len(res.Rounds), res.Params)
			})
		}
	}
}
