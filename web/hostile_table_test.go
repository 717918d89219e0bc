package web

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
)

// hostileCase is one crafted request of TestHostileInputTable.
type hostileCase struct {
	name, method, path, body string
	auth                     bool
	// status, when set, is the exact answer wanted (405 for bad methods);
	// otherwise any 4xx will do.
	status int
}

// TestHostileInputTable sends every class of hostile input to
// every API and page route, on both backends: NUL, C0 and C1 controls, DEL,
// bidi overrides and isolates, invalid UTF-8 (percent-encoded in paths and
// queries, raw bytes and lone surrogate escapes in bodies), repeated JSON
// keys, methods a route does not take, forged cursors and non-canonical
// IDs. Each must answer a 4xx (never a 5xx, never success) and leave the
// database exactly as it was: same matches, same ratings, same everything.
func TestHostileInputTable(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{Metrics: NewMetrics(), AuthFailureRate: -1, RatePerToken: -1})
		f := seedFixture(t, e)
		tok := newToken(t, e, guildG, "game-server")
		ctx := context.Background()
		g := "/api/v1/guilds/" + guildG
		m1 := fmt.Sprint(f.matchIDs[0])

		// Hostile spellings of an identifier, as they appear in a URL.
		badInURL := map[string]string{
			"NUL":            "10%0001",
			"U+0001":         "10%0101",
			"newline":        "10%0A01",
			"DEL":            "10%7F01",
			"C1 U+0085":      "10%C2%8501",
			"bidi RLO":       "10%E2%80%AE01",
			"bidi LRI":       "10%E2%81%A601",
			"invalid UTF-8":  "10%FF01",
			"overlong slash": "10%C0%AF01",
		}
		// The same classes inside a JSON string, spelled as JSON allows.
		badInJSON := map[string]string{
			"NUL":             `10\u000001`,
			"U+0001":          `10\u000101`,
			"DEL":             "10\x7f01",
			"C1 U+0085":       `10\u008501`,
			"bidi RLO":        `10\u202e01`,
			"bidi PDI":        "10\u206901",
			"invalid UTF-8":   "10\xff01",
			"lone surrogate":  `10\ud80001`,
			"low surrogate":   `10\udc0001`,
			"truncated UTF-8": "10\xe2\x8201",
		}
		var tests []hostileCase
		add := func(c hostileCase) { tests = append(tests, c) }
		for class, id := range badInURL {
			// Every route with an identifier in its path or query.
			for _, p := range []string{
				"/api/v1/guilds/" + id + "/leaderboard",
				g + "/leaderboard?queue=" + id,
				g + "/leaderboard?division=" + id,
				g + "/leaderboard?after=" + id,
				g + "/players/" + id,
				g + "/players/1001?queue=" + id,
				g + "/matches/" + id,
				g + "/matches.csv?queue=" + id,
				"/guilds/" + id,
				"/guilds/" + guildG + "?queue=" + id,
				"/guilds/" + guildG + "/players/" + id,
				"/guilds/" + guildG + "/matches/" + id,
				g + "/admin/players/" + id + "/rating",
				g + "/admin/health?queue=" + id,
			} {
				add(hostileCase{name: class + " GET " + p, method: "GET", path: p, auth: true})
			}
			add(hostileCase{name: class + " POST matches path", method: "POST", path: "/api/v1/guilds/" + id + "/matches", body: `{"team1":["1001","1002"],"team2":["1003","1004"],"winner":1}`, auth: true})
			add(hostileCase{name: class + " PUT rating path", method: "PUT", path: g + "/admin/players/" + id + "/rating", body: `{"rating":1500,"rd":50}`, auth: true})
			add(hostileCase{name: class + " reset path", method: "POST", path: g + "/admin/players/" + id + "/rating/reset", auth: true})
			add(hostileCase{name: class + " balance path", method: "POST", path: "/api/v1/guilds/" + id + "/balance", body: `{"players":[1500,1600]}`, auth: true})
		}
		for class, id := range badInJSON {
			for _, b := range []struct{ what, method, path, body string }{
				{"team player", "POST", g + "/matches", `{"team1":["` + id + `","1002"],"team2":["1003","1004"],"winner":1}`},
				{"queue", "POST", g + "/matches", `{"team1":["1001","1002"],"team2":["1003","1004"],"winner":1,"queue":"` + id + `"}`},
				{"played_at", "POST", g + "/matches", `{"team1":["1001","1002"],"team2":["1003","1004"],"winner":1,"played_at":"` + id + `"}`},
				{"key", "POST", g + "/matches", `{"team1":["1001","1002"],"team2":["1003","1004"],"winner":1,"` + id + `":1}`},
				{"balance player", "POST", g + "/balance", `{"players":["` + id + `","1002"]}`},
				{"balance queue", "POST", g + "/balance", `{"players":[1500,1600],"queue":"` + id + `"}`},
				{"set queue", "PUT", g + "/admin/players/1001/rating", `{"rating":1500,"rd":50,"queue":"` + id + `"}`},
				{"set reason", "PUT", g + "/admin/players/1001/rating", `{"rating":1500,"rd":50,"reason":"` + id + `"}`},
				{"reset reason", "POST", g + "/admin/players/1001/rating/reset", `{"reason":"` + id + `"}`},
			} {
				add(hostileCase{name: class + " in " + b.what, method: b.method, path: b.path, body: b.body, auth: true})
			}
		}
		// Repeated keys, on every route that takes a body.
		for _, b := range []struct{ what, method, path, body string }{
			{"winner", "POST", g + "/matches", `{"team1":["1001","1002"],"team2":["1003","1004"],"winner":1,"winner":2}`},
			{"team1", "POST", g + "/matches", `{"team1":["1001","1002"],"team1":["1005","1006"],"team2":["1003","1004"],"winner":1}`},
			{"players", "POST", g + "/balance", `{"players":[1500,1600],"players":[1,2]}`},
			{"rating", "PUT", g + "/admin/players/1001/rating", `{"rating":1500,"rd":50,"rating":9}`},
			{"queue", "POST", g + "/admin/players/1001/rating/reset", `{"queue":"","queue":"2v2"}`},
		} {
			add(hostileCase{name: "duplicate key " + b.what, method: b.method, path: b.path, body: b.body, auth: true})
		}
		// Methods a route does not take: pages and probes only read.
		for _, p := range []string{"/healthz", "/readyz", "/metrics", "/guilds/" + guildG, "/guilds/" + guildG + "/players/1001", "/guilds/" + guildG + "/matches/" + m1, "/"} {
			for _, method := range []string{"POST", "PUT", "DELETE", "PATCH"} {
				add(hostileCase{name: method + " " + p, method: method, path: p, status: http.StatusMethodNotAllowed})
			}
		}
		for _, p := range []string{g + "/leaderboard", g + "/players/1001", g + "/matches/" + m1, g + "/matches.csv", g + "/admin/health"} {
			add(hostileCase{name: "DELETE " + p, method: "DELETE", path: p, auth: true, status: http.StatusMethodNotAllowed})
		}
		add(hostileCase{name: "GET matches", method: "GET", path: g + "/matches", auth: true, status: http.StatusMethodNotAllowed})
		add(hostileCase{name: "GET balance", method: "GET", path: g + "/balance", auth: true, status: http.StatusMethodNotAllowed})
		// Forged cursors, on the API and the page.
		enc := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
		for name, c := range map[string]string{
			"huge rank":     enc("9223372036854775807|1500|1001"),
			"rank 0":        enc("0|1500|1001"),
			"NaN display":   enc("3|NaN|1001"),
			"Inf display":   enc("3|-Inf|1001"),
			"huge display":  enc("3|1e308|1001"),
			"garbage":       "%21%21%21",
			"NUL user":      enc("3|1500|10\x0001"),
			"padded base64": enc("3|1500|1001") + "==",
		} {
			add(hostileCase{name: "cursor " + name, method: "GET", path: g + "/leaderboard?after=" + c})
			add(hostileCase{name: "page cursor " + name, method: "GET", path: "/guilds/" + guildG + "?after=" + c})
		}
		// Non-canonical numeric IDs alias nothing.
		for _, id := range []string{"+" + m1, "0" + m1, m1 + ".0", " " + m1, m1 + "%20", "0x" + m1, "1e0"} {
			id = strings.ReplaceAll(strings.ReplaceAll(id, " ", "%20"), "+", "%2B")
			add(hostileCase{name: "match ID " + id, method: "GET", path: g + "/matches/" + id})
			add(hostileCase{name: "match page ID " + id, method: "GET", path: "/guilds/" + guildG + "/matches/" + id})
		}
		for _, gid := range []string{"0" + guildG, "%2B" + guildG} {
			add(hostileCase{name: "guild ID " + gid, method: "GET", path: "/api/v1/guilds/" + gid + "/leaderboard"})
			add(hostileCase{name: "guild page ID " + gid, method: "GET", path: "/guilds/" + gid})
			add(hostileCase{name: "record in guild " + gid, method: "POST", path: "/api/v1/guilds/" + gid + "/matches", body: `{"team1":["1001","1002"],"team2":["1003","1004"],"winner":1}`, auth: true})
		}
		// Dates, balance queue and admin bounds.
		for _, at := range []string{"0001-01-01T00:00:00Z", "0000-01-01T00:00:00Z", "1900-01-01T00:00:00Z", "1969-12-31T23:59:59Z", "9999-12-31T23:59:59Z", "2999-01-01T00:00:00Z"} {
			add(hostileCase{name: "played_at " + at, method: "POST", path: g + "/matches", body: `{"team1":["1001","1002"],"team2":["1003","1004"],"winner":1,"played_at":"` + at + `"}`, auth: true})
		}
		add(hostileCase{name: "balance numbers in an unknown queue", method: "POST", path: g + "/balance", body: `{"players":[1500,1600,1700,1800],"queue":"nope"}`, auth: true, status: http.StatusNotFound})
		for _, rr := range []string{`"rating":1500,"rd":9999`, `"rating":1500,"rd":351`, `"rating":1500,"rd":24`, `"rating":1500,"rd":0`, `"rating":1e6,"rd":50`, `"rating":-2000,"rd":50`} {
			add(hostileCase{name: "set " + rr, method: "PUT", path: g + "/admin/players/1001/rating", body: "{" + rr + "}", auth: true})
		}

		before, err := testdb.TakeSnapshot(ctx, e.db.SQL(), e.db.Dialect())
		if err != nil {
			t.Fatal(err)
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				var r *http.Request
				if tt.body == "" {
					r = httptest.NewRequest(tt.method, tt.path, nil)
				} else {
					r = httptest.NewRequest(tt.method, tt.path, strings.NewReader(tt.body))
					r.Header.Set("Content-Type", "application/json")
				}
				if tt.auth {
					r.Header.Set("Authorization", "Bearer "+tok)
				}
				rec := httptest.NewRecorder()
				e.srv.Handler().ServeHTTP(rec, r)
				switch {
				case tt.status != 0 && rec.Code != tt.status:
					t.Errorf("Got(%s %s) = %d (%.200s), want %d", tt.method, tt.path, rec.Code, rec.Body, tt.status)
				case rec.Code < 400 || rec.Code >= 500:
					t.Errorf("Got(%s %s) = %d (%.200s), want a 4xx", tt.method, tt.path, rec.Code, rec.Body)
				}
				if rec.Code == http.StatusMethodNotAllowed && rec.Header().Get("Allow") == "" {
					t.Errorf("Got(Allow) = %q, want the methods the route takes", rec.Header().Get("Allow"))
				}
			})
		}
		after, err := testdb.TakeSnapshot(ctx, e.db.SQL(), e.db.Dialect())
		if err != nil {
			t.Fatal(err)
		}
		if diff := before.Diff(after); len(diff) > 0 {
			t.Errorf("refused requests changed the database: %v", diff)
		}
		// And the canonical spellings still work, so the table tests the
		// refusal, not a broken route.
		for _, p := range []string{g + "/matches/" + m1, "/guilds/" + guildG + "/matches/" + m1, g + "/leaderboard", "/guilds/" + guildG, "/healthz", "/metrics"} {
			if rec := call(e, "GET", p, ""); rec.Code != 200 {
				t.Errorf("Got(GET %s) = %d, want 200", p, rec.Code)
			}
		}
		if rec := call(e, "POST", g+"/balance", `{"players":[1500,1600,1700,1800]}`, "Authorization", "Bearer "+tok); rec.Code != 200 {
			t.Errorf("Got(balance of numbers) = %d %s, want 200", rec.Code, rec.Body)
		}
	})
}
