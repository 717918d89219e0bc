package web

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/internal/laddertest"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/rooms"
)

// TestSQLitePagesReadNoHistory reads every page and every GET of the API
// over a SQLite ladder with a history, records every statement the ORM
// sends, and asks SQLite for each one's plan: none may scan a table that
// grows with the history, nor read one by the guild alone
// (testdb.NoHistoryScans). A page costs its rows, not the guild's past.
// The CSV export is left out: it writes the whole history by design.
func TestSQLitePagesReadNoHistory(t *testing.T) {
	e := newEnv(t, testdb.DSN(t, testdb.SQLite), Options{})
	// As ladderbot serve has it: the derived rows in the rated write
	// (newEnv), the community pages and the integrity flags served.
	in := e.in
	e.srv = New(Options{Service: e.svc, Ping: e.db.Ping, Rates: e.db, Rooms: rooms.New(e.db, nil, e.svc, nil),
		Formats: formats.New(e.db, e.svc), Community: community.New(e.db, e.svc), Integrity: in})
	ctx := t.Context()
	if _, err := e.svc.EnsureGuild(ctx, guildG); err != nil {
		t.Fatal(err)
	}
	ids := make([]string, 16)
	for i := range ids {
		ids[i] = fmt.Sprint(1001 + i)
	}
	last := laddertest.RecordHistory(t, e.svc, guildG, ids, 60)
	token, _, err := e.svc.CreateToken(ctx, ladder.System, guildG, "plans")
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(e.srv.Handler())
	defer ts.Close()
	sent := testdb.CaptureStatements(t, e.db.Gorm())
	api := "/api/v1/guilds/" + guildG
	for _, path := range []string{
		"/", "/guilds/" + guildG, "/guilds/" + guildG + "/players/1001", fmt.Sprintf("/guilds/%s/matches/%d", guildG, last),
		"/guilds/" + guildG + "/matches", "/guilds/" + guildG + "/matches?player=1001", "/guilds/" + guildG + "/stats",
		"/guilds/" + guildG + "/stats/hours.png", "/guilds/" + guildG + "/compare/1001/1002",
		api + "/leaderboard", api + "/players/1001", fmt.Sprintf("%s/matches/%d", api, last), api + "/matches",
		api + "/matches?player=1001", api + "/players/1001/compare/1002", api + "/stats",
		api + "/admin/health", api + "/admin/integrity", api + "/admin/players/1001/rating", api + "/admin/queues", api + "/webhooks",
	} {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Errorf("GET %s = %d, want 200: %.300s", path, res.StatusCode, body)
		}
	}
	// The guild's history page walks its matches newest first and keeps
	// the rated ones, nearly all of a guild's.
	n := testdb.NoHistoryScans(t, e.db.SQL(), sent(),
		testdb.HistoryPageWalk)
	if n < 30 {
		t.Errorf("Got(%d distinct statements), want the pages' reads (at least 30)", n)
	}
	t.Logf("%d distinct statements planned", n)
}
