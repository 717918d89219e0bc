package dashboard_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/dashboard"
	"github.com/ladderbot/ladderbot/derived"
	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/joins"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/rooms"
	"github.com/ladderbot/ladderbot/storage"
	"github.com/ladderbot/ladderbot/web"
)

// TestMain prints what this package's tests skipped here and how to run them.
func TestMain(m *testing.M) {
	code := testdb.Main(m, "dashboard")
	stopChrome()
	os.Exit(code)
}

// The fixture: two guilds with ladders, A and B, and Discord users with
// different rights there.
const (
	guildA = "200000000000000001"
	guildB = "200000000000000002"

	userAdmin  = "300000000000000001" // Manage Server in A
	userRole   = "300000000000000002" // the ladder's moderator role in A
	userPlain  = "300000000000000003" // member of A without rights
	userAdminB = "300000000000000004" // Manage Server in B only

	clientID  = "500000000000000001"
	secret    = "client-secret"
	botToken  = "bot-token"
	queueName = "2v2"
)

// env is the whole dashboard over real storage: the web server that
// ladderbot run and serve start, with the dashboard mounted, talking to a
// fake Discord for OAuth2 and member roles.
type env struct {
	db      *storage.DB
	svc     *ladder.Service
	fake    *fakediscord.Server
	srv     *httptest.Server
	web     *web.Server
	modRole string
	joins   *joins.Service
	// in folds the integrity counters in the rated write and raises the
	// flags the integrity page lists, as every ladderbot command wires it.
	in *integrity.Service
}

func newEnv(t *testing.T, backend string) *env {
	t.Helper()
	ctx := context.Background()
	db, err := storage.Open(ctx, testdb.DSN(t, backend), nil)
	if err != nil {
		t.Fatalf("storage.Open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	e := &env{db: db, svc: ladder.NewService(db, nil), fake: fakediscord.New(), in: integrity.New(db, nil)}
	derived.Wire(db, e.in)
	e.joins = joins.New(db, e.svc)
	e.svc.SetJoinGate(e.joins)
	t.Cleanup(e.fake.Close)
	e.fake.Token = botToken

	var handler http.Handler
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) }))
	t.Cleanup(e.srv.Close)
	d, err := dashboard.New(dashboard.Options{
		Config: dashboard.Config{ClientID: clientID, ClientSecret: secret, PublicURL: e.srv.URL,
			APIBase: e.fake.URL(), BotToken: botToken},
		Service: e.svc, Sessions: db, Rooms: rooms.New(db, nil, e.svc, nil), Joins: e.joins, Formats: formats.New(db, e.svc),
		Community: community.New(db, e.svc), // as ladderbot serve has it
		Integrity: e.in,
	})
	if err != nil {
		t.Fatalf("dashboard.New: %v", err)
	}
	e.web = web.New(web.Options{Service: e.svc, Admin: d.Handler(), Rooms: rooms.New(db, nil, e.svc, nil), Formats: formats.New(db, e.svc)})
	handler = e.web.Handler()

	e.fake.SetOAuthApp(clientID, secret, e.srv.URL+"/admin/callback")
	for id, name := range map[string]string{userAdmin: "ada", userRole: "rolf", userPlain: "pia", userAdminB: "bea"} {
		e.fake.AddOAuthUser(id, name)
	}
	e.fake.SetGuildName(guildA, "Alpha League")
	e.fake.SetGuildName(guildB, "Beta League")
	for _, u := range []string{userAdmin, userRole, userPlain} {
		e.fake.AddMember(guildA, u)
	}
	e.fake.AddMember(guildB, userAdminB)
	e.fake.GrantPermissions(guildA, userAdmin, fakediscord.PermManageGuild)
	e.fake.GrantPermissions(guildB, userAdminB, fakediscord.PermManageGuild)
	e.modRole = e.fake.AddRole(guildA, "Ladder mods", 5)
	giveRole(t, e, guildA, userRole, e.modRole)

	for _, g := range []string{guildA, guildB} {
		gd, err := e.svc.EnsureGuild(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		if g == guildA {
			gd.ModeratorRoleID = e.modRole
			if _, err := e.svc.UpdateGuild(ctx, ladder.System, gd); err != nil {
				t.Fatal(err)
			}
		}
		// A new guild has the default queue, 2v2.
		if _, _, err := e.svc.Lobby(ctx, g, queueName); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

// giveRole gives a member a role through the fake's REST route, as a
// server admin's client would.
func giveRole(t *testing.T, e *env, guild, user, role string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPut, e.fake.URL()+"/api/v10/guilds/"+guild+"/members/"+user+"/roles/"+role, nil)
	req.Header.Set("Authorization", "Bot "+botToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("giving role: %s", resp.Status)
	}
}

// browser is one browser: its own cookie jar.
type browser struct {
	t      *testing.T
	e      *env
	client *http.Client
	// visited are the URLs requested, redirects included, in order.
	visited []string
}

func (e *env) browser(t *testing.T) *browser {
	jar, _ := cookiejar.New(nil)
	b := &browser{t: t, e: e}
	b.client = &http.Client{Jar: jar, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		b.visited = append(b.visited, req.URL.String())
		return nil
	}}
	return b
}

// page is an answer as a test reads it.
type page struct {
	status int
	url    *url.URL
	body   string
	header http.Header
}

func (b *browser) do(req *http.Request) page {
	b.t.Helper()
	b.visited = append(b.visited, req.URL.String())
	resp, err := b.client.Do(req)
	if err != nil {
		b.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return page{status: resp.StatusCode, url: resp.Request.URL, body: string(body), header: resp.Header}
}

func (b *browser) get(path string) page {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, b.abs(path), nil)
	return b.do(req)
}

func (b *browser) abs(path string) string {
	if strings.HasPrefix(path, "http") {
		return path
	}
	return b.e.srv.URL + path
}

// post sends a form as a browser does from the dashboard's own pages:
// same-origin headers.
func (b *browser) post(path string, form url.Values) page {
	b.t.Helper()
	return b.postFrom(path, form, b.e.srv.URL, "same-origin")
}

// postFrom sends a form with the Origin and Sec-Fetch-Site a browser
// would send from origin.
func (b *browser) postFrom(path string, form url.Values, origin, site string) page {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, b.abs(path), strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", origin)
	req.Header.Set("Sec-Fetch-Site", site)
	return b.do(req)
}

// login logs user in through /admin/login and the fake Discord and
// returns the page it lands on.
func (b *browser) login(user, next string) page {
	b.t.Helper()
	b.e.fake.LogInBrowser(user)
	p := b.get("/admin/login?next=" + url.QueryEscape(next))
	if p.status != http.StatusOK {
		b.t.Fatalf("login as %s: landed on %s with %d: %.300s", user, p.url, p.status, p.body)
	}
	return p
}

var csrfRE = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// csrf returns the form token of a page the browser loads.
func (b *browser) csrf(path string) string {
	b.t.Helper()
	p := b.get(path)
	m := csrfRE.FindStringSubmatch(p.body)
	if m == nil {
		b.t.Fatalf("GET %s (%d): no csrf field in %.300s", path, p.status, p.body)
	}
	return m[1]
}

// cookie returns the browser's session cookie for the dashboard.
func (b *browser) cookie() *http.Cookie {
	u, _ := url.Parse(b.e.srv.URL + "/admin")
	for _, c := range b.client.Jar.Cookies(u) {
		if strings.Contains(c.Name, "ladderbot_admin") {
			return c
		}
	}
	return nil
}

func queuePath(guild string) string { return "/admin/guilds/" + guild + "/queues/" + queueName }

// lobbyOf reads a queue's settings straight from the service.
func lobbyOf(t *testing.T, e *env, guild string) (ladder.Queue, ladder.Lobby) {
	t.Helper()
	q, l, err := e.svc.Lobby(context.Background(), guild, queueName)
	if err != nil {
		t.Fatal(err)
	}
	return q, l
}

// webAudits returns the audit entries of the guild made through the dashboard.
func webAudits(t *testing.T, e *env, guild string) []ladder.AuditEntry {
	t.Helper()
	all, err := e.svc.Audit(context.Background(), guild, 500)
	if err != nil {
		t.Fatal(err)
	}
	var out []ladder.AuditEntry
	for _, a := range all {
		if strings.HasPrefix(a.ActorID, "web:") {
			out = append(out, a)
		}
	}
	return out
}

// newEnvOff serves the web server with a dashboard lacking its settings.
func newEnvOff(t *testing.T) *httptest.Server {
	t.Helper()
	db, err := storage.Open(context.Background(), testdb.DSN(t, testdb.SQLite), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	svc := ladder.NewService(db, nil)
	d, err := dashboard.New(dashboard.Options{Config: dashboard.Config{ClientID: clientID}, Service: svc, Sessions: db})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(web.New(web.Options{Service: svc, Admin: d.Handler()}).Handler())
	t.Cleanup(srv.Close)
	return srv
}

func readAll(t *testing.T, resp *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// peek requests path without following redirects.
func (b *browser) peek(path string) page {
	b.t.Helper()
	return b.noFollow(func() page { return b.get(path) })
}

// noFollow makes a request with send without following redirects.
func (b *browser) noFollow(send func() page) page {
	b.t.Helper()
	follow := b.client.CheckRedirect
	b.client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	defer func() { b.client.CheckRedirect = follow }()
	return send()
}

// loggedOut reports whether p is the dashboard sending a browser to log in.
func loggedOut(p page) bool {
	return p.status == http.StatusSeeOther && strings.HasPrefix(p.header.Get("Location"), "/admin/login?")
}

// errorOf is the message a page shows in its error paragraph, or the
// first 300 bytes of the page when it has none.
func errorOf(body string) string {
	_, rest, ok := strings.Cut(body, `id="error" role="alert">`)
	if !ok {
		return fmt.Sprintf("%.300s", body)
	}
	msg, _, _ := strings.Cut(rest, "</p>")
	return msg
}
