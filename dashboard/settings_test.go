package dashboard_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestGuildSettings: the server settings form stores through the same
// write and checks as /config, refuses a bad value with its message and
// no change, and ends the season shown once however often it is sent.
func TestGuildSettings(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		ctx := context.Background()
		b := e.browser(t)
		b.login(userAdmin, "/admin")
		path := "/admin/guilds/" + guildA + "/settings"
		token := b.csrf(path)
		p := b.post(path, url.Values{"csrf": {token}, "stale_days": {"45"}, "divisions": {"Iron:0, Gold:1600"}, "schedule": {"0 0 1 */3 *"}})
		if p.status != http.StatusOK || !strings.Contains(p.body, "Settings saved") {
			t.Fatalf("Got(save) = %d %.300s", p.status, p.body)
		}
		g, err := e.svc.Guild(ctx, guildA)
		if err != nil {
			t.Fatal(err)
		}
		if g.StaleDays != 45 || len(g.Divisions) != 2 || g.Divisions[1].Name != "Gold" || g.SeasonSchedule != "0 0 1 */3 *" || g.ModeratorRoleID != e.modRole {
			t.Errorf("Got(guild) = stale %d, divisions %v, schedule %q, role %q", g.StaleDays, g.Divisions, g.SeasonSchedule, g.ModeratorRoleID)
		}
		for _, c := range []struct{ field, value, msg string }{
			{"schedule", "every day", "must be a 5-field cron expression"},
			{"stale_days", "0", "stale days must be from 1 to 3650"},
			{"divisions", "Gold", "write Name:minimum"},
			{"announce", "#news", "announce must be a Discord channel or role"},
		} {
			p := b.post(path, url.Values{"csrf": {token}, c.field: {c.value}})
			if p.status != http.StatusBadRequest || !strings.Contains(p.body, c.msg) {
				t.Errorf("Got(%s=%q) = %d %.300s, want 400 with %q", c.field, c.value, p.status, p.body, c.msg)
			}
		}
		if after, _ := e.svc.Guild(ctx, guildA); after.StaleDays != 45 || after.SeasonSchedule != g.SeasonSchedule || len(after.Divisions) != 2 {
			t.Errorf("Got(guild after refused writes) changed: %+v", after)
		}
		// End season 1 twice: the second send is already done.
		token = b.csrf(path)
		for i, want := range []string{"Season 1 ended", "already ended"} {
			p := b.post("/admin/guilds/"+guildA+"/season/end", url.Values{"csrf": {token}, "season": {"1"}})
			if !strings.Contains(p.body, want) {
				t.Errorf("Got(end season, send %d) = %d %.300s, want %q", i+1, p.status, p.body, want)
			}
		}
		if s, _ := e.svc.LatestSeason(ctx, guildA); s.Number != 2 {
			t.Errorf("Got(season after end) = %d, want 2", s.Number)
		}
	})
}

var secretRE = regexp.MustCompile(`<div class="flash" id="secret">.*?<code>([^<]+)</code>`)

// TestTokens: a token made on the dashboard works on the API with the
// secret shown once, and stops working when revoked there.
func TestTokens(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		b := e.browser(t)
		b.login(userAdmin, "/admin")
		path := "/admin/guilds/" + guildA + "/integrations"
		token := b.csrf(path)
		p := b.post("/admin/guilds/"+guildA+"/tokens", url.Values{"csrf": {token}, "name": {"game-server"}})
		m := secretRE.FindStringSubmatch(strings.ReplaceAll(p.body, "\n", " "))
		if p.status != http.StatusOK || m == nil {
			t.Fatalf("Got(create token) = %d, no secret shown: %.600s", p.status, p.body)
		}
		secret := m[1]
		if again := b.get(path); strings.Contains(again.body, secret) {
			t.Error("Got(integrations page later) shows the secret again")
		}
		api := func() int {
			req, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/api/v1/guilds/"+guildA+"/admin/queues", nil)
			req.Header.Set("Authorization", "Bearer "+secret)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			return resp.StatusCode
		}
		if got := api(); got != http.StatusOK {
			t.Fatalf("Got(API with the new token) = %d, want 200", got)
		}
		p = b.post("/admin/guilds/"+guildA+"/tokens/game-server/revoke", url.Values{"csrf": {token}})
		if !strings.Contains(p.body, "revoked") {
			t.Errorf("Got(revoke) = %d %.300s", p.status, p.body)
		}
		if got := api(); got != http.StatusUnauthorized {
			t.Errorf("Got(API with the revoked token) = %d, want 401", got)
		}
		var actions []string
		for _, a := range webAudits(t, e, guildA) {
			actions = append(actions, a.Action)
		}
		if s := strings.Join(actions, " "); !strings.Contains(s, "token.create") || !strings.Contains(s, "token.revoke") {
			t.Errorf("Got(audit actions) = %v, want token.create and token.revoke", actions)
		}
	})
}
