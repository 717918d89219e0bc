package dashboard_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/ladderbot/ladderbot/internal/laddertest"
	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestSQLiteDashboardReadsNoHistory logs a moderator in and opens every
// page of the dashboard over a SQLite ladder with a history (a disputed
// match among them), recording every statement the ORM sends, and asks
// SQLite for each one's plan: none may scan a table that grows with the
// history, nor read one by the guild alone (testdb.NoHistoryScans). A
// moderator's page costs its rows, not the guild's past.
func TestSQLiteDashboardReadsNoHistory(t *testing.T) {
	e := newEnv(t, testdb.SQLite)
	// The disputed match's four players (disputedMatch) and 12 others.
	ids := append(append([]string{}, team1...), team2...)
	for i := range 12 {
		ids = append(ids, fmt.Sprintf("7000000000000000%02d", i+1))
	}
	laddertest.RecordHistory(t, e.svc, guildA, ids, 60)
	id := disputedMatch(t, e)
	sent := testdb.CaptureStatements(t, e.db.Gorm())
	b := e.browser(t)
	b.login(userAdmin, "/admin")
	g := "/admin/guilds/" + guildA
	for _, path := range []string{"/admin", g + "/", queuePath(guildA), g + "/settings", g + "/integrations", g + "/audit",
		g + "/disputes", fmt.Sprintf("%s/matches/%d", g, id), g + "/players", g + "/players/" + ids[0]} {
		if p := b.get(path); p.status != http.StatusOK {
			t.Errorf("GET %s = %d, want 200: %.300s", path, p.status, p.body)
		}
	}
	n := testdb.NoHistoryScans(t, e.db.SQL(), sent())
	if n < 20 {
		t.Errorf("Got(%d distinct statements), want the pages' reads (at least 20)", n)
	}
	t.Logf("%d distinct statements planned", n)
}
