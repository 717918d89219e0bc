package dashboard_test

import (
	"encoding/csv"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestAuditPage: the audit log page filters by actor, action, player and
// date, and its CSV export holds the same rows.
func TestAuditPage(t *testing.T) {
	e := newEnv(t, testdb.SQLite)
	b := e.browser(t)
	b.login(userAdmin, "/admin")
	token := b.csrf(queuePath(guildA))
	b.post(queuePath(guildA), url.Values{"csrf": {token}, "q_start": {"0.77"}})
	b.post("/admin/guilds/"+guildA+"/players/"+team1[0]+"/ban", url.Values{"csrf": {token}, "reason": {"=cmd|calc"}})
	audit := "/admin/guilds/" + guildA + "/audit"
	cases := []struct {
		query      string
		want, lack []string
	}{
		{"?actor=web:", []string{"queue.update", "queue_ban"}, nil},
		{"?action=queue_ban", []string{"queue_ban"}, []string{"queue.update"}},
		{"?player=" + team1[0], []string{"queue_ban"}, []string{"queue.update"}},
		{"?actor=api:", nil, []string{"queue.update", "queue_ban"}},
		{"?from=2999-01-01", nil, []string{"queue.update"}},
	}
	for _, c := range cases {
		p := b.get(audit + c.query)
		table := "" // the table of entries, absent when none match
		if i := strings.Index(p.body, `id="audit"`); i >= 0 {
			table = p.body[i:]
		}
		for _, w := range c.want {
			if !strings.Contains(table, w) {
				t.Errorf("Got(audit%s) lacks %q", c.query, w)
			}
		}
		for _, l := range c.lack {
			if strings.Contains(table, l) {
				t.Errorf("Got(audit%s) shows %q", c.query, l)
			}
		}
	}
	if p := b.get(audit + "?from=yesterday"); p.status != http.StatusBadRequest {
		t.Errorf("Got(audit?from=yesterday) = %d, want 400", p.status)
	}
	p := b.get(audit + "?actor=web:&format=csv")
	if ct := p.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") {
		t.Fatalf("Got(CSV Content-Type) = %q", ct)
	}
	rows, err := csv.NewReader(strings.NewReader(p.body)).ReadAll()
	if err != nil || len(rows) != 3 || rows[0][0] != "id" {
		t.Fatalf("Got(CSV) = %v (%v), want a header and two rows", rows, err)
	}
	for _, r := range rows[1:] {
		if r[2] != "web:"+userAdmin {
			t.Errorf("Got(CSV actor) = %q", r[2])
		}
		if strings.HasPrefix(r[6], "=") {
			t.Errorf("Got(CSV reason) = %q: a formula a spreadsheet would run", r[6])
		}
	}
}
