package storage_test

import (
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// TestLateResultOfClosedSeason rates a match formed and reported before its
// season closed and confirmed after: it counts in the season it was played
// in, so that season's frozen standings must show it, and a player who has
// played in the next season since must enter it with the carry-over of the
// final rating it gave them.
func TestLateResultOfClosedSeason(t *testing.T) {
	p := []string{user(1), user(2), user(3), user(4), user(5), user(6), user(7)}
	confirms := map[string]func(e *env, id int64) error{
		"confirm": func(e *env, id int64) error {
			_, err := e.svc.Confirm(e.ctx, ladder.Actor{UserID: p[2]}, guild, id)
			return err
		},
		"auto-confirm": func(e *env, id int64) error {
			e.clock.Add(time.Hour)
			rs, err := e.svc.ConfirmExpired(e.ctx)
			if err == nil && len(rs) != 1 {
				t.Errorf("ConfirmExpired() rated %d matches, want 1", len(rs))
			}
			return err
		},
		"both sides report": func(e *env, id int64) error {
			_, err := e.svc.Report(e.ctx, ladder.Actor{UserID: p[2]}, guild, id, ladder.Win)
			return err
		},
	}
	cases := map[string]func(t *testing.T, b string){}
	for name, confirm := range confirms {
		cases[name] = func(t *testing.T, b string) {
			e := newEnv(t, b)
			g, _ := e.svc.Guild(e.ctx, guild)
			g.PlacementGames = 0
			if _, err := e.svc.UpdateGuild(e.ctx, mod, g); err != nil {
				t.Fatal(err)
			}
			for i, u := range p {
				if _, err := e.svc.SetRating(e.ctx, mod, guild, "", u, float64(1600+10*i), 50, ""); err != nil {
					t.Fatal(err)
				}
			}
			for range 3 {
				if _, err := e.svc.RecordResult(e.ctx, result(p[:2], p[2:4], 1)); err != nil {
					t.Fatal(err)
				}
				e.clock.Add(time.Minute)
			}
			m := open2v2(t, e, p[0], p[1], p[2], p[3])
			if _, err := e.svc.Report(e.ctx, ladder.Actor{UserID: p[0]}, guild, m.ID, ladder.Loss); err != nil {
				t.Fatalf("Report() = %v", err)
			}
			ro, err := e.svc.EndSeason(e.ctx, mod, guild, 0)
			if err != nil {
				t.Fatalf("EndSeason() = %v", err)
			}
			e.clock.Add(time.Minute)
			// p[0] plays in season 2 before the late result: a game
			// server's result through the API.
			if _, err := e.svc.RecordResult(e.ctx, result([]string{p[4], p[5]}, []string{p[6], p[0]}, 1)); err != nil {
				t.Fatalf("RecordResult(season 2) = %v", err)
			}
			if err := confirm(e, m.ID); err != nil {
				t.Fatalf("confirm = %v", err)
			}
			qs, _ := e.svc.Queues(e.ctx, guild)
			k1 := ladder.Key{QueueID: qs[0].ID, SeasonID: ro.Ended.ID}
			final, err := e.db.Ratings(e.ctx, k1, nil)
			if err != nil {
				t.Fatal(err)
			}
			byUser := map[string]ladder.Rating{}
			for _, r := range final {
				byUser[r.UserID] = r
			}
			if r := byUser[p[0]]; r.Losses != 1 {
				t.Fatalf("season 1 record of %s = %+v, want the late loss rated in season 1", p[0], r.Record)
			}
			frozen, err := e.db.SeasonResults(e.ctx, ro.Ended.ID, qs[0].ID)
			if err != nil || len(frozen) != len(p) {
				t.Fatalf("SeasonResults(1) = %d rows, %v; want %d", len(frozen), err, len(p))
			}
			for i, f := range frozen {
				r := byUser[f.UserID]
				if !close9(f.Rating, r.Display) || f.Wins != r.Wins || f.Losses != r.Losses || i > 0 && f.Rating > frozen[i-1].Rating {
					t.Errorf("frozen standing %d = %s %.4f %d-%d, want the season's final %.4f %d-%d", f.Rank, f.UserID, f.Rating, f.Wins, f.Losses, r.Display, r.Wins, r.Losses)
				}
			}
			next, err := e.db.Ratings(e.ctx, ladder.Key{QueueID: qs[0].ID, SeasonID: ro.Started.ID}, []string{p[0]})
			if err != nil || len(next) != 1 {
				t.Fatalf("season 2 rating of %s = %+v, %v", p[0], next, err)
			}
			if want := 1500 + 0.5*(byUser[p[0]].State.Rating-1500); !close9(next[0].Base.Rating, want) {
				t.Errorf("season 2 base of %s = %.4f, want %.4f, the carry-over of their final rating", p[0], next[0].Base.Rating, want)
			}
			mustVerify(t, e)
		}
	}
	suite(t, cases)
}
