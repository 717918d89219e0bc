package web

import (
	"strings"
	"testing"
)

// TestLeaderboardLastPageHasNoNext pages the fixture's four listed players
// (also within one division) with page sizes that end exactly on the last
// one: the last page must carry no next cursor and no "Next page" link,
// which used to lead to an empty page.
func TestLeaderboardLastPageHasNoNext(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		seedFixture(t, e)
		api := "/api/v1/guilds/" + guildG + "/leaderboard"
		for _, limit := range []string{"1", "2", "4"} {
			seen, after := 0, ""
			for pages := 0; pages < 5; pages++ {
				path := api + "?limit=" + limit
				if after != "" {
					path += "&after=" + after
				}
				lb := decode[leaderboardJSON](t, call(e, "GET", path, ""))
				if len(lb.Players) == 0 {
					t.Errorf("Got(GET %s) = an empty page, want the previous page to be the last", path)
				}
				seen += len(lb.Players)
				if after = lb.Next; after == "" {
					break
				}
			}
			if seen != len(fixtureRows) || after != "" {
				t.Errorf("Got(limit %s) = %d players, ending with next %q, want %d and none", limit, seen, after, len(fixtureRows))
			}
		}
		if html := call(e, "GET", "/guilds/"+guildG+"?limit=4", "").Body.String(); strings.Contains(html, `rel="next"`) {
			t.Errorf("Got(board of 4 at limit 4) links a next page")
		}
	})
}
