package dashboard_test

import (
	"context"
	"crypto/sha256"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestLogin: the whole authorization-code flow through the fake Discord,
// which insists on PKCE S256 and checks the verifier: the user lands on
// the page asked for, logged in, with a session cookie that scripts
// cannot read and other sites' requests do not carry, rotated at login.
func TestLogin(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		b := e.browser(t)
		p := b.get("/admin")
		if !strings.Contains(p.body, `href="/admin/login"`) {
			t.Fatalf("GET /admin logged out: no login link in %.300s", p.body)
		}
		e.fake.LogInBrowser(userAdmin)
		p = b.get("/admin/login?next=" + url.QueryEscape(queuePath(guildA)))
		if p.status != http.StatusOK || p.url.Path != queuePath(guildA) {
			t.Fatalf("Got(login) = %d at %s, want 200 at %s: %.300s", p.status, p.url.Path, queuePath(guildA), p.body)
		}
		if !strings.Contains(p.body, `name="q_start"`) || !strings.Contains(p.body, "ada") {
			t.Errorf("Got(queue page) lacks the q_start field or the user's name: %.500s", p.body)
		}
		st := e.fake.OAuth()
		if st.Exchanges != 1 || len(st.Refused) != 0 {
			t.Errorf("Got(fake OAuth2) = %d exchanges, refused %v; want 1 and none", st.Exchanges, st.Refused)
		}
		if len(st.Authorize) != 1 {
			t.Fatalf("Got(authorize requests) = %d, want 1", len(st.Authorize))
		}
		q := st.Authorize[0]
		for k, want := range map[string]string{"response_type": "code", "client_id": clientID, "scope": "identify guilds",
			"code_challenge_method": "S256", "redirect_uri": e.srv.URL + "/admin/callback"} {
			if q.Get(k) != want {
				t.Errorf("Got(authorize %s) = %q, want %q", k, q.Get(k), want)
			}
		}
		if len(q.Get("state")) < 32 || len(q.Get("code_challenge")) != 43 {
			t.Errorf("Got(state, code_challenge) = %q, %q; want a long random state and an S256 challenge", q.Get("state"), q.Get("code_challenge"))
		}
		// The listing shows guild A, where the user has Manage Server, not B.
		p = b.get("/admin")
		if !strings.Contains(p.body, "Alpha League") || strings.Contains(p.body, "Beta League") {
			t.Errorf("Got(/admin guilds) = %.500s, want Alpha League only", p.body)
		}
	})
}

// TestLoginCookie: the session cookie's flags, and a new session ID at
// login, so a session ID planted in the browser before login (session
// fixation) is worth nothing after it.
func TestLoginCookie(t *testing.T) {
	e := newEnv(t, testdb.SQLite)
	b := e.browser(t)
	e.fake.LogInBrowser(userAdmin)
	// Stop at Discord's door to see the session the login started.
	stop := b.client.CheckRedirect
	b.client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	p := b.get("/admin/login")
	b.client.CheckRedirect = stop
	if p.status != http.StatusFound || !strings.HasPrefix(p.header.Get("Location"), e.fake.URL()+"/oauth2/authorize?") {
		t.Fatalf("Got(/admin/login) = %d to %q, want 302 to the fake's /oauth2/authorize", p.status, p.header.Get("Location"))
	}
	set := p.header.Get("Set-Cookie")
	for _, flag := range []string{"HttpOnly", "SameSite=Lax", "Path=/"} {
		if !strings.Contains(set, flag) {
			t.Errorf("Got(Set-Cookie) = %q, want %s", set, flag)
		}
	}
	if strings.Contains(set, "Secure") {
		t.Errorf("Got(Set-Cookie) = %q: Secure over plain http would lose the cookie", set)
	}
	before := b.cookie()
	if before == nil {
		t.Fatal("no session cookie after /admin/login")
	}
	p = b.get(p.header.Get("Location"))
	if p.status != http.StatusOK {
		t.Fatalf("Got(finish login) = %d: %.300s", p.status, p.body)
	}
	after := b.cookie()
	if after == nil || after.Value == before.Value {
		t.Fatalf("Got(session after login) = %v, want a new session ID (was %s)", after, before.Value)
	}
	// The pre-login ID, planted in another browser, is not logged in.
	planted := e.browser(t)
	u, _ := url.Parse(e.srv.URL)
	planted.client.Jar.SetCookies(u, []*http.Cookie{{Name: before.Name, Value: before.Value, Path: "/"}})
	if p := planted.peek("/admin/guilds/" + guildA + "/"); !loggedOut(p) {
		t.Errorf("Got(planted pre-login session) = %d to %q, want sent to log in", p.status, p.header.Get("Location"))
	}
}

// TestLoginState: a callback whose state is not the one this browser
// started with is refused before any code is exchanged: a forged state,
// a replayed callback, and a callback carried to another browser.
func TestLoginState(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		// A callback URL from a real login, captured on its way.
		victim := e.browser(t)
		victim.login(userAdmin, "/admin")
		var callback string
		for _, v := range victim.visited {
			if strings.Contains(v, "/admin/callback?") {
				callback = v
			}
		}
		if callback == "" {
			t.Fatalf("no callback among %v", victim.visited)
		}
		exchanges := e.fake.OAuth().Exchanges

		cases := []struct {
			name string
			run  func() page
		}{
			{"forged state", func() page {
				b := e.browser(t)
				e.fake.LogInBrowser(userAdmin)
				b.client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
				start := b.get("/admin/login")
				loc, _ := url.Parse(start.header.Get("Location"))
				// Discord's answer, with the state swapped for an attacker's.
				return b.get("/admin/callback?code=whatever&state=" + url.QueryEscape(loc.Query().Get("state")+"x"))
			}},
			{"replayed in the same browser", func() page { return victim.get(callback) }},
			{"carried to another browser", func() page { return e.browser(t).get(callback) }},
			{"no state at all", func() page { return e.browser(t).get("/admin/callback?code=x") }},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				p := c.run()
				if p.status != http.StatusBadRequest || !strings.Contains(p.body, "does not belong to this browser") {
					t.Errorf("Got(callback) = %d %.300s, want 400 refusing the state", p.status, p.body)
				}
				if got := e.fake.OAuth().Exchanges; got != exchanges {
					t.Errorf("Got(code exchanges) = %d, want %d: a refused callback must not spend a code", got, exchanges)
				}
			})
		}
	})
}

// TestLoginNext: the page to return to after login is always a dashboard
// page; anything else (another site, a scheme-relative URL, a path that
// only starts like /admin) returns to /admin.
func TestLoginNext(t *testing.T) {
	e := newEnv(t, testdb.SQLite)
	cases := []struct{ next, want string }{
		{queuePath(guildA), queuePath(guildA)},
		{"/admin/guilds/" + guildA + "/audit?actor=web", "/admin/guilds/" + guildA + "/audit"},
		{"https://evil.example/admin", "/admin"},
		{"//evil.example/admin", "/admin"},
		{"/\\evil.example", "/admin"},
		{"/admin.evil.example", "/admin"},
		{"/admin@evil.example", "/admin"},
		{"/admin/../guilds", "/admin"},
		{"", "/admin"},
	}
	for _, c := range cases {
		t.Run(c.next, func(t *testing.T) {
			b := e.browser(t)
			p := b.login(userAdmin, c.next)
			if p.url.Host != strings.TrimPrefix(e.srv.URL, "http://") || p.url.Path != c.want {
				t.Errorf("Got(landing after next=%q) = %s, want %s on this server", c.next, p.url, c.want)
			}
		})
	}
}

// TestLogout: logging out deletes the session row and revokes the Discord
// token, so a copy of the cookie (stolen before) opens nothing; logging
// out everywhere ends the user's sessions in every browser.
func TestLogout(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		b := e.browser(t)
		b.login(userAdmin, "/admin")
		stolen := b.cookie()
		thief := e.browser(t)
		u, _ := url.Parse(e.srv.URL)
		thief.client.Jar.SetCookies(u, []*http.Cookie{{Name: stolen.Name, Value: stolen.Value, Path: "/"}})
		if p := thief.get(queuePath(guildA)); p.status != http.StatusOK || p.url.Path != queuePath(guildA) {
			t.Fatalf("Got(stolen cookie before logout) = %d at %s, want the page (the cookie is the session)", p.status, p.url.Path)
		}
		token := b.csrf("/admin/logout")
		// The logout's own answer (before the page it leads to asks Discord
		// anything): the session's row is gone.
		if p := b.noFollow(func() page { return b.post("/admin/logout", url.Values{"csrf": {token}}) }); p.status != http.StatusSeeOther {
			t.Fatalf("Got(logout) = %d, want 303", p.status)
		}
		sum := sha256.Sum256([]byte(stolen.Value))
		if _, found, err := e.db.FindSession(context.Background(), sum[:]); err != nil || found {
			t.Errorf("Got(session row after logout) found=%v (%v), want deleted", found, err)
		}
		if p := b.get("/admin"); !strings.Contains(p.body, "Log in with Discord") {
			t.Fatalf("Got(/admin after logout) = %d, want the login page", p.status)
		}
		if p := thief.peek(queuePath(guildA)); !loggedOut(p) {
			t.Errorf("Got(stolen cookie after logout) = %d to %q, want sent to log in", p.status, p.header.Get("Location"))
		}
		if live := e.fake.OAuth().LiveTokens; live != 0 {
			t.Errorf("Got(live Discord tokens after logout) = %d, want 0 (revoked)", live)
		}

		// Two browsers of one user; log out everywhere from one.
		phone, laptop := e.browser(t), e.browser(t)
		phone.login(userAdmin, "/admin")
		laptop.login(userAdmin, "/admin")
		other := e.browser(t)
		other.login(userRole, "/admin")
		token = laptop.csrf("/admin/logout")
		laptop.post("/admin/logout", url.Values{"csrf": {token}, "everywhere": {"1"}})
		if p := phone.peek(queuePath(guildA)); !loggedOut(p) {
			t.Errorf("Got(other browser after log out everywhere) = %d to %q, want sent to log in", p.status, p.header.Get("Location"))
		}
		if p := other.get(queuePath(guildA)); p.url.Path != queuePath(guildA) || p.status != http.StatusOK {
			t.Errorf("Got(another user's session after log out everywhere) = %d at %s, want still logged in", p.status, p.url.Path)
		}
	})
}

// TestOff: without DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET and PUBLIC_URL
// the dashboard is off and /admin says so and what to set.
func TestOff(t *testing.T) {
	srv := newEnvOff(t)
	resp, err := http.Get(srv.URL + "/admin")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body := readAll(t, resp)
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, "dashboard is off") || !strings.Contains(body, "DISCORD_CLIENT_SECRET") {
		t.Errorf("Got(/admin off) = %d %.400s, want a page saying it is off and naming the settings", resp.StatusCode, body)
	}
	resp2, err := http.Get(srv.URL + "/admin/login")
	if err != nil {
		t.Fatal(err)
	}
	resp2.Body.Close()
	if resp2.StatusCode != http.StatusNotFound {
		t.Errorf("Got(/admin/login off) = %d, want 404", resp2.StatusCode)
	}
}

// TestDiscordRevokedLogin: when the user revokes the application on
// Discord, the dashboard's next check with Discord ends the session: a
// page sends the browser to log in, and a write is refused.
func TestDiscordRevokedLogin(t *testing.T) {
	e := newEnv(t, testdb.SQLite)
	b := e.browser(t)
	b.login(userAdmin, "/admin")
	token := b.csrf(queuePath(guildA))
	// Revoke every token the fake granted, as the user would in Discord's settings.
	e.fake.RevokeAllTokens()
	p := b.post(queuePath(guildA), url.Values{"csrf": {token}, "q_start": {"0.62"}})
	if q, _ := lobbyOf(t, e, guildA); p.status != http.StatusForbidden || q.QStart == 0.62 {
		t.Errorf("Got(write after Discord revoked the login) = %d, q_start %g; want 403 and unchanged", p.status, q.QStart)
	}
	if p := b.peek(queuePath(guildA)); !loggedOut(p) {
		t.Errorf("Got(page after Discord revoked the login) = %d to %q, want sent to log in", p.status, p.header.Get("Location"))
	}
}

// TestLoginAsAnotherUser: a second login in the same browser (another
// Discord account, on a shared computer or to switch accounts) starts
// from nothing: the permission checks the first user passed, which stand
// for five minutes of reads, do not carry over, so a member without
// rights is refused the pages the moderator before them could read.
func TestLoginAsAnotherUser(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		b := e.browser(t)
		b.login(userAdmin, "/admin")
		pages := []string{"/", "/audit", "/integrations", "/players", "/queues/" + queueName}
		for _, pg := range pages {
			if p := b.peek("/admin/guilds/" + guildA + pg); p.status != http.StatusOK {
				t.Fatalf("Got(GET %s as the admin) = %d, want 200", pg, p.status)
			}
		}
		b.login(userPlain, "/admin")
		if p := b.get("/admin/logout"); !strings.Contains(p.body, "pia") || strings.Contains(p.body, "ada") {
			t.Errorf("Got(logged in as) = %.300s, want pia and not ada", p.body)
		}
		for _, pg := range pages {
			if p := b.peek("/admin/guilds/" + guildA + pg); p.status != http.StatusForbidden {
				t.Errorf("Got(GET %s as a member without rights, after the admin in the same browser) = %d, want 403", pg, p.status)
			}
		}
	})
}
