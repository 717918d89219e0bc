package web

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// call sends one request through the server's full handler chain.
func call(e *env, method, path, body string, header ...string) *httptest.ResponseRecorder {
	var r *http.Request
	if body == "" {
		r = httptest.NewRequest(method, path, nil)
	} else {
		r = httptest.NewRequest(method, path, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	e.srv.Handler().ServeHTTP(rec, r)
	return rec
}

func decode[T any](t *testing.T, rec *httptest.ResponseRecorder) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("decode %q: %v", rec.Body, err)
	}
	return v
}

// wantError checks an error answer: status and {"error": "..."} containing substr.
func wantError(t *testing.T, rec *httptest.ResponseRecorder, status int, substr string) {
	t.Helper()
	if rec.Code != status {
		t.Errorf("Got(status) = %d (%s), want %d", rec.Code, strings.TrimSpace(rec.Body.String()), status)
		return
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("Got(Content-Type) = %q, want application/json", ct)
	}
	var body map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || len(body) != 1 {
		t.Errorf("Got(body) = %q, want exactly {\"error\": ...}", rec.Body)
		return
	}
	if msg, _ := body["error"].(string); !strings.Contains(msg, substr) {
		t.Errorf("Got(error) = %q, want it to contain %q", msg, substr)
	}
}

func TestLeaderboardAPI(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		seedFixture(t, e)
		const path = "/api/v1/guilds/" + guildG + "/leaderboard"

		rec := call(e, "GET", path, "")
		if rec.Code != 200 {
			t.Fatalf("Got(GET leaderboard) = %d %s, want 200", rec.Code, rec.Body)
		}
		got := decode[leaderboardJSON](t, rec)
		want := []struct {
			id     string
			rating float64
			rd     float64
			div    string
		}{{"1001", 1900, 40, "Diamond"}, {"1002", 1800, 50, "Platinum"}, {"1003", 1700, 60, "Platinum"}, {"1004", 1600, 70, "Gold"}}
		if got.Season != 1 || got.Queue != "2v2" || len(got.Players) != len(want) || got.Next != "" {
			t.Fatalf("Got(leaderboard) = %+v, want season 1, queue 2v2, 4 players, no next", got)
		}
		for i, w := range want {
			p := got.Players[i]
			if p.Rank != i+1 || p.ID != w.id || p.Name != fixtureNames[w.id] || p.Rating != w.rating || p.RD != w.rd ||
				p.Division != w.div || p.GXE != rating.GXE(w.rating, w.rd) {
				t.Errorf("Got(players[%d]) = %+v, want rank %d %s %s %v ± %v %s", i, p, i+1, w.id, fixtureNames[w.id], w.rating, w.rd, w.div)
			}
		}
		// Records: Alice won match 2, lost 3, drew 4.
		if a := got.Players[0]; a.Wins != 1 || a.Losses != 1 || a.Draws != 1 {
			t.Errorf("Got(Alice W-L-D) = %d-%d-%d, want 1-1-1", a.Wins, a.Losses, a.Draws)
		}
		// The raw JSON keys are docs/spec.md 7's.
		var raw struct {
			Players []map[string]any `json:"players"`
		}
		_ = json.Unmarshal(rec.Body.Bytes(), &raw)
		for _, k := range []string{"rank", "id", "name", "rating", "rd", "gxe", "division", "wins", "losses", "draws"} {
			if _, ok := raw.Players[0][k]; !ok {
				t.Errorf("Got(player keys) = %v, want %q", raw.Players[0], k)
			}
		}
		if o := rec.Header().Get("Access-Control-Allow-Origin"); o != "*" {
			t.Errorf("Got(Access-Control-Allow-Origin) = %q, want * on public reads", o)
		}
		if cc := rec.Header().Get("Cache-Control"); cc != "public, max-age=2" {
			t.Errorf("Got(Cache-Control) = %q, want public, max-age=2", cc)
		}
	})
}

func TestLeaderboardAPIPagingAndFilters(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		seedFixture(t, e)
		const path = "/api/v1/guilds/" + guildG + "/leaderboard"
		ids := func(lb leaderboardJSON) string {
			var s []string
			for _, p := range lb.Players {
				s = append(s, p.ID+"#"+itoa(p.Rank))
			}
			return strings.Join(s, ",")
		}
		p1 := decode[leaderboardJSON](t, call(e, "GET", path+"?limit=2", ""))
		if ids(p1) != "1001#1,1002#2" || p1.Next == "" {
			t.Fatalf("Got(page 1) = %s next %q, want 1001#1,1002#2 and a cursor", ids(p1), p1.Next)
		}
		p2 := decode[leaderboardJSON](t, call(e, "GET", path+"?limit=2&after="+p1.Next, ""))
		if ids(p2) != "1003#3,1004#4" {
			t.Errorf("Got(page 2) = %s, want 1003#3,1004#4", ids(p2))
		}
		if p2.Next != "" {
			t.Errorf("Got(page 2 of the last two players) next %q, want none", p2.Next)
		}
		tests := []struct {
			query string
			want  string
		}{
			{"?division=Gold", "1004#4"},
			{"?division=platinum", "1002#2,1003#3"},
			{"?division=Diamond&limit=1", "1001#1"},
			{"?division=Bronze", ""},
			{"?season=1&queue=2v2", "1001#1,1002#2,1003#3,1004#4"},
		}
		for _, tt := range tests {
			rec := call(e, "GET", path+tt.query, "")
			if rec.Code != 200 {
				t.Errorf("Got(GET %s) = %d %s, want 200", tt.query, rec.Code, rec.Body)
				continue
			}
			if got := ids(decode[leaderboardJSON](t, rec)); got != tt.want {
				t.Errorf("Got(GET %s) = %q, want %q", tt.query, got, tt.want)
			}
		}
	})
}

func TestLeaderboardAPIErrors(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		seedFixture(t, e)
		const path = "/api/v1/guilds/" + guildG + "/leaderboard"
		tests := []struct {
			name   string
			path   string
			status int
			msg    string
		}{
			{"unknown guild", "/api/v1/guilds/" + otherGuild + "/leaderboard", 404, "not found"},
			{"unknown season", path + "?season=7", 404, "season"},
			{"season not a number", path + "?season=two", 400, "season"},
			{"season zero", path + "?season=0", 400, "season"},
			{"limit too big", path + "?limit=201", 400, "limit"},
			{"limit zero", path + "?limit=0", 400, "limit"},
			{"garbage cursor", path + "?after=not-a-cursor", 400, "cursor"},
			{"unknown division", path + "?division=Wood", 400, "division"},
			{"unknown queue", path + "?queue=9v9", 404, ""},
			{"unknown endpoint", "/api/v1/guilds/" + guildG + "/nope", 404, "no API endpoint"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) { wantError(t, call(e, "GET", tt.path, ""), tt.status, tt.msg) })
		}
		rec := call(e, "DELETE", path, "")
		wantError(t, rec, 405, "use GET")
		if rec.Header().Get("Allow") != "GET, HEAD" {
			t.Errorf("Got(Allow) = %q, want GET, HEAD", rec.Header().Get("Allow"))
		}
	})
}

func TestLeaderboardETag(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		seedFixture(t, e)
		const path = "/api/v1/guilds/" + guildG + "/leaderboard"
		first := call(e, "GET", path, "")
		etag := first.Header().Get("ETag")
		if first.Code != 200 || len(etag) < 4 || etag[0] != '"' {
			t.Fatalf("Got(ETag) = %q (status %d), want a quoted tag", etag, first.Code)
		}
		for _, inm := range []string{etag, "W/" + etag, `"x", ` + etag, "*"} {
			rec := call(e, "GET", path, "", "If-None-Match", inm)
			if rec.Code != http.StatusNotModified || rec.Body.Len() != 0 || rec.Header().Get("ETag") != etag {
				t.Errorf("Got(If-None-Match %s) = %d with %d bytes, want 304 without a body", inm, rec.Code, rec.Body.Len())
			}
		}
		if rec := call(e, "GET", path, "", "If-None-Match", `"stale"`); rec.Code != 200 {
			t.Errorf("Got(If-None-Match other tag) = %d, want 200", rec.Code)
		}
		// A result posted through the API changes the page and its tag at once.
		tok := newToken(t, e, guildG, "server")
		rec := call(e, "POST", "/api/v1/guilds/"+guildG+"/matches", `{"team1":["1001","1002"],"team2":["1003","1004"],"winner":2}`,
			"Authorization", "Bearer "+tok)
		if rec.Code != 201 {
			t.Fatalf("Got(POST match) = %d %s, want 201", rec.Code, rec.Body)
		}
		after := call(e, "GET", path, "", "If-None-Match", etag)
		if after.Code != 200 || after.Header().Get("ETag") == etag {
			t.Errorf("Got(after a result) = %d with tag %s, want 200 with a new tag", after.Code, after.Header().Get("ETag"))
		}
	})
}

func TestPlayerAPI(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		f := seedFixture(t, e)
		base := "/api/v1/guilds/" + guildG + "/players/"

		alice := decode[profileJSON](t, call(e, "GET", base+"1001", ""))
		if alice.Rank != 1 || alice.Rating != 1900 || alice.RD != 40 || alice.Provisional || alice.Stale || alice.Name != "Alice" {
			t.Errorf("Got(Alice) = %+v, want rank 1, 1900 ± 40, listed", alice)
		}
		// History: three matches and the set, oldest first, each with its match.
		if len(alice.History) != 4 {
			t.Fatalf("Got(len(history)) = %d, want 4: %+v", len(alice.History), alice.History)
		}
		wantIDs := []int64{f.matchIDs[1], f.matchIDs[2], f.matchIDs[3], 0}
		for i, h := range alice.History {
			if h.MatchID != wantIDs[i] || h.At.IsZero() {
				t.Errorf("Got(history[%d]) = %+v, want match %d", i, h, wantIDs[i])
			}
			if i > 0 && math.Abs(alice.History[i-1].Rating+h.Delta-h.Rating) > 1e-9 {
				t.Errorf("Got(history[%d]) rating %v, delta %v after %v: inconsistent", i, h.Rating, h.Delta, alice.History[i-1].Rating)
			}
		}
		if last := alice.History[3]; last.Rating != 1900 || last.RD != 40 {
			t.Errorf("Got(last history) = %+v, want the set 1900 ± 40", last)
		}
		eve := decode[profileJSON](t, call(e, "GET", base+"1005", ""))
		if !eve.Provisional || eve.Stale || eve.Rank != 0 {
			t.Errorf("Got(Eve) = %+v, want provisional, unranked", eve)
		}
		gus := decode[profileJSON](t, call(e, "GET", base+"1007", ""))
		if !gus.Stale || gus.Provisional || gus.Rank != 0 || gus.Rating != 1750 {
			t.Errorf("Got(Gus) = %+v, want stale 1750, unranked", gus)
		}
		var raw map[string]any
		_ = json.Unmarshal(call(e, "GET", base+"1007?history=1", "").Body.Bytes(), &raw)
		for _, k := range []string{"id", "name", "rating", "rd", "gxe", "division", "wins", "losses", "draws", "provisional", "stale", "history"} {
			if _, ok := raw[k]; !ok {
				t.Errorf("Got(player keys) = %v, want %q", raw, k)
			}
		}
		if h, _ := raw["history"].([]any); len(h) != 1 {
			t.Errorf("Got(history=1) = %d points, want 1", len(h))
		}
		wantError(t, call(e, "GET", base+"9999", ""), 404, "not found")
		wantError(t, call(e, "GET", "/api/v1/guilds/"+otherGuild+"/players/1001", ""), 404, "")
		wantError(t, call(e, "GET", base+"1001?history=0", ""), 400, "history")
	})
}

func TestMatchAPI(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		f := seedFixture(t, e)
		base := "/api/v1/guilds/" + guildG + "/matches/"
		rec := call(e, "GET", base+itoa64(f.matchIDs[1]), "")
		if rec.Code != 200 {
			t.Fatalf("Got(GET match) = %d %s", rec.Code, rec.Body)
		}
		m := decode[matchJSON](t, rec)
		if m.ID != f.matchIDs[1] || m.State != ladder.StateConfirmed || m.Winner == nil || *m.Winner != 1 ||
			strings.Join(m.Team1, ",") != "1001,1002" || strings.Join(m.Team2, ",") != "1003,1004" ||
			m.Names["1003"] != "Cleo" || m.PTeam1 <= 0 || m.PTeam1 >= 1 || m.PlayedAt == nil || m.Source != "test" {
			t.Errorf("Got(match) = %+v, want match 2 as recorded", m)
		}
		if len(m.Ratings) != 4 || m.Ratings[0].ID != "1001" || m.Ratings[0].Delta <= 0 || m.Ratings[2].Delta >= 0 {
			t.Errorf("Got(match ratings) = %+v, want team 1 gaining first", m.Ratings)
		}
		draw := decode[matchJSON](t, call(e, "GET", base+itoa64(f.matchIDs[3]), ""))
		if draw.Winner == nil || *draw.Winner != 0 {
			t.Errorf("Got(draw winner) = %v, want 0", draw.Winner)
		}
		wantError(t, call(e, "GET", base+"999999", ""), 404, "not found")
		wantError(t, call(e, "GET", base+"abc", ""), 404, "match")
		wantError(t, call(e, "GET", base+"-1", ""), 404, "match")
		// Another guild's match is not found under this guild.
		_, err := e.svc.EnsureGuild(context.Background(), otherGuild)
		mustf(t, err, "EnsureGuild")
		wantError(t, call(e, "GET", "/api/v1/guilds/"+otherGuild+"/matches/"+itoa64(f.matchIDs[1]), ""), 404, "not found")
	})
}

func TestMatchesCSV(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		seedFixture(t, e)
		rec := call(e, "GET", "/api/v1/guilds/"+guildG+"/matches.csv", "")
		if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/csv") {
			t.Fatalf("Got(GET matches.csv) = %d %q", rec.Code, rec.Header().Get("Content-Type"))
		}
		recs, err := rating.ReadMatchCSV(bytes.NewReader(rec.Body.Bytes()))
		if err != nil {
			t.Fatalf("ReadMatchCSV(export) = %v\n%s", err, rec.Body)
		}
		if len(recs) != len(fixtureMatches) {
			t.Fatalf("Got(len(records)) = %d, want %d", len(recs), len(fixtureMatches))
		}
		for i, m := range fixtureMatches {
			r := recs[i]
			if r.Seq != i || r.Winner != m.winner || strings.Join(r.Team1, ",") != strings.Join(m.team1, ",") ||
				strings.Join(r.Team2, ",") != strings.Join(m.team2, ",") {
				t.Errorf("Got(record %d) = %+v, want %+v", i, r, m)
			}
		}
		for i, m := range fixtureMatches { // the fixture's players have names, and they come along
			if n := recs[i].Names[m.team1[0]]; n != fixtureNames[m.team1[0]] {
				t.Errorf("Got(record %d name of %s) = %q, want %q", i, m.team1[0], n, fixtureNames[m.team1[0]])
			}
		}
		if !strings.HasPrefix(rec.Body.String(), "seq,date,team1_p1,team1_p1_name,team1_p2,team1_p2_name,team2_p1,team2_p1_name,team2_p2,team2_p2_name,winner\n") {
			t.Errorf("Got(header) = %q", strings.SplitN(rec.Body.String(), "\n", 2)[0])
		}
		if got := call(e, "GET", "/api/v1/guilds/"+guildG+"/matches.csv?season=2", ""); got.Code != 404 {
			t.Errorf("Got(season 2) = %d, want 404", got.Code)
		}
		wantError(t, call(e, "GET", "/api/v1/guilds/"+otherGuild+"/matches.csv", ""), 404, "")
	})
}

func itoa64(n int64) string { return itoa(int(n)) }

// recordedMatches counts the guild's matches in the store.
func recordedMatches(t *testing.T, e *env, guild string) int {
	t.Helper()
	ms, err := e.svc.Matches(context.Background(), ladder.MatchFilter{GuildID: guild, Limit: 500})
	mustf(t, err, "Matches")
	return len(ms)
}

func TestRecordMatchAPI(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		seedFixture(t, e)
		tok := newToken(t, e, guildG, "game-server")
		const path = "/api/v1/guilds/" + guildG + "/matches"
		auth := []string{"Authorization", "Bearer " + tok}
		body := `{"team1":["1001","1003"],"team2":["1002","1004"],"winner":1,"played_at":"` + time.Now().UTC().Add(-time.Minute).Format(time.RFC3339) + `","queue":"2v2"}`
		before := recordedMatches(t, e, guildG)

		first := call(e, "POST", path, body, append(auth, "Idempotency-Key", "round-77")...)
		if first.Code != http.StatusCreated {
			t.Fatalf("Got(POST match) = %d %s, want 201", first.Code, first.Body)
		}
		res := decode[recordResponse](t, first)
		if res.MatchID == 0 || len(res.Ratings) != 4 {
			t.Fatalf("Got(body) = %s, want match_id and 4 ratings", first.Body)
		}
		for i, id := range []string{"1001", "1003", "1002", "1004"} {
			r := res.Ratings[i]
			if r.ID != id || (i < 2) != (r.Delta > 0) {
				t.Errorf("Got(ratings[%d]) = %+v, want %s, winners gaining", i, r, id)
			}
		}
		if loc := first.Header().Get("Location"); loc != path+"/"+itoa64(res.MatchID) {
			t.Errorf("Got(Location) = %q", loc)
		}
		// Ratings are unrounded: the answer equals the stored profile exactly.
		prof := decode[profileJSON](t, call(e, "GET", "/api/v1/guilds/"+guildG+"/players/1003", ""))
		if prof.Rating != res.Ratings[1].Rating || prof.RD != res.Ratings[1].RD || prof.Rating == math.Round(prof.Rating) {
			t.Errorf("Got(profile 1003) = %v ± %v, want %v ± %v unrounded", prof.Rating, prof.RD, res.Ratings[1].Rating, res.Ratings[1].RD)
		}
		// Retries with the same key answer the same body with 200 and record nothing.
		for i := range 2 {
			again := call(e, "POST", path, body, append(auth, "Idempotency-Key", "round-77")...)
			if again.Code != http.StatusOK || again.Body.String() != first.Body.String() {
				t.Errorf("Got(retry %d) = %d %s, want 200 %s", i+1, again.Code, again.Body, first.Body)
			}
		}
		if n := recordedMatches(t, e, guildG); n != before+1 {
			t.Errorf("Got(matches after retries) = %d, want %d", n, before+1)
		}
		// The same key for a different match is a conflict.
		other := `{"team1":["1001","1003"],"team2":["1002","1004"],"winner":2}`
		wantError(t, call(e, "POST", path, other, append(auth, "Idempotency-Key", "round-77")...), 409, "round-77")
		// Without a key every post records.
		for range 2 {
			if rec := call(e, "POST", path, other, auth...); rec.Code != 201 {
				t.Errorf("Got(POST without key) = %d %s, want 201", rec.Code, rec.Body)
			}
		}
		if n := recordedMatches(t, e, guildG); n != before+3 {
			t.Errorf("Got(matches) = %d, want %d", n, before+3)
		}
	})
}

func TestRecordMatchAPIConcurrentRetries(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		seedFixture(t, e)
		tok := newToken(t, e, guildG, "game-server")
		before := recordedMatches(t, e, guildG)
		const n = 6
		recs := make([]*httptest.ResponseRecorder, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				recs[i] = call(e, "POST", "/api/v1/guilds/"+guildG+"/matches", `{"team1":["1001","1002"],"team2":["1003","1004"],"winner":1}`,
					"Authorization", "Bearer "+tok, "Idempotency-Key", "same-round")
			})
		}
		wg.Wait()
		created := 0
		for i, rec := range recs {
			switch rec.Code {
			case 201:
				created++
			case 200:
			default:
				t.Errorf("Got(request %d) = %d %s, want 201 or 200", i, rec.Code, rec.Body)
			}
			if rec.Body.String() != recs[0].Body.String() {
				t.Errorf("Got(body %d) = %s, want %s", i, rec.Body, recs[0].Body)
			}
		}
		if created != 1 {
			t.Errorf("Got(201 answers) = %d, want 1", created)
		}
		if got := recordedMatches(t, e, guildG); got != before+1 {
			t.Errorf("Got(matches) = %d, want %d", got, before+1)
		}
	})
}

func TestRecordMatchAPIBadRequests(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{MaxBody: 1024})
		seedFixture(t, e)
		tok := newToken(t, e, guildG, "game-server")
		const path = "/api/v1/guilds/" + guildG + "/matches"
		auth := []string{"Authorization", "Bearer " + tok}
		before := recordedMatches(t, e, guildG)
		future := time.Now().UTC().Add(time.Hour).Format(time.RFC3339)
		tests := []struct {
			name   string
			body   string
			header []string
			status int
			msg    string
		}{
			{"unknown field", `{"team1":["1001","1002"],"team2":["1003","1004"],"winner":1,"colour":"x"}`, nil, 400, "unknown field"},
			{"missing winner", `{"team1":["1001","1002"],"team2":["1003","1004"]}`, nil, 400, "winner"},
			{"winner 3", `{"team1":["1001","1002"],"team2":["1003","1004"],"winner":3}`, nil, 400, "winner"},
			{"winner as string", `{"team1":["1001","1002"],"team2":["1003","1004"],"winner":"1"}`, nil, 400, "winner"},
			{"team as string", `{"team1":"1001","team2":["1003","1004"],"winner":1}`, nil, 400, "team1"},
			{"3v3 in a 2v2 queue", `{"team1":["1","2","3"],"team2":["4","5","6"],"winner":1}`, nil, 400, "2v2"},
			{"uneven teams", `{"team1":["1001"],"team2":["1003","1004"],"winner":1}`, nil, 400, "same size"},
			{"empty team", `{"team1":[],"team2":[],"winner":1}`, nil, 400, "at least one"},
			{"player twice", `{"team1":["1001","1002"],"team2":["1002","1004"],"winner":1}`, nil, 400, "twice"},
			{"bad played_at", `{"team1":["1001","1002"],"team2":["1003","1004"],"winner":1,"played_at":"yesterday"}`, nil, 400, "RFC 3339"},
			{"future played_at", `{"team1":["1001","1002"],"team2":["1003","1004"],"winner":1,"played_at":"` + future + `"}`, nil, 400, "future"},
			{"unknown queue", `{"team1":["1001","1002"],"team2":["1003","1004"],"winner":1,"queue":"5v5"}`, nil, 404, ""},
			{"two values", `{"team1":["1001","1002"],"team2":["1003","1004"],"winner":1}{}`, nil, 400, "one JSON value"},
			{"truncated", `{"team1":["1001","1002"],"team2":[`, nil, 400, "truncated"},
			{"not JSON", `team1=1001`, nil, 400, "malformed JSON"},
			{"empty body", ``, []string{"Content-Type", "application/json"}, 400, "empty"},
			{"too large", `{"team1":["` + strings.Repeat("1", 2000) + `"],"team2":["2"],"winner":1}`, nil, 413, "larger than 1024"},
			{"form content type", `{"team1":["1001","1002"],"team2":["1003","1004"],"winner":1}`, []string{"Content-Type", "application/x-www-form-urlencoded"}, 415, "application/json"},
			{"key too long", `{"team1":["1001","1002"],"team2":["1003","1004"],"winner":1}`, []string{"Idempotency-Key", strings.Repeat("k", 201)}, 400, "Idempotency-Key"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				wantError(t, call(e, "POST", path, tt.body, append(append([]string{}, auth...), tt.header...)...), tt.status, tt.msg)
			})
		}
		if n := recordedMatches(t, e, guildG); n != before {
			t.Errorf("Got(matches after bad requests) = %d, want %d (nothing recorded)", n, before)
		}
	})
}

func TestTokenAuth(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		seedFixture(t, e)
		good := newToken(t, e, guildG, "live")
		revoked := newToken(t, e, guildG, "old")
		if _, err := e.svc.RevokeToken(context.Background(), ladder.System, guildG, "old"); err != nil {
			t.Fatal(err)
		}
		foreign := newToken(t, e, otherGuild, "elsewhere")
		const body = `{"team1":["1001","1002"],"team2":["1003","1004"],"winner":1}`
		before := recordedMatches(t, e, guildG)
		tests := []struct {
			name   string
			header []string
			status int
			msg    string
		}{
			{"no header", nil, 401, "missing bearer token"},
			{"basic scheme", []string{"Authorization", "Basic dXNlcjpwYXNz"}, 401, "missing bearer token"},
			{"empty bearer", []string{"Authorization", "Bearer "}, 401, "missing bearer token"},
			{"wrong secret", []string{"Authorization", "Bearer lbt_" + strings.Repeat("A", 43)}, 401, "invalid or revoked"},
			{"not a ladderbot token", []string{"Authorization", "Bearer hunter2"}, 401, "invalid or revoked"},
			{"revoked", []string{"Authorization", "Bearer " + revoked}, 401, "invalid or revoked"},
			{"other guild's token", []string{"Authorization", "Bearer " + foreign}, 401, "invalid or revoked"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				rec := call(e, "POST", "/api/v1/guilds/"+guildG+"/matches", body, tt.header...)
				wantError(t, rec, tt.status, tt.msg)
				if !strings.HasPrefix(rec.Header().Get("WWW-Authenticate"), "Bearer") {
					t.Errorf("Got(WWW-Authenticate) = %q, want a Bearer challenge", rec.Header().Get("WWW-Authenticate"))
				}
			})
		}
		// Every guarded endpoint refuses a revoked token.
		for _, ep := range []struct{ method, path, body string }{
			{"POST", "/balance", `{"players":[1500,1600]}`},
			{"POST", "/autobalance", `{"team1":[1500,1600]}`},
			{"GET", "/admin/players/1001/rating", ""},
			{"PUT", "/admin/players/1001/rating", `{"rating":1500,"rd":50}`},
			{"POST", "/admin/players/1001/rating/reset", ""},
			{"GET", "/admin/health", ""},
		} {
			wantError(t, call(e, ep.method, "/api/v1/guilds/"+guildG+ep.path, ep.body, "Authorization", "Bearer "+revoked), 401, "invalid or revoked")
		}
		if n := recordedMatches(t, e, guildG); n != before {
			t.Errorf("Got(matches after refused requests) = %d, want %d", n, before)
		}
		if rec := call(e, "POST", "/api/v1/guilds/"+guildG+"/matches", body, "Authorization", "bearer "+good); rec.Code != 201 {
			t.Errorf("Got(lower-case bearer with a live token) = %d %s, want 201", rec.Code, rec.Body)
		}
	})
}

func TestTokenRateLimit(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
		var mu sync.Mutex
		clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
		e := newEnv(t, dsn, Options{RatePerToken: 1, RateBurst: 2, Now: clock})
		seedFixture(t, e)
		a, b := newToken(t, e, guildG, "a"), newToken(t, e, guildG, "b")
		get := func(tok string) *httptest.ResponseRecorder {
			return call(e, "GET", "/api/v1/guilds/"+guildG+"/admin/health", "", "Authorization", "Bearer "+tok)
		}
		for i := range 2 {
			if rec := get(a); rec.Code != 200 {
				t.Fatalf("Got(request %d within burst) = %d %s, want 200", i+1, rec.Code, rec.Body)
			}
		}
		mu.Lock()
		now = now.Add(250 * time.Millisecond)
		mu.Unlock()
		rec := get(a)
		wantError(t, rec, 429, "rate limit")
		// At 1/s the bucket holds a token again 750 ms later: 1 s, rounded up.
		if got := rec.Header().Get("Retry-After"); got != "1" {
			t.Errorf("Got(Retry-After) = %q, want \"1\"", got)
		}
		if rec := get(b); rec.Code != 200 {
			t.Errorf("Got(another token) = %d, want 200: limits are per token", rec.Code)
		}
		mu.Lock()
		now = now.Add(time.Second)
		mu.Unlock()
		if rec := get(a); rec.Code != 200 {
			t.Errorf("Got(after a second) = %d, want 200", rec.Code)
		}
	})
}

// TestTokenRateLimitRetryAfter checks that Retry-After counts the seconds
// until the bucket has a token again, not a fixed 1.
func TestTokenRateLimitRetryAfter(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
		e := newEnv(t, dsn, Options{RatePerToken: 0.1, RateBurst: 1, Now: func() time.Time { return now }})
		seedFixture(t, e)
		a := newToken(t, e, guildG, "a")
		get := func() *httptest.ResponseRecorder {
			return call(e, "GET", "/api/v1/guilds/"+guildG+"/admin/health", "", "Authorization", "Bearer "+a)
		}
		if rec := get(); rec.Code != 200 {
			t.Fatalf("Got(first request) = %d %s, want 200", rec.Code, rec.Body)
		}
		rec := get()
		wantError(t, rec, 429, "rate limit")
		if got := rec.Header().Get("Retry-After"); got != "10" {
			t.Errorf("Got(Retry-After at 0.1/s) = %q, want \"10\"", got)
		}
	})
}

// TestAuthFailureLimit checks that failed authentications are limited per
// client address, and that other clients and valid tokens — from another
// address or from the limited one — are unaffected.
func TestAuthFailureLimit(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
		e := newEnv(t, dsn, Options{AuthFailureRate: 0.5, AuthFailureBurst: 3, Now: func() time.Time { return now }})
		seedFixture(t, e)
		good := newToken(t, e, guildG, "good")
		get := func(addr, tok string) *httptest.ResponseRecorder {
			r := httptest.NewRequest("GET", "/api/v1/guilds/"+guildG+"/admin/health", nil)
			r.RemoteAddr = addr
			r.Header.Set("Authorization", "Bearer "+tok)
			rec := httptest.NewRecorder()
			e.srv.Handler().ServeHTTP(rec, r)
			return rec
		}
		forged := "lbt_" + strings.Repeat("x", 43)
		for i := range 3 {
			if rec := get("192.0.2.1:1000", forged); rec.Code != 401 {
				t.Fatalf("Got(failure %d) = %d, want 401", i+1, rec.Code)
			}
		}
		rec := get("192.0.2.1:1001", forged)
		wantError(t, rec, 429, "failed authentications")
		if got := rec.Header().Get("Retry-After"); got != "2" {
			t.Errorf("Got(Retry-After at 0.5/s) = %q, want \"2\"", got)
		}
		// A valid token is not locked out by the guesses of its address
		// (a NAT or a proxy shared with a guesser): it is still looked up.
		if rec := get("192.0.2.1:1002", good); rec.Code != 200 {
			t.Errorf("Got(valid token from a blocked address) = %d %s, want 200", rec.Code, rec.Body)
		}
		// A secret not even shaped like a token is refused unlooked-up.
		wantError(t, get("192.0.2.1:1002", "hunter2"), 429, "failed authentications")
		if rec := get("198.51.100.7:1000", good); rec.Code != 200 {
			t.Errorf("Got(valid token from another address) = %d, want 200", rec.Code)
		}
		if rec := get("198.51.100.7:1000", forged); rec.Code != 401 {
			t.Errorf("Got(first failure of another address) = %d, want 401", rec.Code)
		}
		now = now.Add(2 * time.Second)
		if rec := get("192.0.2.1:1003", good); rec.Code != 200 {
			t.Errorf("Got(valid token after the wait) = %d, want 200", rec.Code)
		}
	})
}

// TestTokenCache checks the token lookup cache: a revoke through this
// process's service takes effect at once, and one made by another process
// (a second Service over the same database) within tokenCacheTTL, 5 s. That
// the other process's revoke is honoured late is the proof the cache
// answers without the database.
func TestTokenCache(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		seedFixture(t, e)
		clock := ladder.NewManualClock(time.Now())
		here := ladder.NewService(e.db, clock)
		other := ladder.NewService(e.db, clock)
		srv := New(Options{Service: here})
		get := func(tok string) int {
			r := httptest.NewRequest("GET", "/api/v1/guilds/"+guildG+"/admin/health", nil)
			r.Header.Set("Authorization", "Bearer "+tok)
			rec := httptest.NewRecorder()
			srv.Handler().ServeHTTP(rec, r)
			return rec.Code
		}
		ctx := context.Background()
		local, remote := newToken(t, e, guildG, "local"), newToken(t, e, guildG, "remote")
		for _, tok := range []string{local, remote} {
			if code := get(tok); code != 200 {
				t.Fatalf("Got(live token) = %d, want 200", code)
			}
		}
		if _, err := here.RevokeToken(ctx, ladder.System, guildG, "local"); err != nil {
			t.Fatal(err)
		}
		if code := get(local); code != 401 {
			t.Errorf("Got(token revoked in this process) = %d, want 401 at once", code)
		}
		if code := get(remote); code != 200 {
			t.Errorf("Got(remote token, cached) = %d, want 200", code)
		}
		if _, err := other.RevokeToken(ctx, ladder.System, guildG, "remote"); err != nil {
			t.Fatal(err)
		}
		if code := get(remote); code != 200 {
			t.Errorf("Got(token revoked by another process, within the TTL) = %d, want 200 from the cache", code)
		}
		clock.Add(5 * time.Second)
		if code := get(remote); code != 401 {
			t.Errorf("Got(token revoked by another process, after the TTL) = %d, want 401", code)
		}
	})
}
