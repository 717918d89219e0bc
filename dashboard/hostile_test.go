package dashboard_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestHostileForms posts every write form of the dashboard, as a
// logged-in admin of guild A with a valid form token, the values a forged
// form can carry: another guild's match, player, webhook or integrity flag
// named in the path, values of the wrong type, out of range or overflowing, oversize
// and control-character text, webhook URLs in numeric disguise or on
// another port. Each answer is a 4xx page with a message and the database
// is unchanged. The OAuth callback, too, is refused without a session or
// a code spent when Discord's answer is an error, oversize or garbled.
// Both backends.
func TestHostileForms(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		ctx := context.Background()
		mine := recordMine(t, e)
		theirs, err := e.svc.RecordResult(ctx, ladder.ResultInput{GuildID: guildB, Team1: []string{"600000000000000011", "600000000000000012"},
			Team2: []string{"600000000000000013", "600000000000000014"}, Winner: 1, Source: "test"})
		if err != nil {
			t.Fatal(err)
		}
		hookB, err := e.svc.CreateWebhook(ctx, ladder.System, guildB, "https://hooks.example.com/b", []string{"match.confirmed"}, ladder.URLPolicy{})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := e.svc.CreateToken(ctx, ladder.System, guildB, "theirs"); err != nil {
			t.Fatal(err)
		}
		flagA, flagB := raiseFlags(t, e, guildA)[0].ID, raiseFlags(t, e, guildB)[0].ID
		b := e.browser(t)
		b.login(userAdmin, "/admin")
		token := b.csrf(queuePath(guildA))
		g := "/admin/guilds/" + guildA
		m, mb := fmt.Sprint(mine.Match.ID), fmt.Sprint(theirs.Match.ID)
		player := "600000000000000001"
		long := strings.Repeat("x", 5000)
		cases := []struct {
			name, path string
			form       url.Values
		}{
			{"resolve another guild's match", g + "/matches/" + mb + "/resolve", url.Values{"winner": {"2"}}},
			{"correct another guild's match", g + "/matches/" + mb + "/correct", url.Values{"winner": {"2"}}},
			{"void another guild's match", g + "/matches/" + mb + "/void", url.Values{}},
			{"correct to winner -1 (a void in disguise)", g + "/matches/" + m + "/correct", url.Values{"winner": {"-1"}}},
			{"correct to winner 7", g + "/matches/" + m + "/correct", url.Values{"winner": {"7"}}},
			{"correct to winner x", g + "/matches/" + m + "/correct", url.Values{"winner": {"x"}}},
			{"correct without a winner", g + "/matches/" + m + "/correct", url.Values{}},
			{"correct with a 5,000-character reason", g + "/matches/" + m + "/correct", url.Values{"winner": {"2"}, "reason": {long}}},
			{"void match abc", g + "/matches/abc/void", url.Values{}},
			{"void match -1", g + "/matches/-1/void", url.Values{}},
			{"void match 2^63", g + "/matches/9223372036854775808/void", url.Values{}},
			{"void with a 5,000-character reason", g + "/matches/" + m + "/void", url.Values{"reason": {long}}},
			{"void with a NUL in the reason", g + "/matches/" + m + "/void", url.Values{"reason": {"no\x00show"}}},
			{"resolve with a bidi override in the reason", g + "/matches/" + m + "/resolve", url.Values{"winner": {"2"}, "reason": {"fair\u202e"}}},
			{"rating with a NUL in the reason", g + "/players/" + player + "/rating", url.Values{"rating": {"1500"}, "rd": {"50"}, "reason": {"a\x00b"}}},
			{"ban with invalid UTF-8 in the reason", g + "/players/" + player + "/ban", url.Values{"reason": {"bad\xff"}}},
			{"ban for -5 hours", g + "/players/" + player + "/ban", url.Values{"hours": {"-5"}}},
			{"ban for 2^40 hours", g + "/players/" + player + "/ban", url.Values{"hours": {"1099511627776"}}},
			{"ban for x hours", g + "/players/" + player + "/ban", url.Values{"hours": {"x"}}},
			{"ban a player that is not an ID", g + "/players/bob/ban", url.Values{}},
			{"ban with a 5,000-character reason", g + "/players/" + player + "/ban", url.Values{"reason": {long}}},
			{"rating NaN", g + "/players/" + player + "/rating", url.Values{"rating": {"NaN"}, "rd": {"50"}}},
			{"rating +Inf", g + "/players/" + player + "/rating", url.Values{"rating": {"+Inf"}, "rd": {"50"}}},
			{"rating 1e400", g + "/players/" + player + "/rating", url.Values{"rating": {"1e400"}, "rd": {"50"}}},
			{"rd -1", g + "/players/" + player + "/rating", url.Values{"rating": {"1500"}, "rd": {"-1"}}},
			{"rating in an unknown queue", g + "/players/" + player + "/rating", url.Values{"rating": {"1500"}, "rd": {"50"}, "queue": {"nope"}}},
			{"rating of a player that is not an ID", g + "/players/%3C@1%3E/rating", url.Values{"rating": {"1500"}, "rd": {"50"}}},
			{"reset in an unknown queue", g + "/players/" + player + "/rating/reset", url.Values{"queue": {"nope"}}},
			{"queue q_start NaN", queuePath(guildA), url.Values{"q_start": {"NaN"}}},
			{"queue q_start 2", queuePath(guildA), url.Values{"q_start": {"2"}}},
			{"queue ready_window 2^62", queuePath(guildA), url.Values{"ready_window": {"4611686018427387904"}}},
			{"queue ready_window 5", queuePath(guildA), url.Values{"ready_window": {"5"}}},
			{"queue pick_mode draft", queuePath(guildA), url.Values{"pick_mode": {"draft"}}},
			{"queue cooldowns with a NUL", queuePath(guildA), url.Values{"cooldowns": {"5m\x00"}}},
			{"queue cancel_share -1", queuePath(guildA), url.Values{"cancel_share": {"-1"}}},
			{"another guild's queue", "/admin/guilds/" + guildB + "/queues/" + queueName, url.Values{"q_start": {"0.7"}}},
			{"queue map_pick draft", queuePath(guildA), url.Values{"map_pick": {"draft"}}},
			{"queue best_of 2", queuePath(guildA), url.Values{"best_of": {"2"}}},
			{"queue best_of 2^63", queuePath(guildA), url.Values{"best_of": {"9223372036854775808"}}},
			{"queue best_of x", queuePath(guildA), url.Values{"best_of": {"x"}}},
			{"queue series_rating maps", queuePath(guildA), url.Values{"series_rating": {"maps"}}},
			{"queue room tent", queuePath(guildA), url.Values{"room": {"tent"}}},
			{"queue room_category not an ID", queuePath(guildA), url.Values{"room_category": {"#matches"}}},
			{"queue lobby_voice with a NUL", queuePath(guildA), url.Values{"lobby_voice": {"300000000000000001\x00"}}},
			{"queue voice maybe", queuePath(guildA), url.Values{"voice": {"maybe"}}},
			{"queue voice without a room", queuePath(guildA), url.Values{"room": {"none"}, "voice": {"true"}}},
			{"queue room_linger -1", queuePath(guildA), url.Values{"room_linger": {"-1"}}},
			{"queue room_linger a day and a second", queuePath(guildA), url.Values{"room_linger": {"86401"}}},
			{"queue min_rating NaN", queuePath(guildA), url.Values{"min_rating": {"NaN"}}},
			{"queue max_rating below min_rating", queuePath(guildA), url.Values{"min_rating": {"1800"}, "max_rating": {"1500"}}},
			{"queue min_games -1", queuePath(guildA), url.Values{"min_games": {"-1"}}},
			{"queue required_role not an ID", queuePath(guildA), url.Values{"required_role": {"@everyone"}}},
			{"queue hours at 25:00", queuePath(guildA), url.Values{"hours": {"mon-fri 25:00-26:00"}}},
			{"queue hours of 10,000 characters", queuePath(guildA), url.Values{"hours": {strings.Repeat("mon 18:00-19:00; ", 600)}}},
			{"queue timezone on Mars", queuePath(guildA), url.Values{"timezone": {"Mars/Olympus"}}},
			{"queue rematch twice", queuePath(guildA), url.Values{"rematch": {"twice"}}},
			{"queue predictions yes", queuePath(guildA), url.Values{"predictions": {"yes"}}},
			{"queue mvp_vote 2", queuePath(guildA), url.Values{"mvp_vote": {"2"}}},
			{"queue good room with a bad best_of", queuePath(guildA), url.Values{"room": {"channel"}, "best_of": {"4"}}},
			{"roles: a division role that is not an ID", g + "/roles", url.Values{"division:Gold": {"@Gold"}}},
			{"roles: a badge role with a NUL", g + "/roles", url.Values{"badge:" + ladder.Badges[0]: {"300000000000000001\x00"}}},
			{"roles: a role of 25 digits", g + "/roles", url.Values{"division:Gold": {strings.Repeat("3", 25)}}},
			{"unban a player that is not an ID", g + "/players/bob/unban", url.Values{}},
			{"clear the cooldown of a player that is not an ID", g + "/players/%3C@1%3E/cooldown", url.Values{}},
			{"settings placement_games -1", g + "/settings", url.Values{"placement_games": {"-1"}}},
			{"settings placement_games 2^50", g + "/settings", url.Values{"placement_games": {"1125899906842624"}}},
			{"settings confirm_minutes 2^50", g + "/settings", url.Values{"confirm_minutes": {"1125899906842624"}}},
			{"settings season_carry NaN", g + "/settings", url.Values{"season_carry": {"NaN"}}},
			{"settings season_carry 2", g + "/settings", url.Values{"season_carry": {"2"}}},
			{"settings role that is not an ID", g + "/settings", url.Values{"role": {"everyone"}}},
			{"settings log channel of 25 digits", g + "/settings", url.Values{"log": {strings.Repeat("1", 25)}}},
			{"settings divisions with NaN", g + "/settings", url.Values{"divisions": {"Bronze:0, Gold:NaN"}}},
			// A division may become a role and is picked by an option of
			// at most 32 characters from at most 25 choices.
			{"settings division name of 33 characters", g + "/settings", url.Values{"divisions": {"Bronze:0, " + strings.Repeat("G", 33) + ":1500"}}},
			{"settings 26 divisions", g + "/settings", url.Values{"divisions": {manyDivisions(26)}}},
			{"settings schedule minute 61", g + "/settings", url.Values{"schedule": {"61 * * * *"}}},
			{"settings schedule on February 30", g + "/settings", url.Values{"schedule": {"0 0 30 2 *"}}},
			{"settings schedule with a NUL", g + "/settings", url.Values{"schedule": {"0 0 * * 1\x00"}}},
			{"end season x", g + "/season/end", url.Values{"season": {"x"}}},
			{"end a season that is not running", g + "/season/end", url.Values{"season": {"99"}}},
			{"token with an empty name", g + "/tokens", url.Values{"name": {""}}},
			{"token with a 500-character name", g + "/tokens", url.Values{"name": {strings.Repeat("t", 500)}}},
			{"token with a bidi override", g + "/tokens", url.Values{"name": {"ops\u202e"}}},
			{"revoke another guild's token", g + "/tokens/theirs/revoke", url.Values{}},
			{"webhook to a decimal address", g + "/webhooks", url.Values{"url": {"https://2130706433/"}, "events": {"match.confirmed"}}},
			{"webhook to a hex address", g + "/webhooks", url.Values{"url": {"https://0x7f000001/"}, "events": {"match.confirmed"}}},
			{"webhook to an octal address", g + "/webhooks", url.Values{"url": {"https://0177.0.0.1/"}, "events": {"match.confirmed"}}},
			{"webhook to a short address", g + "/webhooks", url.Values{"url": {"https://10.1/"}, "events": {"match.confirmed"}}},
			{"webhook to a v4-compatible address", g + "/webhooks", url.Values{"url": {"https://[::127.0.0.1]/"}, "events": {"match.confirmed"}}},
			{"webhook on port 6379", g + "/webhooks", url.Values{"url": {"https://hooks.example.com:6379/"}, "events": {"match.confirmed"}}},
			{"webhook over http", g + "/webhooks", url.Values{"url": {"http://hooks.example.com/"}, "events": {"match.confirmed"}}},
			{"webhook of an unknown event", g + "/webhooks", url.Values{"url": {"https://hooks.example.com/"}, "events": {"match.exploded"}}},
			{"webhook URL with a newline", g + "/webhooks", url.Values{"url": {"https://hooks.example.com/\nHost: evil"}, "events": {"match.confirmed"}}},
			{"delete another guild's webhook", g + "/webhooks/" + fmt.Sprint(hookB.ID) + "/delete", url.Values{}},
			{"delete webhook x", g + "/webhooks/x/delete", url.Values{}},
			{"dismiss another guild's flag", fmt.Sprintf("%s/integrity/%d/dismiss", g, flagB), url.Values{}},
			{"dismiss flag abc", g + "/integrity/abc/dismiss", url.Values{}},
			{"dismiss flag -1", g + "/integrity/-1/dismiss", url.Values{}},
			{"dismiss flag 0", g + "/integrity/0/dismiss", url.Values{}},
			{"dismiss flag 2^63", g + "/integrity/9223372036854775808/dismiss", url.Values{}},
			{"dismiss a flag that does not exist", g + "/integrity/999999/dismiss", url.Values{}},
			{"dismiss with a NUL in the reason", fmt.Sprintf("%s/integrity/%d/dismiss", g, flagA), url.Values{"reason": {"a\x00b"}}},
			{"dismiss with a bidi override in the reason", fmt.Sprintf("%s/integrity/%d/dismiss", g, flagA), url.Values{"reason": {"fine\u202e"}}},
			{"dismiss with invalid UTF-8 in the reason", fmt.Sprintf("%s/integrity/%d/dismiss", g, flagA), url.Values{"reason": {"bad\xff"}}},
			{"dismiss with a 201-character reason", fmt.Sprintf("%s/integrity/%d/dismiss", g, flagA), url.Values{"reason": {strings.Repeat("é", 201)}}},
			{"dismiss with a 5,000-character reason", fmt.Sprintf("%s/integrity/%d/dismiss", g, flagA), url.Values{"reason": {long}}},
		}
		before, err := testdb.TakeSnapshot(ctx, e.db.SQL(), e.db.Dialect())
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				c.form.Set("csrf", token)
				p := b.post(c.path, c.form)
				if p.status < 400 || p.status > 499 || !strings.Contains(p.body, "<") {
					t.Errorf("Got(POST %s) = %d %.300s, want a 4xx page with a message", c.path, p.status, p.body)
				}
			})
		}
		after, err := testdb.TakeSnapshot(ctx, e.db.SQL(), e.db.Dialect())
		if err != nil {
			t.Fatal(err)
		}
		// The session's last-seen time moves with every request.
		if diff := slices.DeleteFunc(before.Diff(after), func(d string) bool { return strings.HasPrefix(d, "dashboard_sessions:") }); len(diff) > 0 {
			t.Errorf("refused forms changed the database: %v", diff)
		}

		// Concurrent duplicates: a double-clicked (or replayed) form counts
		// once — one correction, one token of a name.
		// The same session's cookies, a client of its own per request (the
		// browser helper records its visits and is not for concurrent use).
		burst := func(path string, form url.Values) []int {
			form.Set("csrf", token)
			codes := make([]int, 8)
			var wg sync.WaitGroup
			for i := range codes {
				wg.Go(func() {
					req, _ := http.NewRequest(http.MethodPost, e.srv.URL+path, strings.NewReader(form.Encode()))
					req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
					req.Header.Set("Origin", e.srv.URL)
					req.Header.Set("Sec-Fetch-Site", "same-origin")
					resp, err := (&http.Client{Jar: b.client.Jar}).Do(req)
					if err != nil {
						return
					}
					resp.Body.Close()
					codes[i] = resp.StatusCode
				})
			}
			wg.Wait()
			return codes
		}
		audits := func(action string) int {
			es, err := e.svc.Audit(ctx, guildA, 500)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, a := range es {
				if a.Action == action {
					n++
				}
			}
			return n
		}
		codes := burst(g+"/matches/"+m+"/correct", url.Values{"winner": {"2"}, "reason": {"double click"}})
		if n := audits("match.correct"); n != 1 {
			t.Errorf("Got(corrections after 8 concurrent posts) = %d (answers %v), want 1", n, codes)
		}
		if got, err := e.svc.Match(ctx, guildA, mine.Match.ID); err != nil || got.Winner != 2 {
			t.Errorf("Got(winner) = %d, %v, want 2", got.Winner, err)
		}
		codes = burst(fmt.Sprintf("%s/integrity/%d/dismiss", g, flagA), url.Values{"reason": {"double click"}})
		if n := audits("integrity.dismiss"); n != 1 {
			t.Errorf("Got(dismissals after 8 concurrent posts) = %d (answers %v), want 1", n, codes)
		}
		codes = burst(g+"/tokens", url.Values{"name": {"server-1"}})
		toks, err := e.svc.ListTokens(ctx, guildA)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(slices.DeleteFunc(toks, func(tk ladder.Token) bool { return tk.Name != "server-1" })); n != 1 {
			t.Errorf("Got(tokens named server-1 after 8 concurrent posts) = %d (answers %v), want 1", n, codes)
		}

		// The OAuth callback, answered by Discord (or a forger) with an
		// error or garbage: refused, no session, no code spent.
		exchanges := e.fake.OAuth().Exchanges
		for name, query := range map[string]string{
			"access denied":         "error=access_denied&error_description=The+user+denied",
			"an oversize code":      "code=" + strings.Repeat("c", 8000) + "&state=x",
			"a code with a NUL":     "code=ab%00cd&state=x",
			"a state with newlines": "code=abc&state=a%0D%0ASet-Cookie:+x=y",
			"two codes":             "code=a&code=b&state=x",
		} {
			t.Run("callback with "+name, func(t *testing.T) {
				fresh := e.browser(t)
				p := fresh.get("/admin/callback?" + query)
				if p.status < 400 || p.status > 499 {
					t.Errorf("Got(callback) = %d %.300s, want a 4xx", p.status, p.body)
				}
				if c := fresh.cookie(); c != nil {
					t.Errorf("Got(session cookie after a refused callback) = %s, want none", c.Name)
				}
				if strings.Contains(p.header.Get("Set-Cookie"), "x=y") {
					t.Errorf("Got(header injection) = %q", p.header.Get("Set-Cookie"))
				}
			})
		}
		// A callback with the state another browser was given, and a
		// replay of a callback that logged in: refused, no code spent.
		other := e.browser(t)
		e.fake.LogInBrowser(userAdmin)
		start := other.peek("/admin/login")
		loc, err := url.Parse(start.header.Get("Location"))
		if err != nil || loc.Query().Get("state") == "" {
			t.Fatalf("Got(login redirect) = %q, %v, want Discord's authorize URL with a state", start.header.Get("Location"), err)
		}
		if p := e.browser(t).get("/admin/callback?code=abc&state=" + url.QueryEscape(loc.Query().Get("state"))); p.status != http.StatusBadRequest {
			t.Errorf("Got(callback with another browser's state) = %d %.300s, want 400", p.status, p.body)
		}
		i := slices.IndexFunc(b.visited, func(u string) bool { return strings.Contains(u, "/admin/callback?") })
		if i < 0 {
			t.Fatalf("Got(visited) = %v, want the login's callback", b.visited)
		}
		if p := b.get(b.visited[i]); p.status != http.StatusBadRequest {
			t.Errorf("Got(replayed callback) = %d %.300s, want 400", p.status, p.body)
		}
		if got := e.fake.OAuth().Exchanges; got != exchanges {
			t.Errorf("Got(code exchanges) = %d, want %d: a refused callback must not spend a code", got, exchanges)
		}
		if p := b.get(g + "/"); p.status != http.StatusOK {
			t.Errorf("Got(overview after the hostile forms) = %d, want the admin still logged in", p.status)
		}
	})
}

// manyDivisions is a divisions setting of n divisions, D1:0, D2:100, ….
// recordMine records the rated match of guild A that the hostile tables
// aim their forms at.
func recordMine(t *testing.T, e *env) ladder.MatchResult {
	t.Helper()
	mine, err := e.svc.RecordResult(context.Background(), ladder.ResultInput{GuildID: guildA, Team1: []string{"600000000000000001", "600000000000000002"},
		Team2: []string{"600000000000000003", "600000000000000004"}, Winner: 1, Source: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return mine
}

func manyDivisions(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf("D%d:%d", i+1, 100*i)
	}
	return strings.Join(parts, ", ")
}

// TestWrongMethod: a method a dashboard address does not take (a PUT or
// DELETE on a page, a GET of a form's address, as a careless client or a
// reloaded link sends them) answers 405 with the methods it takes in
// Allow and a page saying so, not "no dashboard page here"; it changes
// nothing, and an address that is not the dashboard's is still a 404.
// Both backends.
func TestWrongMethod(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		ctx := context.Background()
		mine := recordMine(t, e)
		b := e.browser(t)
		b.login(userAdmin, "/admin")
		g := "/admin/guilds/" + guildA
		m := fmt.Sprint(mine.Match.ID)
		cases := []struct {
			method, path, allow string
		}{
			{"PUT", g + "/", "GET, HEAD"},
			{"DELETE", g + "/audit", "GET, HEAD"},
			{"PATCH", g + "/matches/" + m, "GET, HEAD"},
			{"POST", g + "/players", "GET, HEAD"},
			{"PUT", g + "/settings", "GET, HEAD, POST"},
			{"DELETE", queuePath(guildA), "GET, HEAD, POST"},
			{"PUT", "/admin/logout", "GET, HEAD, POST"},
			{"POST", "/admin/login", "GET, HEAD"},
			{"GET", g + "/season/end", "POST"},
			{"GET", g + "/tokens", "POST"},
			{"GET", g + "/matches/" + m + "/void", "POST"},
			{"GET", g + "/players/600000000000000001/ban", "POST"},
			{"DELETE", g + "/webhooks/1/delete", "POST"},
		}
		before, err := testdb.TakeSnapshot(ctx, e.db.SQL(), e.db.Dialect())
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			t.Run(c.method+" "+c.path, func(t *testing.T) {
				req, _ := http.NewRequest(c.method, b.abs(c.path), nil)
				req.Header.Set("Origin", e.srv.URL)
				p := b.noFollow(func() page { return b.do(req) })
				if p.status != http.StatusMethodNotAllowed || p.header.Get("Allow") != c.allow {
					t.Errorf("Got(%s %s) = %d, Allow %q; want 405, Allow %q", c.method, c.path, p.status, p.header.Get("Allow"), c.allow)
				}
				if !strings.Contains(p.body, c.allow) || strings.Contains(p.body, "No dashboard page here") {
					t.Errorf("Got(%s %s page) = %.400s, want it to name %s", c.method, c.path, p.body, c.allow)
				}
				if p.header.Get("Cache-Control") != "no-store" {
					t.Errorf("Got(Cache-Control) = %q, want no-store", p.header.Get("Cache-Control"))
				}
			})
		}
		after, err := testdb.TakeSnapshot(ctx, e.db.SQL(), e.db.Dialect())
		if err != nil {
			t.Fatal(err)
		}
		if diff := slices.DeleteFunc(before.Diff(after), func(d string) bool { return strings.HasPrefix(d, "dashboard_sessions:") }); len(diff) > 0 {
			t.Errorf("wrong methods changed the database: %v", diff)
		}
		for _, path := range []string{"/admin/nope", g + "/nope", g + "/season/end/x"} {
			req, _ := http.NewRequest(http.MethodPut, b.abs(path), nil)
			if p := b.do(req); p.status != http.StatusNotFound {
				t.Errorf("Got(PUT %s) = %d, want 404", path, p.status)
			}
		}
	})
}
