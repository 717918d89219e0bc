package web

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestSeriesGamesAndMapRates: the match JSON and page list a series'
// games with each game's map, and the player page shows the win rate per
// map from a map's fifth game on.
func TestSeriesGamesAndMapRates(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		ctx := context.Background()
		const guild = "100000000000000042"
		if _, err := e.svc.EnsureGuild(ctx, guild); err != nil {
			t.Fatal(err)
		}
		qs, err := e.svc.Queues(ctx, guild)
		if err != nil {
			t.Fatal(err)
		}
		fm := e.srv.series
		mod := ladder.Actor{UserID: "900000000000000001", Moderator: true}
		if _, err := fm.AddMap(ctx, mod, qs[0], formats.Map{Name: "Dust"}); err != nil {
			t.Fatal(err)
		}
		if err := fm.SaveSettings(ctx, mod, qs[0], formats.Settings{MapPick: formats.ModeRandom, BestOf: 3, SeriesRating: formats.RateSeries}); err != nil {
			t.Fatal(err)
		}
		teams := [2][]string{{"710000000000000001", "710000000000000002"}, {"710000000000000003", "710000000000000004"}}
		play := func(winners ...int) ladder.Match {
			t.Helper()
			m, err := e.svc.CreateMatch(ctx, ladder.NewMatch{GuildID: guild, QueueID: qs[0].ID, Teams: teams})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := fm.Start(ctx, m); err != nil {
				t.Fatal(err)
			}
			for i, w := range winners {
				if _, err := fm.ReportGame(ctx, ladder.Actor{UserID: teams[0][0]}, guild, m.ID, i+1, w == 1); err != nil {
					t.Fatal(err)
				}
				if _, err := fm.ConfirmGame(ctx, ladder.Actor{UserID: teams[1][0]}, guild, m.ID, i+1); err != nil {
					t.Fatal(err)
				}
			}
			return m
		}
		m := play(1, 2, 1)
		rec := call(e, http.MethodGet, "/api/v1/guilds/"+guild+"/matches/"+itoa64(m.ID), "")
		body := decode[matchJSON](t, rec)
		if body.Score != "2-1" || len(body.Games) != 3 || body.Games[1] != (gameJSON{Game: 2, Winner: 2, Map: "Dust", State: "confirmed"}) {
			t.Errorf("Got(match JSON) = score %q, games %+v, want 2-1 with 3 games on Dust", body.Score, body.Games)
		}
		page := call(e, http.MethodGet, "/guilds/"+guild+"/matches/"+itoa64(m.ID), "").Body.String()
		if !strings.Contains(page, `id="games"`) || strings.Count(page, "<td>Dust</td>") != 3 {
			t.Errorf("Got(match page) without the 3 games on Dust:\n%s", page)
		}
		player := "/guilds/" + guild + "/players/" + teams[0][0]
		if p := call(e, http.MethodGet, player, "").Body.String(); strings.Contains(p, `id="maps"`) {
			t.Errorf("Got(player page after 3 games) with a win rate per map, want none before 5 games")
		}
		play(2, 2)
		p := call(e, http.MethodGet, player, "").Body.String()
		if !strings.Contains(p, `id="maps"`) || !strings.Contains(p, "<td>Dust</td><td class=\"num\">5</td>") || !strings.Contains(p, "40%") {
			t.Errorf("Got(player page after 5 games) without Dust 2 of 5 (40%%):\n%s", p)
		}
	})
}
