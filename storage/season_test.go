package storage_test

import (
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

func TestSeason(t *testing.T) {
	p := []string{user(1), user(2), user(3), user(4)}
	suite(t, map[string]func(t *testing.T, b string){
		"end freezes standings and carries ratings over": func(t *testing.T, b string) {
			e := newEnv(t, b)
			g, _ := e.svc.Guild(e.ctx, guild)
			g.PlacementGames = 0
			e.svc.UpdateGuild(e.ctx, mod, g)
			e.svc.SetRating(e.ctx, mod, guild, "", p[0], 1900, 50, "")
			e.svc.SetRating(e.ctx, mod, guild, "", p[1], 1600, 50, "")
			e.svc.SetRating(e.ctx, mod, guild, "", p[2], 1400, 50, "")
			e.svc.SetRating(e.ctx, mod, guild, "", p[3], 1300, 120, "") // provisional, not frozen
			if _, err := e.svc.EndSeason(e.ctx, ladder.Actor{UserID: p[0]}, guild, 0); ladder.ErrorCode(err) != ladder.CodeForbidden {
				t.Errorf("EndSeason(player) = %v, want forbidden", err)
			}
			ro, err := e.svc.EndSeason(e.ctx, mod, guild, 1)
			if err != nil || ro.AlreadyDone || ro.Ended.Number != 1 || ro.Started.Number != 2 || ro.Ended.Running() {
				t.Fatalf("EndSeason(1) = %+v, %v, want season 1 ended and 2 started", ro, err)
			}
			again, err := e.svc.EndSeason(e.ctx, mod, guild, 1)
			if err != nil || !again.AlreadyDone || again.Started.Number != 2 {
				t.Errorf("EndSeason(1) again = %+v, %v, want AlreadyDone", again, err)
			}
			res, err := e.svc.SeasonResults(e.ctx, guild, "", 1)
			if err != nil || len(res) != 3 {
				t.Fatalf("SeasonResults(1) = %+v, %v, want 3 listed players", res, err)
			}
			want := []struct {
				user, division, badge string
				rank                  int
			}{{p[0], "Diamond", "top3", 1}, {p[1], "Gold", "top3", 2}, {p[2], "Silver", "top3", 3}}
			for i, w := range want {
				if r := res[i]; r.UserID != w.user || r.Rank != w.rank || r.Division != w.division || r.Badge != w.badge {
					t.Errorf("SeasonResults()[%d] = %+v, want %s rank %d %s %s", i, r, w.user, w.rank, w.division, w.badge)
				}
			}
			// Season 2 starts empty; the first match carries R' = 1500 + 0.5(R − 1500), RD' = 130.
			lp, _ := e.svc.Leaderboard(e.ctx, ladder.LeaderboardQuery{GuildID: guild})
			if lp.Season.Number != 2 || len(lp.Standings) != 0 {
				t.Errorf("Leaderboard() = season %d with %d rows, want season 2, empty", lp.Season.Number, len(lp.Standings))
			}
			r, err := e.svc.RecordResult(e.ctx, result(p[:2], p[2:], 1))
			if err != nil {
				t.Fatal(err)
			}
			rs, _ := e.db.Ratings(e.ctx, ladder.Key{QueueID: r.Match.QueueID, SeasonID: r.Match.SeasonID}, []string{p[0]})
			if len(rs) != 1 || rs[0].Base.Rating != 1700 || rs[0].Base.Dev != 130 || rs[0].Base.Games != 0 {
				t.Errorf("season 2 base of %s = %+v, want 1700 ± 130 after 0 games", p[0], rs)
			}
			old, _ := e.svc.Profile(e.ctx, ladder.ProfileQuery{GuildID: guild, UserID: p[0], Season: 1})
			if old.Standing.Rating != 1900 || old.Season.Number != 1 {
				t.Errorf("Profile(season 1) = %+v, want 1900 kept", old.Standing)
			}
			mustVerify(t, e)
		},
		"stale players hide until they play": func(t *testing.T, b string) {
			e := newEnv(t, b)
			g, _ := e.svc.Guild(e.ctx, guild)
			g.PlacementGames = 0
			e.svc.UpdateGuild(e.ctx, mod, g)
			for i := range 30 {
				e.svc.RecordResult(e.ctx, result(p[:2], p[2:], 1+i%2))
			}
			e.clock.Add(20 * 24 * time.Hour)
			if n, err := e.svc.MarkStale(e.ctx, guild); err != nil || n != 0 {
				t.Errorf("MarkStale() after 20 days = %d, %v, want 0", n, err)
			}
			e.clock.Add(11 * 24 * time.Hour)
			if n, err := e.svc.MarkStale(e.ctx, guild); err != nil || n != 4 {
				t.Errorf("MarkStale() after 31 days = %d, %v, want 4", n, err)
			}
			if pr := profile(t, e, p[0]); !pr.Standing.Stale || pr.Standing.Rank != 0 {
				t.Errorf("Profile() = stale %v rank %d, want stale and unranked", pr.Standing.Stale, pr.Standing.Rank)
			}
			e.svc.RecordResult(e.ctx, result([]string{p[0], p[2]}, []string{p[1], p[3]}, 1))
			lp, _ := e.svc.Leaderboard(e.ctx, ladder.LeaderboardQuery{GuildID: guild})
			if len(lp.Standings) != 4 {
				for _, u := range p {
					t.Logf("%+v", profile(t, e, u).Standing)
				}
				t.Errorf("Leaderboard() after a match = %d rows, want all 4 back", len(lp.Standings))
			}
			mustVerify(t, e)
		},
	})
}
