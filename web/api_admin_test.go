package web

import (
	"encoding/json"
	"io"
	"math"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/ladder"
)

func TestBalanceAPI(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		seedFixture(t, e)
		tok := newToken(t, e, guildG, "server")
		post := func(body string) map[string]any {
			t.Helper()
			rec := call(e, "POST", "/api/v1/guilds/"+guildG+"/balance", body, "Authorization", "Bearer "+tok)
			if rec.Code != 200 {
				t.Fatalf("Got(POST balance %s) = %d %s, want 200", body, rec.Code, rec.Body)
			}
			var v map[string]any
			_ = json.Unmarshal(rec.Body.Bytes(), &v)
			return v
		}
		// IDs take their current ratings: Alice 1900, Bob 1800, Cleo 1700,
		// Dan 1600; 1900+1600 = 1800+1700, a perfect split.
		got := post(`{"players":["1001","1002","1003","1004"]}`)
		a, b := strs(got["a"]), strs(got["b"])
		if got["gap"] != 0.0 || got["team_size"] != 2.0 || got["exact"] != true {
			t.Errorf("Got(balance) = %v, want gap 0, team size 2, exact", got)
		}
		if !(slices.Equal(a, []string{"1001", "1004"}) && slices.Equal(b, []string{"1002", "1003"}) ||
			slices.Equal(b, []string{"1001", "1004"}) && slices.Equal(a, []string{"1002", "1003"})) {
			t.Errorf("Got(teams) = %v vs %v, want {1001,1004} vs {1002,1003}", a, b)
		}
		if r := nums(got["ratings"]); !slices.Equal(r, []float64{1900, 1800, 1700, 1600}) {
			t.Errorf("Got(ratings) = %v, want the stored ratings", r)
		}
		// Mixed IDs and bare ratings; five players: one sits out. An unknown
		// ID plays at the new-player rating 1500.
		got = post(`{"players":["1001", 1000, 1100, "4242", 2000],"team_size":2}`)
		if out := got["sit_out"].([]any); len(out) != 1 {
			t.Errorf("Got(sit_out) = %v, want one player", got["sit_out"])
		}
		if r := nums(got["ratings"]); !slices.Equal(r, []float64{1900, 1000, 1100, 1500, 2000}) {
			t.Errorf("Got(ratings) = %v, want 1900 1000 1100 1500 2000", r)
		}
		got = post(`{"players":[1500,1510,1490,1600,1400,1550],"all_sizes":true}`)
		if splits, _ := got["splits"].([]any); len(splits) != 2 {
			t.Errorf("Got(all_sizes splits) = %v, want sizes 2 and 3", got["splits"])
		}
		tests := []struct {
			name, body string
			msg        string
		}{
			{"one player", `{"players":["1001"]}`, "2 to 64"},
			{"no players", `{}`, "2 to 64"},
			{"too many", `{"players":[` + strings.TrimSuffix(strings.Repeat("1500,", 65), ",") + `]}`, "2 to 64"},
			{"boolean player", `{"players":[true,1500]}`, "player 1"},
			{"object player", `{"players":[1500,{"id":"1"}]}`, "player 2"},
			{"team too big", `{"players":[1,2,3,4],"team_size":3}`, "team size"},
			{"unknown field", `{"players":[1,2],"mode":"x"}`, "unknown field"},
			{"bad id", `{"players":["a,b",1500]}`, "player ID"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				wantError(t, call(e, "POST", "/api/v1/guilds/"+guildG+"/balance", tt.body, "Authorization", "Bearer "+tok), 400, tt.msg)
			})
		}
	})
}

func strs(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		s, _ := x.(string)
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

func nums(v any) []float64 {
	var out []float64
	for _, x := range v.([]any) {
		f, _ := x.(float64)
		out = append(out, f)
	}
	return out
}

func TestAdminRatingAPI(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		seedFixture(t, e)
		tok := newToken(t, e, guildG, "admin-tool")
		auth := []string{"Authorization", "Bearer " + tok}
		const base = "/api/v1/guilds/" + guildG + "/admin/players/"

		got := decode[adminRatingJSON](t, call(e, "GET", base+"1005/rating", "", auth...))
		if got.ID != "1005" || got.Name != "Eve" || got.Rating != 1500 || got.RD != 150 || !got.Provisional {
			t.Errorf("Got(GET rating 1005) = %+v, want Eve 1500 ± 150 provisional", got)
		}
		if fresh := decode[adminRatingJSON](t, call(e, "GET", base+"777/rating", "", auth...)); fresh.Rating != 1500 || fresh.RD != 130 || fresh.Games != 0 {
			t.Errorf("Got(GET rating of an unknown player) = %+v, want the new-player 1500 ± 130", fresh)
		}

		rec := call(e, "PUT", base+"1005/rating", `{"rating":1650.5,"rd":80,"reason":"smurf"}`, auth...)
		if rec.Code != 200 {
			t.Fatalf("Got(PUT rating) = %d %s", rec.Code, rec.Body)
		}
		adj := decode[adjustResponse](t, rec)
		if adj.Before.Rating != 1500 || adj.After.Rating != 1650.5 || adj.After.RD != 80 || adj.After.Provisional || adj.After.Name != "Eve" {
			t.Errorf("Got(PUT rating) = %+v, want 1500 → 1650.5 ± 80, listed", adj)
		}
		// Eve now shows on the leaderboard, between Cleo and Dan.
		lb := decode[leaderboardJSON](t, call(e, "GET", "/api/v1/guilds/"+guildG+"/leaderboard", ""))
		if len(lb.Players) != 5 || lb.Players[3].ID != "1005" || lb.Players[3].Rank != 4 {
			t.Errorf("Got(leaderboard after set) = %+v, want Eve 4th", lb.Players)
		}
		// A reason is prose: it may run over lines, as the dashboard's and
		// Discord's forms allow (ladder.CheckReason); every other string
		// in a body stays on one line.
		rec = call(e, "POST", base+"1005/rating/reset", `{"reason":"appeal\n\tticket 12"}`, auth...)
		adj = decode[adjustResponse](t, rec)
		if rec.Code != 200 || adj.Before.Rating != 1650.5 || adj.After.Rating != 1500 || adj.After.RD != 130 {
			t.Errorf("Got(reset) = %d %+v, want 1650.5 → 1500 ± 130", rec.Code, adj)
		}
		if rec := call(e, "POST", base+"1001/rating/reset", "", auth...); rec.Code != 200 {
			t.Errorf("Got(reset without a body) = %d %s, want 200", rec.Code, rec.Body)
		}
		// The audit log names the token.
		audit, err := e.svc.Audit(t.Context(), guildG, 10)
		mustf(t, err, "Audit")
		if len(audit) == 0 || audit[0].ActorID != "api:admin-tool" {
			t.Errorf("Got(latest audit actor) = %+v, want api:admin-tool", audit[:min(1, len(audit))])
		}
		if len(audit) < 2 || audit[1].Reason != "appeal\n\tticket 12" {
			t.Errorf("Got(audit of the reset) = %+v, want the reason on its two lines", audit[:min(2, len(audit))])
		}
		// The same empty body sent chunked, as clients that stream their
		// body do (no Content-Length): still no body, not an empty JSON
		// document.
		r := httptest.NewRequest("POST", base+"1002/rating/reset", io.MultiReader())
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Authorization", "Bearer "+tok)
		chunked := httptest.NewRecorder()
		e.srv.Handler().ServeHTTP(chunked, r)
		if r.ContentLength != -1 || chunked.Code != 200 {
			t.Errorf("Got(reset with an empty chunked body) = %d %s (length %d), want 200", chunked.Code, chunked.Body, r.ContentLength)
		}
		tests := []struct {
			name, method, path, body string
			status                   int
			msg                      string
		}{
			{"set without rd", "PUT", base + "1001/rating", `{"rating":1500}`, 400, "required"},
			{"set NaN-ish", "PUT", base + "1001/rating", `{"rating":1e400,"rd":50}`, 400, ""},
			{"set negative rd", "PUT", base + "1001/rating", `{"rating":1500,"rd":-1}`, 400, "RD"},
			{"set unknown queue", "PUT", base + "1001/rating", `{"rating":1500,"rd":50,"queue":"1v1"}`, 404, ""},
			{"set unknown field", "PUT", base + "1001/rating", `{"rating":1500,"rd":50,"mu":3}`, 400, "unknown field"},
			{"reset bad body", "POST", base + "1001/rating/reset", `{"queue":`, 400, "truncated"},
			{"get bad id", "GET", base + "a%2Cb/rating", "", 400, "player ID"},
			{"wrong method", "DELETE", base + "1001/rating", "", 405, "use GET or PUT"},
			{"line break in queue", "PUT", base + "1001/rating", `{"rating":1500,"rd":50,"queue":"2v2\n"}`, 400, "control character U+000A"},
			{"line break in a key", "PUT", base + "1001/rating", `{"rating":1500,"rd":50,"re\nason":"x"}`, 400, "control character U+000A"},
			{"NUL in a reason", "PUT", base + "1001/rating", `{"rating":1500,"rd":50,"reason":"a\nb\u0000"}`, 400, "control character U+0000"},
			{"bidi in a reason", "POST", base + "1001/rating/reset", `{"reason":"a\n\u202e"}`, 400, "bidirectional control U+202E"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) { wantError(t, call(e, tt.method, tt.path, tt.body, auth...), tt.status, tt.msg) })
		}
	})
}

func TestPoolHealthAPI(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		f := seedFixture(t, e)
		tok := newToken(t, e, guildG, "ops")
		auth := []string{"Authorization", "Bearer " + tok}
		// The Brier score from the matches' own pre-match predictions (seed 001 F6).
		brier := func(ids []int64) float64 {
			sum := 0.0
			for _, id := range ids {
				m := decode[matchJSON](t, call(e, "GET", "/api/v1/guilds/"+guildG+"/matches/"+itoa64(id), ""))
				sum += math.Pow(m.PTeam1-ladder.Score(*m.Winner), 2)
			}
			return sum / float64(len(ids))
		}
		got := decode[healthJSON](t, call(e, "GET", "/api/v1/guilds/"+guildG+"/admin/health", "", auth...))
		if got.Matches != 4 || got.Season != 1 || got.Queue != "2v2" || got.Target != 0.25 || math.Abs(got.Brier-brier(f.matchIDs)) > 1e-12 {
			t.Errorf("Got(health) = %+v, want 4 matches, Brier %v", got, brier(f.matchIDs))
		}
		got = decode[healthJSON](t, call(e, "GET", "/api/v1/guilds/"+guildG+"/admin/health?n=2", "", auth...))
		if got.Matches != 2 || math.Abs(got.Brier-brier(f.matchIDs[2:])) > 1e-12 {
			t.Errorf("Got(health n=2) = %+v, want the latest 2 matches, Brier %v", got, brier(f.matchIDs[2:]))
		}
		wantError(t, call(e, "GET", "/api/v1/guilds/"+guildG+"/admin/health?n=0", "", auth...), 400, "n must")
		wantError(t, call(e, "GET", "/api/v1/guilds/"+guildG+"/admin/health?queue=nope", "", auth...), 404, "")
	})
}
