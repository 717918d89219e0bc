package web

import (
	"context"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// anyPlayerLinkRE finds every link to a player page, with its query.
var anyPlayerLinkRE = regexp.MustCompile(`href="(/guilds/\d+/players/\d+[^"]*)"`)

// TestPlayerLinksKeepTheLadder follows every player link of the pages of a
// guild's second queue (a chess club's 1v1 beside the default 2v2), in the
// running season and in an ended one: each must open the player's page of
// the same queue and season, not the first queue's, where a 1v1 player
// has no rating and "No rated matches yet". Compare links (a player's
// partners, the stats page's partnerships) keep the ladder too.
func TestPlayerLinksKeepTheLadder(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		e.srv = New(Options{Service: e.svc, Community: community.New(e.db, e.svc)})
		ctx := context.Background()
		g, err := e.svc.EnsureGuild(ctx, guildG)
		mustf(t, err, "EnsureGuild")
		g.PlacementGames = 0
		_, err = e.svc.UpdateGuild(ctx, ladder.System, g)
		mustf(t, err, "UpdateGuild")
		_, err = e.svc.CreateQueue(ctx, ladder.System, ladder.NewQueue(guildG, "1v1", 1))
		mustf(t, err, "CreateQueue")
		var last int64
		for i, pair := range [][2]string{{"21", "22"}, {"22", "23"}, {"23", "21"}, {"21", "22"}} {
			res, err := e.svc.RecordResult(ctx, ladder.ResultInput{GuildID: guildG, Queue: "1v1",
				Team1: []string{pair[0]}, Team2: []string{pair[1]}, Winner: i % 3})
			mustf(t, err, "RecordResult")
			last = res.Match.ID
		}
		for _, u := range []string{"21", "22", "23"} {
			_, err := e.svc.SetRating(ctx, ladder.System, guildG, "1v1", u, 1500, 50, "listed")
			mustf(t, err, "SetRating")
		}
		e.srv.Invalidate(guildG)
		check := func(pages []string, want string) {
			t.Helper()
			for _, path := range pages {
				body := call(e, "GET", path, "").Body.String()
				links := anyPlayerLinkRE.FindAllStringSubmatch(body, -1)
				if len(links) == 0 {
					t.Errorf("Got(GET %s) has no player links", path)
				}
				for _, l := range links {
					link := html.UnescapeString(l[1])
					rec := call(e, "GET", link, "")
					if got := rec.Body.String(); rec.Code != 200 || !strings.Contains(got, want) {
						t.Errorf("Got(GET %s, link of %s) = %d without %q", link, path, rec.Code, want)
					}
				}
			}
		}
		base := "/guilds/" + guildG
		check([]string{base + "?queue=1v1", base + "/players/21?queue=1v1", base + "/matches/" + itoa64(last),
			base + "/matches?queue=1v1", base + "/stats?queue=1v1", base + "/compare/21/22?queue=1v1"}, "Queue 1v1 · Season 1")
		_, err = e.svc.EndSeason(ctx, ladder.System, guildG, 1)
		mustf(t, err, "EndSeason")
		e.srv.Invalidate(guildG)
		check([]string{base + "?queue=1v1&season=1", base + "/players/21?queue=1v1&season=1",
			base + "/stats?queue=1v1&season=1", base + "/compare/21/22?queue=1v1&season=1"}, "Queue 1v1 · Season 1")
	})
}

// langLinkRE finds the language switcher's link to German.
var langLinkRE = regexp.MustCompile(`<a href="([^"]*)" hreflang="de"`)

// TestLanguageLinksKeepThePage picks German in the switcher of pages with
// a query: the German page must be the same page (its queue, season,
// filters), not the bare path, which showed the first queue.
func TestLanguageLinksKeepThePage(t *testing.T) {
	e := newEnv(t, testdb.DSN(t, testdb.SQLite), Options{})
	e.srv = New(Options{Service: e.svc, Community: community.New(e.db, e.svc)})
	seedFixture(t, e)
	_, err := e.svc.CreateQueue(context.Background(), ladder.System, ladder.NewQueue(guildG, "1v1", 1))
	mustf(t, err, "CreateQueue")
	e.srv.Invalidate(guildG)
	base := "/guilds/" + guildG
	for _, tt := range []struct{ path, want string }{
		{base + "?queue=1v1", `<span class="on">1v1</span>`},
		{base + "?division=Gold&limit=2", `<span class="on">Gold</span>`},
		{base + "/players/1001?queue=1v1", "Warteschlange 1v1"},
		{base + "/matches?player=1001", `name="player" value="1001"`},
		{base + "/stats?queue=1v1", "Warteschlange 1v1"},
	} {
		rec := call(e, "GET", tt.path, "")
		m := langLinkRE.FindStringSubmatch(rec.Body.String())
		if rec.Code != 200 || m == nil {
			t.Errorf("Got(GET %s) = %d without a link to German", tt.path, rec.Code)
			continue
		}
		link := html.UnescapeString(m[1])
		if strings.HasPrefix(link, "?") {
			link = strings.SplitN(tt.path, "?", 2)[0] + link
		}
		got := call(e, "GET", link, "").Body.String()
		if !strings.Contains(got, `<html lang="de">`) || !strings.Contains(got, tt.want) {
			t.Errorf("Got(German link %q of %s) lacks German or %q", m[1], tt.path, tt.want)
		}
	}
}
