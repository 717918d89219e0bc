package web

import (
	"testing"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestAPIMethodNotAllowed sends API paths a method they do not take: each
// is a 405 whose Allow names every method the path does take (HEAD beside
// GET, which answers it, and DELETE, which a webhook's path takes alone and
// which used to make a GET of it a 404 "no API endpoint").
func TestAPIMethodNotAllowed(t *testing.T) {
	e := newEnv(t, testdb.DSN(t, testdb.SQLite), Options{})
	e.srv = New(Options{Service: e.svc, Community: community.New(e.db, e.svc)}) // as serve has it
	seedFixture(t, e)
	g := "/api/v1/guilds/" + guildG
	for _, tt := range []struct{ method, path, allow string }{
		{"DELETE", g + "/leaderboard", "GET, HEAD"},
		{"OPTIONS", g + "/players/1001", "GET, HEAD"},
		{"GET", g + "/webhooks/5", "DELETE"},
		{"PUT", g + "/webhooks/5", "DELETE"},
		{"PATCH", g + "/matches", "GET, HEAD, POST"},
		{"GET", g + "/balance", "POST"},
	} {
		rec := call(e, tt.method, tt.path, "")
		if rec.Code != 405 || rec.Header().Get("Allow") != tt.allow {
			t.Errorf("Got(%s %s) = %d with Allow %q, want 405 with %q: %s", tt.method, tt.path, rec.Code, rec.Header().Get("Allow"), tt.allow, rec.Body)
		}
	}
}
