package web

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"github.com/ladderbot/ladderbot/rooms"
)

var rowRE = regexp.MustCompile(`<tr data-player="(\d+)"><td class="num">(\d+)</td><td><a href="[^"]+">([^<]+)</a></td><td class="num">(\d+) <span class="mute">± (\d+)</span>`)

// boardRows extracts "rank id name rating±rd" of the leaderboard table.
func boardRows(html string) []string {
	var out []string
	for _, m := range rowRE.FindAllStringSubmatch(html, -1) {
		out = append(out, m[2]+" "+m[1]+" "+m[3]+" "+m[4]+"±"+m[5])
	}
	return out
}

var fixtureRows = []string{"1 1001 Alice 1900±40", "2 1002 Bob 1800±50", "3 1003 Cleo 1700±60", "4 1004 Dan 1600±70"}

func TestLeaderboardPage(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		seedFixture(t, e)
		rec := call(e, "GET", "/guilds/"+guildG, "")
		html := rec.Body.String()
		if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
			t.Fatalf("Got(GET leaderboard page) = %d %q", rec.Code, rec.Header().Get("Content-Type"))
		}
		if got := boardRows(html); strings.Join(got, "|") != strings.Join(fixtureRows, "|") {
			t.Errorf("Got(rows) = %q, want %q", got, fixtureRows)
		}
		for _, hidden := range []string{"Eve", "Finn", "Gus", "Hana"} {
			if strings.Contains(html, hidden) {
				t.Errorf("Got(page) shows %s, who is provisional or stale", hidden)
			}
		}
		for _, want := range []string{
			`<meta name="viewport"`, `<span class="on">Season 1</span>`, `<span class="on">All</span>`,
			`href="/guilds/` + guildG + `?division=Gold"`, `W-L-D`, "89.2%", // Alice's GXE
		} {
			if !strings.Contains(html, want) {
				t.Errorf("Got(page) lacks %q", want)
			}
		}
		if strings.Contains(html, "<script") {
			t.Errorf("Got(page) has a script; pages work without JavaScript")
		}
		// Paging by keyset links, filters keep the other parameters.
		page1 := call(e, "GET", "/guilds/"+guildG+"?limit=3", "").Body.String()
		next := regexp.MustCompile(`<a rel="next" href="([^"]+)"`).FindStringSubmatch(page1)
		if len(next) != 2 || !strings.Contains(next[1], "limit=3") {
			t.Fatalf("Got(next link) = %v, want one keeping limit=3", next)
		}
		page2 := call(e, "GET", strings.ReplaceAll(next[1], "&amp;", "&"), "").Body.String()
		if got := boardRows(page2); len(got) != 1 || got[0] != fixtureRows[3] {
			t.Errorf("Got(page 2 rows) = %q, want [%s]", got, fixtureRows[3])
		}
		if !strings.Contains(page2, "First page") {
			t.Errorf("Got(page 2) lacks a link back to the first page")
		}
		gold := call(e, "GET", "/guilds/"+guildG+"?division=Gold", "").Body.String()
		if got := boardRows(gold); len(got) != 1 || got[0] != fixtureRows[3] {
			t.Errorf("Got(Gold rows) = %q, want Dan only", got)
		}
	})
}

func TestPagesNotFound(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		seedFixture(t, e)
		tests := []struct {
			name, path string
			status     int
			text       string
		}{
			{"unknown guild", "/guilds/" + otherGuild, 404, "not found"},
			{"unknown player", "/guilds/" + guildG + "/players/31337", 404, "player 31337 not found"},
			{"player of unknown guild", "/guilds/" + otherGuild + "/players/1001", 404, "not found"},
			{"unknown match", "/guilds/" + guildG + "/matches/424242", 404, "match 424242 not found"},
			{"match id not a number", "/guilds/" + guildG + "/matches/first", 404, "match"},
			{"unknown page", "/leaderboard", 404, "There is no page at /leaderboard"},
			{"bad season", "/guilds/" + guildG + "?season=x", 400, "season"},
			{"missing season", "/guilds/" + guildG + "?season=4", 404, "season"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				rec := call(e, "GET", tt.path, "")
				body := rec.Body.String()
				if rec.Code != tt.status || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") ||
					!strings.Contains(body, "<h1>") || !strings.Contains(body, tt.text) {
					t.Errorf("Got(GET %s) = %d %q, want an HTML %d page saying %q", tt.path, rec.Code, body, tt.status, tt.text)
				}
			})
		}
		if rec := call(e, "GET", "/", ""); rec.Code != 200 {
			t.Errorf("Got(GET /) = %d, want 200", rec.Code)
		}
		if rec := call(e, "POST", "/", ""); rec.Code != 405 {
			t.Errorf("Got(POST /) = %d, want 405", rec.Code)
		}
	})
}

func TestPlayerPage(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		f := seedFixture(t, e)
		html := call(e, "GET", "/guilds/"+guildG+"/players/1001", "").Body.String()
		for _, want := range []string{
			"<h1>Alice</h1>", `<dd id="rating">1900 ± 40</dd>`, "#1", "1 W · 1 L · 1 D",
			`<svg class="chart"`, `aria-label="Rating history, 4 matches"`,
			`href="/guilds/` + guildG + `/matches/` + itoa64(f.matchIDs[3]) + `"`,
			`<table id="partners">`, ">Bob</a></td><td class=\"num\">2</td>", // Bob partnered Alice twice
		} {
			if !strings.Contains(html, want) {
				t.Errorf("Got(player page) lacks %q", want)
			}
		}
		if n := strings.Count(html, "<circle"); n != 4 {
			t.Errorf("Got(chart points) = %d, want 4", n)
		}
		eve := call(e, "GET", "/guilds/"+guildG+"/players/1005", "").Body.String()
		if !strings.Contains(eve, `id="provisional">placement 1/1`) && !strings.Contains(eve, `id="provisional"`) {
			t.Errorf("Got(Eve's page) lacks the provisional badge")
		}
		if !strings.Contains(eve, "unranked") {
			t.Errorf("Got(Eve's page) lacks unranked")
		}
		gus := call(e, "GET", "/guilds/"+guildG+"/players/1007", "").Body.String()
		if !strings.Contains(gus, `id="stale">inactive`) {
			t.Errorf("Got(Gus's page) lacks the inactive badge")
		}
	})
}

func TestMatchPage(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		f := seedFixture(t, e)
		html := call(e, "GET", "/guilds/"+guildG+"/matches/"+itoa64(f.matchIDs[1]), "").Body.String()
		for _, want := range []string{"Match #" + itoa64(f.matchIDs[1]), `<dd id="state">confirmed</dd>`, `<dd id="result">team 1 won</dd>`,
			"Team 1 · won", ">Cleo</a>", `class="win">&#43;40.2`, `class="loss">-40.2`, "Win chance"} {
			if !strings.Contains(html, want) {
				t.Errorf("Got(match page) lacks %q", want)
			}
		}
		// An open match shows what each player stands to gain or lose.
		queues, err := e.svc.Queues(context.Background(), guildG)
		mustf(t, err, "Queues")
		m, err := e.svc.CreateMatch(context.Background(), ladder.NewMatch{GuildID: guildG, QueueID: queues[0].ID,
			Teams: [2][]string{{"1001", "1004"}, {"1002", "1003"}}, Quality: 0.9})
		mustf(t, err, "CreateMatch")
		open := call(e, "GET", "/guilds/"+guildG+"/matches/"+itoa64(m.ID), "").Body.String()
		for _, want := range []string{`<dd id="state">open</dd>`, "not played yet", "stands to gain", "0.90"} {
			if !strings.Contains(open, want) {
				t.Errorf("Got(open match page) lacks %q", want)
			}
		}
	})
}

func TestPagesEscapeNames(t *testing.T) {
	e := newEnv(t, testdb.DSN(t, testdb.SQLite), Options{})
	ctx := context.Background()
	_, err := e.svc.RecordResult(ctx, ladder.ResultInput{GuildID: guildG, Team1: []string{"1", "2"}, Team2: []string{"3", "4"}, Winner: 1,
		Names: map[string]string{"1": `<script>alert(1)</script>`, "3": `"><img src=x onerror=alert(1)>`}})
	mustf(t, err, "RecordResult")
	for _, path := range []string{"/guilds/" + guildG + "/players/1", "/guilds/" + guildG + "/players/2", "/guilds/" + guildG + "/matches/1"} {
		html := call(e, "GET", path, "").Body.String()
		if strings.Contains(html, "<script>alert") || strings.Contains(html, "<img src=x") {
			t.Errorf("Got(GET %s) has an unescaped name:\n%s", path, html)
		}
	}
}

func TestReadyzWithDatabase(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		if rec := call(e, "GET", "/readyz", ""); rec.Code != 200 || !strings.Contains(rec.Body.String(), `"database":"ok"`) {
			t.Errorf("Got(readyz) = %d %s, want 200 database ok", rec.Code, rec.Body)
		}
		e.db.Close()
		if rec := call(e, "GET", "/readyz", ""); rec.Code != 503 || !strings.Contains(rec.Body.String(), `"database":"unreachable"`) {
			t.Errorf("Got(readyz after close) = %d %s, want 503 database unreachable", rec.Code, rec.Body)
		}
	})
}

func TestMetricsWithDatabase(t *testing.T) {
	m := NewMetrics()
	e := newEnv(t, testdb.DSN(t, testdb.SQLite), Options{Metrics: m})
	mustf(t, m.RegisterDB(e.db.SQL()), "RegisterDB")
	seedFixture(t, e)
	call(e, "GET", "/api/v1/guilds/"+guildG+"/leaderboard", "")
	call(e, "GET", "/api/v1/guilds/"+guildG+"/players/0", "")
	body := call(e, "GET", "/metrics", "").Body.String()
	for _, want := range []string{
		`go_sql_max_open_connections{db_name="ladderbot"} 4`,
		`ladderbot_http_requests_total{code="200",route="GET /api/v1/guilds/{guild}/leaderboard"} 1`,
		`ladderbot_http_requests_total{code="404",route="GET /api/v1/guilds/{guild}/players/{id}"} 1`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("Got(/metrics) lacks %q", want)
		}
	}
}

// TestBrowser loads the leaderboard and a player page in headless Chromium
// from a real listener and checks what the browser rendered: the rows in
// rank order and the rating-history chart as SVG in the DOM.
func TestBrowser(t *testing.T) {
	e := newEnv(t, testdb.DSN(t, testdb.SQLite), Options{})
	f := seedFixture(t, e)
	ts := httptest.NewServer(e.srv.Handler())
	defer ts.Close()

	dom := dumpDOM(t, ts.URL+"/guilds/"+guildG)
	if got := boardRows(dom); strings.Join(got, "|") != strings.Join(fixtureRows, "|") {
		t.Errorf("Got(rendered rows) = %q, want %q\n%s", got, fixtureRows, dom)
	}
	if !strings.Contains(dom, "<title>Leaderboard · ladderbot</title>") {
		t.Errorf("Got(rendered title) missing")
	}

	dom = dumpDOM(t, ts.URL+"/guilds/"+guildG+"/players/1001")
	svg := regexp.MustCompile(`(?s)<svg class="chart".*?</svg>`).FindString(dom)
	if svg == "" {
		t.Fatalf("Got(player page) has no rendered chart:\n%s", dom)
	}
	if n := strings.Count(svg, "<circle"); n != 4 {
		t.Errorf("Got(rendered chart points) = %d, want 4", n)
	}
	for _, want := range []string{`<polyline class="line"`, `<polygon class="band"`, "match #" + itoa64(f.matchIDs[1])} {
		if !strings.Contains(svg, want) {
			t.Errorf("Got(rendered chart) lacks %q", want)
		}
	}
	if !strings.Contains(dom, `<dd id="rating">1900 ± 40</dd>`) {
		t.Errorf("Got(rendered player page) lacks the rating")
	}
	// At phone width the recent matches' Against column lies past the
	// screen edge; each table sits in a sideways-scrolling box whose edge
	// shadows show it (the CSS of .scroll), so none may stand outside one.
	for _, table := range regexp.MustCompile(`(?s)(.{0,40})<table id="(\w+)"`).FindAllStringSubmatch(dom, -1) {
		if !strings.HasSuffix(table[1], `<div class="scroll">`) {
			t.Errorf("Got(rendered player page) table %s outside a scroll box: %q", table[2], table[1])
		}
	}
	dom = dumpDOM(t, ts.URL+"/guilds/"+otherGuild)
	if !strings.Contains(dom, "<h1>Not found</h1>") || !strings.Contains(dom, `<a href="/">Back to the start page</a>`) {
		t.Errorf("Got(rendered 404 page) = %s", dom)
	}
	if dir := os.Getenv("LADDERBOT_SCREENSHOT_DIR"); dir != "" {
		if !filepath.IsAbs(dir) {
			dir = filepath.Join("..", dir) // relative to the repository root, not web/
		}
		browserScreenshots(t, dir)
	}
}

// browserScreenshots writes the README's picture into dir: the board of the
// sample season (docs/sample/matches.csv) at desktop width as
// leaderboard.png, and one player's page at phone width as player-phone.png.
func browserScreenshots(t *testing.T, dir string) {
	e := newEnv(t, testdb.DSN(t, testdb.SQLite), Options{})
	// With the community pages, for the stats page and its heatmap.
	e.srv = New(Options{Service: e.svc, Ping: e.db.Ping, Rates: e.db, Rooms: rooms.New(e.db, nil, e.svc, nil),
		Formats: formats.New(e.db, e.svc), Community: community.New(e.db, e.svc)})
	f, err := os.Open("../docs/sample/matches.csv")
	mustf(t, err, "open sample")
	recs, err := rating.ReadMatchCSV(f)
	f.Close()
	mustf(t, err, "read sample")
	_, err = e.svc.ImportMatches(context.Background(), guildG, "", recs, nil)
	mustf(t, err, "import sample")
	ts := httptest.NewServer(e.srv.Handler())
	defer ts.Close()
	screenshot(t, ts.URL+"/guilds/"+guildG+"?limit=12", filepath.Join(dir, "leaderboard.png"), 1000, 820)
	screenshot(t, ts.URL+"/guilds/"+guildG+"/players/"+recs[len(recs)-1].Team1[0], filepath.Join(dir, "player-phone.png"), 412, 1400)
	// docs/i18n.md's pictures: the leaderboard, the page of the season's
	// leader and its last match, in German and Portuguese, at desktop and
	// phone width.
	ctx := context.Background()
	board, err := e.svc.Leaderboard(ctx, ladder.LeaderboardQuery{GuildID: guildG, Limit: 1})
	mustf(t, err, "Leaderboard")
	latest, err := e.svc.Matches(ctx, ladder.MatchFilter{GuildID: guildG, Limit: 1})
	mustf(t, err, "Matches")
	if len(board.Standings) == 0 || len(latest) == 0 {
		t.Fatalf("Got(sample season) = %d standings, %d matches", len(board.Standings), len(latest))
	}
	pages := []struct{ name, path string }{
		{"leaderboard", "/guilds/" + guildG + "?limit=12"},
		{"player", "/guilds/" + guildG + "/players/" + board.Standings[0].UserID},
		{"match", "/guilds/" + guildG + "/matches/" + itoa64(latest[0].ID)},
		{"stats", "/guilds/" + guildG + "/stats"},
	}
	heights := map[string][2]int{"leaderboard": {900, 844}, "player": {1100, 1400}, "match": {800, 900}, "stats": {1700, 2900}}
	for _, code := range []string{"de", "pt-BR"} {
		for _, pg := range pages {
			h := heights[pg.name]
			url := ts.URL + pg.path
			url += map[bool]string{true: "&", false: "?"}[strings.Contains(url, "?")] + "lang=" + code
			screenshot(t, url, filepath.Join(dir, "i18n-"+pg.name+"-"+code+"-desktop.png"), 1280, h[0])
			screenshot(t, url, filepath.Join(dir, "i18n-"+pg.name+"-"+code+"-phone.png"), 390, h[1])
		}
	}
	t.Logf("screenshots written to %s", dir)
}

func TestLeaderboardPageSeasonsAndQueues(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		seedFixture(t, e)
		ctx := context.Background()
		_, err := e.svc.CreateQueue(ctx, ladder.System, ladder.NewQueue(guildG, "1v1", 1))
		mustf(t, err, "CreateQueue")
		_, err = e.svc.EndSeason(ctx, ladder.System, guildG, 1)
		mustf(t, err, "EndSeason")
		e.srv.Invalidate(guildG)

		current := call(e, "GET", "/guilds/"+guildG, "").Body.String()
		for _, want := range []string{`<span class="on">Season 2</span>`, `href="/guilds/` + guildG + `?season=1"`,
			`<span class="on">2v2</span>`, `href="/guilds/` + guildG + `?queue=1v1"`, `id="empty"`} {
			if !strings.Contains(current, want) {
				t.Errorf("Got(current season page) lacks %q", want)
			}
		}
		past := call(e, "GET", "/guilds/"+guildG+"?season=1", "").Body.String()
		if got := boardRows(past); strings.Join(got, "|") != strings.Join(fixtureRows, "|") {
			t.Errorf("Got(season 1 rows) = %q, want the frozen %q", got, fixtureRows)
		}
		if !strings.Contains(past, "Season 1 (ended ") {
			t.Errorf("Got(season 1 page) does not say it ended")
		}
		lb := decode[leaderboardJSON](t, call(e, "GET", "/api/v1/guilds/"+guildG+"/leaderboard?season=1&queue=2v2", ""))
		if lb.Season != 1 || len(lb.Players) != 4 {
			t.Errorf("Got(JSON season 1) = season %d with %d players, want 1 with 4", lb.Season, len(lb.Players))
		}
		if other := call(e, "GET", "/guilds/"+guildG+"?queue=1v1", "").Body.String(); !strings.Contains(other, `<span class="on">1v1</span>`) {
			t.Errorf("Got(1v1 page) does not select 1v1")
		}
	})
}

// TestDraftMatchPage shows a match whose captains are still picking: the
// teams so far, who is left, no win chance (the teams are not known), and
// the same in the JSON API; once the draft ends, the match as any other.
func TestDraftMatchPage(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		seedFixture(t, e)
		ctx := context.Background()
		q, l, err := e.svc.Lobby(ctx, guildG, "")
		mustf(t, err, "Lobby")
		l.ReadyWindow, l.PickMode = 0, ladder.PickCaptains
		_, err = e.svc.UpdateLobby(ctx, ladder.System, guildG, l)
		mustf(t, err, "UpdateLobby")
		var formed []ladder.FormedMatch
		for _, u := range []string{"1001", "1002", "1003", "1004"} {
			res, err := e.svc.JoinQueue(ctx, ladder.JoinRequest{GuildID: guildG, Queue: q.Name, UserID: u})
			mustf(t, err, "JoinQueue")
			formed = append(formed, res.Formed...)
		}
		if len(formed) != 1 || formed[0].Draft.State != ladder.DraftPicking {
			t.Fatalf("Got(formed) = %+v, want one match in its draft", formed)
		}
		id := itoa64(formed[0].Match.ID)
		html := call(e, "GET", "/guilds/"+guildG+"/matches/"+id, "").Body.String()
		for _, want := range []string{"the captains are picking the teams", "Left to pick", `id="left"`, `data-player="1003"`, `data-player="1004"`} {
			if !strings.Contains(html, want) {
				t.Errorf("Got(draft match page) lacks %q", want)
			}
		}
		if strings.Contains(html, "Win chance") {
			t.Errorf("Got(draft match page) shows a win chance before the teams are set")
		}
		if dir := os.Getenv("LADDERBOT_SCREENSHOT_DIR"); dir != "" && strings.HasPrefix(dsn, "sqlite") {
			if !filepath.IsAbs(dir) {
				dir = filepath.Join("..", dir)
			}
			ts := httptest.NewServer(e.srv.Handler())
			screenshot(t, ts.URL+"/guilds/"+guildG+"/matches/"+id, filepath.Join(dir, "match-draft.png"), 1000, 760)
			ts.Close()
		}
		var body struct {
			Team1, Team2 []string
			PTeam1       float64 `json:"p_team1"`
			Draft        *struct {
				State string
				Turn  int
				Left  []string
			}
		}
		rec := call(e, "GET", "/api/v1/guilds/"+guildG+"/matches/"+id, "")
		mustf(t, json.Unmarshal(rec.Body.Bytes(), &body), "decode")
		if body.Draft == nil || body.Draft.State != "picking" || body.Draft.Turn != 2 || len(body.Draft.Left) != 2 ||
			len(body.Team1) != 1 || body.Team1[0] != "1001" || len(body.Team2) != 1 || body.Team2[0] != "1002" || body.PTeam1 != 0 {
			t.Errorf("Got(API match while drafting) = %s, want captains 1001 and 1002 alone, two left, team 2 to pick, p_team1 0", rec.Body)
		}
		_, err = e.svc.Pick(ctx, ladder.Actor{UserID: "1002"}, guildG, formed[0].Match.ID, 0, "1004")
		mustf(t, err, "Pick")
		after := call(e, "GET", "/guilds/"+guildG+"/matches/"+id, "").Body.String()
		if !strings.Contains(after, "Win chance") || strings.Contains(after, "Left to pick") {
			t.Errorf("Got(match page after the draft) lacks the win chance or still lists players to pick")
		}
		rec = call(e, "GET", "/api/v1/guilds/"+guildG+"/matches/"+id, "")
		if strings.Contains(rec.Body.String(), `"draft"`) {
			t.Errorf("Got(API match after the draft) = %s, want no draft", rec.Body)
		}
	})
}
