package dashboard_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestPlayers: search finds a player by name, and the player's page bans
// from and readmits to the queues, clears a cooldown and sets and resets
// the rating, each through the service and in the audit log under the web
// user; a bad value changes nothing.
func TestPlayers(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		ctx := context.Background()
		if _, err := e.svc.RecordResult(ctx, ladder.ResultInput{GuildID: guildA, Queue: queueName, Team1: team1, Team2: team2, Winner: 1,
			Names: map[string]string{team1[0]: "Zora"}}); err != nil {
			t.Fatal(err)
		}
		b := e.browser(t)
		b.login(userAdmin, "/admin")
		players := "/admin/guilds/" + guildA + "/players"
		// A new player is provisional, so the name search (listed players)
		// finds nobody, while the ID opens the page.
		if p := b.get(players + "?q=" + team1[0]); p.url.Path != players+"/"+team1[0] || !strings.Contains(p.body, "Zora") {
			t.Fatalf("Got(search by ID) = %d at %s %.300s", p.status, p.url.Path, p.body)
		}
		page := players + "/" + team1[0]
		token := b.csrf(page)
		steps := []struct {
			path   string
			form   url.Values
			status int
			action string
		}{
			{"/ban", url.Values{"hours": {"24"}, "reason": {"toxic"}}, http.StatusOK, "queue_ban"},
			{"/ban", url.Values{"hours": {"-3"}}, http.StatusBadRequest, ""},
			{"/unban", url.Values{}, http.StatusOK, "queue_unban"},
			{"/cooldown", url.Values{}, http.StatusOK, ""},
			// A decimal comma, as a German phone's keyboard types it.
			{"/rating", url.Values{"rating": {"1725,5"}, "rd": {"80,0"}, "queue": {queueName}, "reason": {"smurf"}}, http.StatusOK, "rating"},
			{"/rating", url.Values{"rating": {"lots"}, "rd": {"80"}}, http.StatusBadRequest, ""},
			// 1,725 is 1725 in English and 1.725 in German: refused.
			{"/rating", url.Values{"rating": {"1,725"}, "rd": {"80"}, "queue": {queueName}}, http.StatusBadRequest, ""},
		}
		for _, s := range steps {
			s.form.Set("csrf", token)
			p := b.post(page+s.path, s.form)
			if p.status != s.status {
				t.Errorf("Got(POST %s %v) = %d %.300s, want %d", s.path, s.form, p.status, p.body, s.status)
			}
		}
		// Unbanned already: the refusal names the player as the page
		// does, not as a Discord mention ("<@ID>") a page shows raw.
		if p := b.post(page+"/unban", url.Values{"csrf": {token}}); p.status != http.StatusNotFound ||
			!strings.Contains(p.body, "Zora is not banned") || strings.Contains(p.body, "&lt;@") {
			t.Errorf("Got(second unban) = %d, want 404 naming Zora: %s", p.status, errorOf(p.body))
		}
		st, err := e.svc.CurrentStandings(ctx, guildA, queueName, []string{team1[0]})
		if err != nil {
			t.Fatal(err)
		}
		if st[0].Rating != 1725.5 || st[0].RD != 80 {
			t.Errorf("Got(rating after set) = %g ± %g, want 1725.5 ± 80", st[0].Rating, st[0].RD)
		}
		var actions []string
		for _, a := range webAudits(t, e, guildA) {
			actions = append(actions, a.Action)
		}
		joined := strings.Join(actions, " ")
		for _, want := range []string{"queue_ban", "queue_unban", "rating"} {
			if !strings.Contains(joined, want) {
				t.Errorf("Got(audit actions) = %v, want one with %q", actions, want)
			}
		}
	})
}
