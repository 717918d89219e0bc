package web

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

const (
	comGuild = "300000000000000001"
	comOther = "300000000000000002"
)

// newCommunityEnv is a server with the community routes over a guild
// where 501+502 beat 503+504 five times and lose twice, and another guild
// where 601+602 play 603+604 once.
func newCommunityEnv(t *testing.T, dsn string) *env {
	t.Helper()
	e := newEnv(t, dsn, Options{})
	e.srv = New(Options{Service: e.svc, Community: community.New(e.db, e.svc)})
	ctx := context.Background()
	// Noon (UTC) of the day before: the seven matches, a minute apart,
	// fall on one day whenever the test runs (from now − 24 h they
	// straddled midnight when run in the minutes after it).
	start := time.Now().UTC().Add(-24 * time.Hour).Truncate(24 * time.Hour).Add(12 * time.Hour)
	var recs []rating.MatchRecord
	for i, w := range []int{1, 1, 1, 1, 1, 2, 2} {
		recs = append(recs, rating.MatchRecord{Date: start.Add(time.Duration(i) * time.Minute),
			Team1: []string{"501", "502"}, Team2: []string{"503", "504"}, Winner: w})
	}
	if _, err := e.svc.ImportMatches(ctx, comGuild, "", recs, nil); err != nil {
		t.Fatalf("ImportMatches: %v", err)
	}
	other := []rating.MatchRecord{{Date: start, Team1: []string{"601", "602"}, Team2: []string{"603", "604"}, Winner: 1}}
	if _, err := e.svc.ImportMatches(ctx, comOther, "", other, nil); err != nil {
		t.Fatalf("ImportMatches: %v", err)
	}
	return e
}

func TestCompareAPI(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newCommunityEnv(t, dsn)
		rec := call(e, "GET", "/api/v1/guilds/"+comGuild+"/players/501/compare/503", "")
		if rec.Code != http.StatusOK || rec.Header().Get("Access-Control-Allow-Origin") != "*" {
			t.Fatalf("Got(status) = %d %s, want a public 200", rec.Code, rec.Body)
		}
		c := decode[compareJSON](t, rec)
		if c.Against != (recordJSON{Games: 7, Wins: 5, Losses: 2}) || c.Together.Games != 0 {
			t.Errorf("Got(records) = against %+v together %+v, want 5-2 against, none together", c.Against, c.Together)
		}
		if len(c.Last) != 5 || c.Last[0].Result != "loss" || c.Last[0].MatchID <= c.Last[4].MatchID {
			t.Errorf("Got(last) = %+v, want five, newest (a loss) first", c.Last)
		}
		if c.A.ID != "501" || c.A.Wins != 5 || !c.A.Rated || c.PAWins <= 0 || c.PAWins >= 1 || c.Queue == "" || c.Season != 1 {
			t.Errorf("Got(compare) = %+v", c)
		}
		// 503 and 504, the only other listed players, are the top pair.
		p := decode[compareJSON](t, call(e, "GET", "/api/v1/guilds/"+comGuild+"/players/501/compare/502", ""))
		if p.Together != (recordJSON{Games: 7, Wins: 5, Losses: 2}) || len(p.Last) != 0 {
			t.Errorf("Got(partners) = %+v", p)
		}
		if len(p.TopPair) != 2 || p.PTogetherWins == nil || *p.PTogetherWins <= 0 || *p.PTogetherWins >= 1 ||
			p.TopPair[0].ID == "501" || p.TopPair[1].ID == "502" || p.TopPair[0].ID == p.TopPair[1].ID {
			t.Errorf("Got(top pair) = %+v %v, want 503 and 504 with a chance", p.TopPair, p.PTogetherWins)
		}
		for _, tc := range []struct {
			path   string
			status int
			substr string
		}{
			{"/players/501/compare/501", 400, "two different players"},
			{"/players/501/compare/599", 404, "has not played"},
			{"/players/501/compare/601", 404, "has not played"}, // another guild's player
			{"/players/501/compare/x1", 400, "Discord ID"},
			{"/players/501/compare/503?season=0", 400, "season"},
			{"/players/501/compare/503?season=9", 404, "season 9"},
			{"/players/501/compare/503?queue=nope", 404, "queue"},
		} {
			wantError(t, call(e, "GET", "/api/v1/guilds/"+comGuild+tc.path, ""), tc.status, tc.substr)
		}
		wantError(t, call(e, "GET", "/api/v1/guilds/300000000000000009/players/501/compare/503", ""), 404, "no queue")
	})
}

func TestMatchesAPI(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newCommunityEnv(t, dsn)
		base := "/api/v1/guilds/" + comGuild + "/matches"
		var ids []int64
		path := base + "?player=502&limit=3"
		for pages := 0; ; pages++ {
			if pages > 5 {
				t.Fatal("paging does not end")
			}
			rec := call(e, "GET", path, "")
			if rec.Code != http.StatusOK {
				t.Fatalf("Got(GET %s) = %d %s", path, rec.Code, rec.Body)
			}
			p := decode[matchPageJSON](t, rec)
			for _, m := range p.Matches {
				ids = append(ids, m.ID)
				if len(m.Team1) != 2 || len(m.Team2) != 2 || m.Season != 1 || m.State != "confirmed" {
					t.Errorf("Got(match) = %+v", m)
				}
			}
			if p.NextBefore == 0 {
				break
			}
			path = base + "?player=502&limit=3&before=" + itoa64(p.NextBefore)
		}
		if len(ids) != 7 {
			t.Fatalf("Got(%d matches) = %v, want 7", len(ids), ids)
		}
		for i := 1; i < len(ids); i++ {
			if ids[i] >= ids[i-1] {
				t.Errorf("Got(IDs) = %v, want newest first", ids)
			}
		}
		// Another guild's matches never show, and its IDs find nothing here.
		all := decode[matchPageJSON](t, call(e, "GET", base+"?limit=100&season=1", ""))
		if len(all.Matches) != 7 || all.NextBefore != 0 {
			t.Errorf("Got(all) = %d matches, next %d, want 7 and none", len(all.Matches), all.NextBefore)
		}
		day := all.Matches[0].At.UTC().Format("2006-01-02")
		if on := decode[matchPageJSON](t, call(e, "GET", base+"?limit=100&from="+day+"&to="+day, "")); len(on.Matches) != 7 {
			t.Errorf("Got(matches on %s) = %d, want 7", day, len(on.Matches))
		}
		if none := decode[matchPageJSON](t, call(e, "GET", base+"?from=2001-01-01&to=2001-12-31", "")); len(none.Matches) != 0 {
			t.Errorf("Got(matches of 2001) = %d, want none", len(none.Matches))
		}
		for _, tc := range []struct {
			query  string
			status int
			substr string
		}{
			{"?from=2026-13-01", 400, "from"},
			{"?to=tomorrow", 400, "to"},
			{"?from=2026-02-02&to=2026-02-01", 400, "end date"},
			{"?before=abc", 400, "before"},
			{"?before=0", 400, "before"},
			{"?before=-3", 400, "before"},
			{"?before=99999999999999999999", 400, "before"},
			{"?before=", 400, "before"},
			{"?limit=0", 400, "limit"},
			{"?limit=101", 400, "limit"},
			{"?season=x", 400, "season"},
			{"?season=7", 404, "season 7"},
			{"?queue=nope", 404, "queue"},
			{"?player=", 400, "player"},
			{"?player=abc", 400, "Discord ID"},
			{"?player=599", 404, "has not played"},
			{"?player=601", 404, "has not played"},
		} {
			wantError(t, call(e, "GET", base+tc.query, ""), tc.status, tc.substr)
		}
	})
}

// TestMatchesUntilTheLastDate: the last date a date field can hold,
// 9999-12-31, as the end of the range ("every match up to the end of
// time") lists every match on both backends, on the JSON and on the page;
// its whole last day ends in year 10000, which SQLite's text timestamps
// sort before every real one, so SQLite answered no match at all. And
// year 0000, which has no days, is refused.
func TestMatchesUntilTheLastDate(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newCommunityEnv(t, dsn)
		for _, query := range []string{"?to=9999-12-31", "?from=0001-01-01&to=9999-12-31", "?from=2001-01-01&to=9999-12-31"} {
			rec := call(e, "GET", "/api/v1/guilds/"+comGuild+"/matches"+query+"&limit=100", "")
			if got := decode[matchPageJSON](t, rec); len(got.Matches) != 7 {
				t.Errorf("Got(matches%s) = %d, want all 7", query, len(got.Matches))
			}
			page := call(e, "GET", "/guilds/"+comGuild+"/matches"+query, "")
			if n := strings.Count(page.Body.String(), "data-match="); page.Code != http.StatusOK || n != 7 {
				t.Errorf("Got(matches page%s) = %d with %d matches, want 200 with all 7", query, page.Code, n)
			}
		}
		if got := decode[matchPageJSON](t, call(e, "GET", "/api/v1/guilds/"+comGuild+"/matches?from=9999-12-31&to=9999-12-31", "")); len(got.Matches) != 0 {
			t.Errorf("Got(matches on 9999-12-31) = %d, want none", len(got.Matches))
		}
		// Year 0000 is none: its last day ended at the zero time, which
		// read as no end at all and listed everything.
		wantError(t, call(e, "GET", "/api/v1/guilds/"+comGuild+"/matches?to=0000-12-31", ""), 400, "to")
		if page := call(e, "GET", "/guilds/"+comGuild+"/matches?to=0000-12-31", ""); page.Code != http.StatusBadRequest {
			t.Errorf("Got(matches page to 0000-12-31) = %d, want 400", page.Code)
		}
	})
}

func TestStatsAPI(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newCommunityEnv(t, dsn)
		rec := call(e, "GET", "/api/v1/guilds/"+comGuild+"/stats", "")
		if rec.Code != http.StatusOK {
			t.Fatalf("Got(status) = %d %s", rec.Code, rec.Body)
		}
		st := decode[statsJSON](t, rec)
		if len(st.MostActive) != 4 || st.MostActive[0].Matches != 7 {
			t.Errorf("Got(most active) = %+v", st.MostActive)
		}
		if len(st.WinStreaks) != 2 || st.WinStreaks[0].ID != "503" || st.WinStreaks[0].Streak != 2 {
			t.Errorf("Got(streaks) = %+v, want 503 and 504 on 2", st.WinStreaks)
		}
		// 501 and 502 won five in a row before their two losses.
		if len(st.BestStreaks) != 4 || st.BestStreaks[0].ID != "501" || st.BestStreaks[0].Streak != 5 || st.BestStreaks[3].Streak != 2 {
			t.Errorf("Got(best streaks) = %+v, want 501 and 502 on 5, 503 and 504 on 2", st.BestStreaks)
		}
		if len(st.Upsets) != 7 || st.Upsets[0].Chance > st.Upsets[6].Chance {
			t.Errorf("Got(upsets) = %+v, want all seven, lowest chance first", st.Upsets)
		}
		want := []partnershipJSON{{A: "501", B: "502", recordJSON: recordJSON{Games: 7, Wins: 5, Losses: 2}},
			{A: "503", B: "504", recordJSON: recordJSON{Games: 7, Wins: 2, Losses: 5}}}
		if len(st.Partnerships) != 2 || st.Partnerships[0] != want[0] || st.Partnerships[1] != want[1] {
			t.Errorf("Got(partnerships) = %+v, want %+v", st.Partnerships, want)
		}
		hours := 0
		for _, d := range st.Hours {
			for _, n := range d {
				hours += n
			}
		}
		if hours != 7 {
			t.Errorf("Got(%d matches in hours), want 7", hours)
		}
		if len(st.Improved) == 0 || st.Improved[0].Gain <= 0 || st.Improved[0].Games != 7 || (st.Improved[0].ID != "501" && st.Improved[0].ID != "502") {
			t.Errorf("Got(most improved) = %+v, want 501 or 502 first, 7 games, a gain", st.Improved)
		}
		if lim := decode[statsJSON](t, call(e, "GET", "/api/v1/guilds/"+comGuild+"/stats?limit=1", "")); len(lim.MostActive) != 1 {
			t.Errorf("Got(limit 1) = %+v", lim.MostActive)
		}
		wantError(t, call(e, "GET", "/api/v1/guilds/"+comGuild+"/stats?limit=500", ""), 400, "limit")
		wantError(t, call(e, "GET", "/api/v1/guilds/"+comGuild+"/stats?queue=zzz", ""), 404, "queue")
		wantError(t, call(e, "GET", "/api/v1/guilds/abc/stats", ""), 400, "guild")
		// Without the community service the routes are absent.
		bare := newEnv(t, dsn, Options{})
		wantError(t, call(bare, "GET", "/api/v1/guilds/"+comGuild+"/stats", ""), 404, "")
	})
}
