package web

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/ladder"
)

// playerLinkRE matches every link to a player page with its text.
var playerLinkRE = regexp.MustCompile(`<a href="/guilds/\d+/players/(\d+)(?:\?[^"]*)?">([^<]*)</a>`)

// TestPagesWithoutNames renders every page of a guild whose players have
// no names (an imported CSV without name columns): each player link and
// cell shows the ID instead of nothing, which left nothing to click.
func TestPagesWithoutNames(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		ctx := context.Background()
		g, err := e.svc.EnsureGuild(ctx, guildG)
		mustf(t, err, "EnsureGuild")
		g.PlacementGames = 0
		_, err = e.svc.UpdateGuild(ctx, ladder.System, g)
		mustf(t, err, "UpdateGuild")
		res, err := e.svc.RecordResult(ctx, ladder.ResultInput{GuildID: guildG, Team1: []string{"11", "12"}, Team2: []string{"13", "14"}, Winner: 1})
		mustf(t, err, "RecordResult")
		for _, u := range []string{"11", "12", "13", "14"} {
			_, err := e.svc.SetRating(ctx, ladder.System, guildG, "", u, 1500, 50, "listed")
			mustf(t, err, "SetRating")
		}
		e.srv.Invalidate(guildG)
		pages := []string{"/guilds/" + guildG, "/guilds/" + guildG + "/matches/" + itoa64(res.Match.ID)}
		for _, u := range []string{"11", "12", "13", "14"} {
			pages = append(pages, "/guilds/"+guildG+"/players/"+u)
		}
		for _, path := range pages {
			rec := call(e, "GET", path, "")
			html := rec.Body.String()
			links := playerLinkRE.FindAllStringSubmatch(html, -1)
			if rec.Code != 200 || len(links) == 0 {
				t.Errorf("Got(GET %s) = %d with %d player links, want 200 with some", path, rec.Code, len(links))
			}
			for _, l := range links {
				if l[2] != l[1] {
					t.Errorf("Got(GET %s) link to player %s reads %q, want the ID", path, l[1], l[2])
				}
			}
			for _, empty := range []string{"<td></td>", "<h1></h1>", "<title> · ladderbot</title>"} {
				if strings.Contains(html, empty) {
					t.Errorf("Got(GET %s) has an empty %s", path, empty)
				}
			}
		}
	})
}

// TestHiddenAndListing checks the board's hidden-player line and a hidden
// player's reason on the fixture: Eve (RD 150), Finn and Hana (one match
// long ago, RD above 100) and Gus (RD 45, inactive).
func TestHiddenAndListing(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		seedFixture(t, e)
		board := call(e, "GET", "/guilds/"+guildG, "").Body.String()
		if want := `<p class="mute" id="hidden">4 players hidden: 3 with RD above 100, 1 inactive for 30&#43; days.`; !strings.Contains(board, want) {
			t.Errorf("Got(board) lacks %q", want)
		}
		page2 := call(e, "GET", "/guilds/"+guildG+"?limit=3", "").Body.String()
		next := regexp.MustCompile(`<a rel="next" href="([^"]+)"`).FindStringSubmatch(page2)
		if len(next) != 2 {
			t.Fatalf("Got(next link) = %v", next)
		}
		if p := call(e, "GET", strings.ReplaceAll(next[1], "&amp;", "&"), "").Body.String(); strings.Contains(p, `id="hidden"`) {
			t.Errorf("Got(page 2) repeats the hidden line")
		}
		for _, tt := range []struct{ id, want string }{
			{"1005", `id="listing">(RD 150 is above 100: `},
			{"1007", `id="listing">(no rated match for 30&#43; days: one rated match lists you)`},
		} {
			if html := call(e, "GET", "/guilds/"+guildG+"/players/"+tt.id, "").Body.String(); !strings.Contains(html, tt.want) {
				t.Errorf("Got(player %s page) lacks %q", tt.id, tt.want)
			}
		}
		// In the page's language: German and Portuguese.
		for _, tt := range []struct{ id, lang, want string }{
			{"1005", "de", `id="listing">(Abweichung 150 liegt über 100: `},
			{"1007", "pt-BR", `id="listing">(nenhuma partida pontuada há 30&#43; dias: uma partida pontuada coloca você na classificação)`},
		} {
			if html := call(e, "GET", "/guilds/"+guildG+"/players/"+tt.id+"?lang="+tt.lang, "").Body.String(); !strings.Contains(html, tt.want) {
				t.Errorf("Got(player %s page in %s) lacks %q", tt.id, tt.lang, tt.want)
			}
		}
		if alice := call(e, "GET", "/guilds/"+guildG+"/players/1001", "").Body.String(); strings.Contains(alice, `id="listing"`) {
			t.Errorf("Got(Alice's page) explains a listing she does not need")
		}
	})
}

// TestHomeAndNotFoundLinks checks that / lists the guilds with their listed
// players and finds one by ID, and that the 404 of an unknown guild links
// to / rather than to itself.
func TestHomeAndNotFoundLinks(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		if home := call(e, "GET", "/", "").Body.String(); !strings.Contains(home, `id="noguilds"`) || !strings.Contains(home, `<form method="get" action="/" id="find">`) {
			t.Errorf("Got(/ without guilds) = %s, want the form and no-servers line", home)
		}
		seedFixture(t, e)
		home := call(e, "GET", "/", "").Body.String()
		if want := `<a href="/guilds/` + guildG + `">` + guildG + `</a></td><td class="num">4</td>`; !strings.Contains(home, want) {
			t.Errorf("Got(/) lacks %q:\n%s", want, home)
		}
		rec := call(e, "GET", "/?guild=+"+otherGuild, "")
		if rec.Code != 303 || rec.Header().Get("Location") != "/guilds/"+otherGuild {
			t.Errorf("Got(GET /?guild=) = %d to %q, want 303 to /guilds/%s", rec.Code, rec.Header().Get("Location"), otherGuild)
		}
		for _, tt := range []struct{ path, back string }{
			{"/guilds/" + otherGuild, `<a href="/">Back to the start page</a>`},
			{"/guilds/" + otherGuild + "/players/1001", `<a href="/">Back to the start page</a>`},
			{"/guilds/" + guildG + "/players/31337", `<a href="/guilds/` + guildG + `">Back to the leaderboard</a>`},
		} {
			html := call(e, "GET", tt.path, "").Body.String()
			if !strings.Contains(html, tt.back) || strings.Contains(html, `href="/guilds/`+otherGuild+`"`) {
				t.Errorf("Got(GET %s) lacks %q or links to the unknown guild:\n%s", tt.path, tt.back, html)
			}
		}
	})
}
