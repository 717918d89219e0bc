package ladder_test

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

// TestRawChanceStored checks issue 18 on the paths that record a result at
// once (the API's RecordResult and ImportMatches): every such match stores
// the model's raw P(team 1 wins), PRaw, equal to the prediction its log
// rows' Before states give (and, uncalibrated, PTeam1 = PRaw); the queue's
// calibrator learns from all of them; and a match opened afterwards stores
// PRaw beside PTeam1, PRaw calibrated by the fold of that log. Team 1 wins
// four results in five with every player as often on either side, so the
// calibration learns a bias no rating explains, and an opened match's
// calibrated chance is far from its raw one. The queue is declared sided
// (team order means something), without which the calibration is
// symmetric and learns no edge for team 1 (TestCalibrationSymmetric).
func TestRawChanceStored(t *testing.T) {
	behaviours(t, []behaviour{{"api and import", func(t *testing.T, e *env) {
		if _, err := e.svc.EnsureGuild(e.ctx, guild); err != nil {
			t.Fatal(err)
		}
		if err := e.svc.SetQueueSides(e.ctx, ladder.Actor{UserID: user(99), Moderator: true}, guild, "", true); err != nil {
			t.Fatalf("SetQueueSides() = %v", err)
		}
		players := []string{user(1), user(2), user(3), user(4), user(5), user(6), user(7), user(8)}
		// Every player is as often on team 1 as on team 2, so no rating can
		// explain the side's advantage: only the calibration can learn it.
		teams := func(i int) ([]string, []string) {
			r := i % len(players)
			p := append(slices.Clone(players[r:]), players[:r]...)
			if i/len(players)%2 == 1 {
				return p[2:4], p[:2]
			}
			return p[:2], p[2:4]
		}
		winner := func(i int) int {
			if i%5 == 4 {
				return 2
			}
			return 1
		}
		const api, imported = 60, 40
		for i := range api {
			t1, t2 := teams(i)
			if _, err := e.svc.RecordResult(e.ctx, result(t1, t2, winner(i))); err != nil {
				t.Fatalf("RecordResult() = %v", err)
			}
			e.clock.Add(time.Hour)
		}
		recs := make([]rating.MatchRecord, imported)
		for i := range recs {
			t1, t2 := teams(api + i)
			recs[i] = rating.MatchRecord{Seq: i, Date: e.clock.Now().Add(time.Duration(i) * time.Minute), Team1: t1, Team2: t2, Winner: winner(api + i)}
		}
		e.clock.Add(time.Duration(imported+1) * time.Minute)
		if _, err := e.svc.ImportMatches(e.ctx, guild, "", recs, nil); err != nil {
			t.Fatalf("ImportMatches() = %v", err)
		}
		opened := open2v2(t, e, players[0], players[1], players[2], players[3])

		qs, err := e.svc.Queues(e.ctx, guild)
		if err != nil {
			t.Fatalf("Queues() = %v", err)
		}
		model, err := rating.NewModel(qs[0].Model, qs[0].Params)
		if err != nil {
			t.Fatal(err)
		}
		ms, err := e.db.Matches(e.ctx, ladder.MatchFilter{GuildID: guild, States: []ladder.MatchState{ladder.StateConfirmed}, Limit: 1000})
		if err != nil {
			t.Fatalf("Matches() = %v", err)
		}
		if len(ms) != api+imported {
			t.Fatalf("Got(rated matches) = %d, want %d", len(ms), api+imported)
		}
		slices.SortFunc(ms, func(a, b ladder.Match) int { return int(a.Seq - b.Seq) })
		cal := rating.NewCalibrator(rating.DefaultCalPrior, rating.DefaultCalMemory)
		cal.Sided = true
		var moved int
		for _, m := range ms {
			cs, err := e.db.MatchChanges(e.ctx, m.ID)
			if err != nil {
				t.Fatalf("MatchChanges(%d) = %v", m.ID, err)
			}
			var st [2][]rating.State
			for team := range 2 {
				for _, u := range m.Teams[team] {
					i := slices.IndexFunc(cs, func(c ladder.RatingChange) bool { return c.UserID == u })
					if i < 0 {
						t.Fatalf("match %d: player %s has no log row", m.ID, u)
					}
					st[team] = append(st[team], cs[i].Before)
				}
			}
			raw := model.Predict(st[0], st[1], m.PlayedAt)
			if m.PRaw != raw || m.PTeam1 != raw {
				t.Errorf("match %d (%s): Got(PRaw, PTeam1) = %v, %v, want the log's prediction %v for both", m.ID, m.Source, m.PRaw, m.PTeam1, raw)
			}
			if math.Abs(cal.Predict(raw, 0)-raw) > 0.02 {
				moved++
			}
			cal.Observe(raw, 0, ladder.Score(m.Winner))
		}
		if moved < 10 {
			t.Errorf("Got(matches whose calibrated chance would differ by > 0.02) = %d, want ≥ 10: the test cannot tell a raw chance from a calibrated one", moved)
		}
		got, err := e.svc.Calibrator(e.ctx, guild, "")
		if err != nil {
			t.Fatalf("Calibrator() = %v", err)
		}
		if got.N != api+imported || got.W != cal.W {
			t.Errorf("Got(queue calibrator) = %d results, weights %v, want %d and %v", got.N, got.W, api+imported, cal.W)
		}
		if opened.PRaw == 0 || opened.PTeam1 != cal.Predict(opened.PRaw, 0) || math.Abs(opened.PTeam1-opened.PRaw) < 0.02 {
			t.Errorf("opened match: Got(PTeam1, PRaw) = %v, %v, want PRaw calibrated to %v", opened.PTeam1, opened.PRaw, cal.Predict(opened.PRaw, 0))
		}
		stored, err := e.svc.Match(e.ctx, guild, opened.ID)
		if err != nil {
			t.Fatalf("Match() = %v", err)
		}
		if stored.PRaw != opened.PRaw || stored.PTeam1 != opened.PTeam1 {
			t.Errorf("opened match stored: Got(PTeam1, PRaw) = %v, %v, want %v, %v", stored.PTeam1, stored.PRaw, opened.PTeam1, opened.PRaw)
		}
		mustVerify(t, e)
	}}})
}
