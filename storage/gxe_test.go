package storage_test

import (
	"github.com/ladderbot/ladderbot/ladder/rating"
	"testing"

	"github.com/ladderbot/ladderbot/ladder"
)

// TestLeaderboardGXE checks that a queue off the Glicko scale shows its
// model's GXE (ladder.ModelGXE): a TrueSkill ladder's unbeaten player is well
// above 50%, its winless one below, and nobody is near 0 as docs/spec.md 4's
// 1500/130 formula would put ratings near 25.
func TestLeaderboardGXE(t *testing.T) {
	p := []string{user(1), user(2), user(3), user(4), user(5), user(6), user(7), user(8)}
	suite(t, map[string]func(t *testing.T, b string){
		"trueskill queue": func(t *testing.T, b string) {
			e := newEnv(t, b)
			q := ladder.NewQueue(guild, "ts", 1)
			q.Model = "trueskill"
			if _, err := e.svc.CreateQueue(e.ctx, mod, q); err != nil {
				t.Fatalf("CreateQueue(trueskill) = %v", err)
			}
			// Two round robins of four: p1 6-0, p2 4-2, p3 2-4, p4 0-6, so
			// everyone is past the 5 placement games and listed.
			for range 2 {
				for i := range 4 {
					for j := i + 1; j < 4; j++ {
						in := ladder.ResultInput{GuildID: guild, Queue: "ts", Team1: p[i : i+1], Team2: p[j : j+1], Winner: 1}
						if _, err := e.svc.RecordResult(e.ctx, in); err != nil {
							t.Fatalf("RecordResult(%s beats %s) = %v", p[i], p[j], err)
						}
						e.clock.Add(1e9)
					}
				}
			}
			// p5 is known to the guild through the default queue only.
			if _, err := e.svc.RecordResult(e.ctx, result(p[4:6], p[6:8], 1)); err != nil {
				t.Fatalf("RecordResult(2v2) = %v", err)
			}
			page, err := e.svc.Leaderboard(e.ctx, ladder.LeaderboardQuery{GuildID: guild, Queue: "ts"})
			if err != nil {
				t.Fatalf("Leaderboard(ts) = %v", err)
			}
			if len(page.Standings) != 4 || page.Standings[0].UserID != p[0] || page.Standings[3].UserID != p[3] {
				t.Fatalf("Leaderboard(ts) = %+v, want p1..p4 in order", page.Standings)
			}
			top, bottom := page.Standings[0].GXE, page.Standings[3].GXE
			if !(top > 60 && top < 100) {
				t.Errorf("Got(GXE of the unbeaten player) = %g, want in (60, 100)", top)
			}
			if !(bottom > 0 && bottom < 40) {
				t.Errorf("Got(GXE of the winless player) = %g, want in (0, 40)", bottom)
			}
			for i, st := range page.Standings {
				if st.GXE < 1 || st.GXE > 99 {
					t.Errorf("Got(GXE of rank %d, rating %g) = %g, want in [1, 99]", i+1, st.Rating, st.GXE)
				}
				if i > 0 && st.GXE >= page.Standings[i-1].GXE {
					t.Errorf("Got(GXE of rank %d) = %g, want below rank %d's %g", i+1, st.GXE, i, page.Standings[i-1].GXE)
				}
				if st.GXE == rating.GXE(st.Rating, st.RD) {
					t.Errorf("Got(GXE of rank %d) = %g, the 1500/130 formula of R %g; want the model's", i+1, st.GXE, st.Rating)
				}
				pr, err := e.svc.Profile(e.ctx, ladder.ProfileQuery{GuildID: guild, UserID: st.UserID, Queue: "ts"})
				if err != nil || pr.Standing.GXE != st.GXE {
					t.Errorf("Got(Profile(%s).GXE) = %g, %v, want the leaderboard's %g", st.UserID, pr.Standing.GXE, err, st.GXE)
				}
			}
			// A fresh player meets a fresh player at even odds.
			pr, err := e.svc.Profile(e.ctx, ladder.ProfileQuery{GuildID: guild, UserID: p[4], Queue: "ts"})
			if err != nil || pr.Standing.GXE != 50 {
				t.Errorf("Got(Profile(fresh in ts).GXE) = %g, %v, want 50", pr.Standing.GXE, err)
			}
			// The default team-glicko queue keeps docs/spec.md 4's GXE(R, RD).
			pr, err = e.svc.Profile(e.ctx, ladder.ProfileQuery{GuildID: guild, UserID: p[4]})
			if err != nil || pr.Standing.GXE != rating.GXE(pr.Standing.Rating, pr.Standing.RD) {
				t.Errorf("Got(Profile(2v2).GXE) = %g, %v, want GXE(%g, %g) = %g", pr.Standing.GXE, err,
					pr.Standing.Rating, pr.Standing.RD, rating.GXE(pr.Standing.Rating, pr.Standing.RD))
			}
		},
	})
}
