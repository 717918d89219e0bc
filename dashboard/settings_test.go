package dashboard_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/rooms"
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
		p := b.post(path, url.Values{"csrf": {token}, "stale_days": {"45"}, "divisions": {"Iron:0, Gold:1600"}, "schedule": {"0 0 1 */3 *"}, "weekly_top": {"on"}})
		if p.status != http.StatusOK || !strings.Contains(p.body, "Settings saved") {
			t.Fatalf("Got(save) = %d %.300s", p.status, p.body)
		}
		g, err := e.svc.Guild(ctx, guildA)
		if err != nil {
			t.Fatal(err)
		}
		if g.StaleDays != 45 || len(g.Divisions) != 2 || g.Divisions[1].Name != "Gold" || g.SeasonSchedule != "0 0 1 */3 *" || g.ModeratorRoleID != e.modRole || !g.WeeklyTop {
			t.Errorf("Got(guild) = stale %d, divisions %v, schedule %q, role %q, weekly top %v", g.StaleDays, g.Divisions, g.SeasonSchedule, g.ModeratorRoleID, g.WeeklyTop)
		}
		for _, c := range []struct{ field, value, msg string }{
			{"schedule", "every day", "must be a 5-field cron expression"},
			{"stale_days", "0", "stale days must be from 1 to 3650"},
			{"divisions", "Gold", "write Name:minimum"},
			{"announce", "#news", "announce must be a Discord channel or role"},
			{"weekly_top", "sometimes", "weekly_top must be on or off, not &#34;sometimes&#34;"},
		} {
			p := b.post(path, url.Values{"csrf": {token}, c.field: {c.value}})
			if p.status != http.StatusBadRequest || !strings.Contains(p.body, c.msg) {
				t.Errorf("Got(%s=%q) = %d %.300s, want 400 with %q", c.field, c.value, p.status, p.body, c.msg)
			}
		}
		if after, _ := e.svc.Guild(ctx, guildA); after.StaleDays != 45 || after.SeasonSchedule != g.SeasonSchedule || len(after.Divisions) != 2 || !after.WeeklyTop {
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

// TestQueueRoomsAndSides: the queue form has /config queue room's and
// sides' fields, stored through the same writes (audited under the web
// user) with the commands' messages; a bad value stores nothing of the
// form, the good fields sent with it included.
func TestQueueRoomsAndSides(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		ctx := context.Background()
		b := e.browser(t)
		b.login(userRole, "/admin")
		path := queuePath(guildA)
		page := b.get(path)
		for _, f := range []string{"room", "room_category", "voice", "lobby_voice", "room_linger", "map_pick", "best_of", "series_rating", "sides"} {
			if !strings.Contains(page.body, `name="`+f+`"`) {
				t.Errorf("Got(queue form) lacks field %s", f)
			}
		}
		token := b.csrf(path)
		const category = "900000000000000001"
		p := b.post(path, url.Values{"csrf": {token}, "room": {"channel"}, "room_category": {category}, "voice": {"true"},
			"room_linger": {"120"}, "sides": {"true"}})
		if p.status != http.StatusOK || !strings.Contains(p.body, "saved") {
			t.Fatalf("Got(save) = %d %.300s", p.status, p.body)
		}
		q, _ := lobbyOf(t, e, guildA)
		rs, err := e.db.RoomSettings(ctx, q.ID)
		if err != nil {
			t.Fatal(err)
		}
		if rs.Mode != rooms.ModeChannel || rs.CategoryID != category || !rs.Voice || rs.Linger != 2*time.Minute {
			t.Errorf("Got(room settings) = %+v", rs)
		}
		if sided, _ := e.svc.QueueSided(ctx, guildA, queueName); !sided {
			t.Error("Got(sided) = false, want true")
		}
		for _, c := range []struct {
			form url.Values
			msg  string
		}{
			{url.Values{"room": {"none"}, "q_start": {"0.6"}}, "voice needs a room"},
			{url.Values{"room_linger": {"-1"}}, "room_linger must be from 0 to 86400 seconds"},
			{url.Values{"lobby_voice": {"general"}}, "lobby_voice must be a Discord channel"},
			{url.Values{"sides": {"maybe"}, "room_linger": {"30"}}, "sides must be true or false"},
			{url.Values{"q_start": {"0,750"}}, "q_start must be a number"},
		} {
			c.form.Set("csrf", token)
			p := b.post(path, c.form)
			if p.status != http.StatusBadRequest || !strings.Contains(p.body, c.msg) {
				t.Errorf("Got(%v) = %d %.300s, want 400 with %q", c.form, p.status, p.body, c.msg)
			}
		}
		after, _ := e.db.RoomSettings(ctx, q.ID)
		if q2, _ := lobbyOf(t, e, guildA); after != rs || q2.QStart != q.QStart {
			t.Errorf("Got(after refused saves) = %+v, q_start %g; want unchanged", after, q2.QStart)
		}
		// A decimal comma, as four of the five languages write it.
		if p := b.post(path, url.Values{"csrf": {token}, "q_start": {"0,65"}}); p.status != http.StatusOK {
			t.Errorf("Got(q_start 0,65) = %d %.300s, want saved", p.status, p.body)
		}
		if q3, _ := lobbyOf(t, e, guildA); q3.QStart != 0.65 {
			t.Errorf("Got(q_start after 0,65) = %g, want 0.65", q3.QStart)
		}
		actions := map[string]string{}
		for _, a := range webAudits(t, e, guildA) {
			actions[a.Action] = a.ActorID
		}
		for _, a := range []string{"queue.room", "queue.sides"} {
			if actions[a] != "web:"+userRole {
				t.Errorf("Got(audit %s by) = %q, want web:%s", a, actions[a], userRole)
			}
		}
	})
}

// TestRoleMapping: the division and badge roles are editable on the
// settings page through /config roles' write: mapped, unmapped, refused
// with its message (nothing stored), audited under the web user.
func TestRoleMapping(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		ctx := context.Background()
		b := e.browser(t)
		b.login(userAdmin, "/admin")
		path := "/admin/guilds/" + guildA + "/settings"
		g, err := e.svc.Guild(ctx, guildA)
		if err != nil || len(g.Divisions) < 2 {
			t.Fatalf("Got(guild divisions) = %v, %v; want the defaults", g.Divisions, err)
		}
		low, high := g.Divisions[0].Name, g.Divisions[1].Name
		token := b.csrf(path)
		const r1, r2, r3 = "700000000000000001", "700000000000000002", "700000000000000003"
		p := b.post("/admin/guilds/"+guildA+"/roles", url.Values{"csrf": {token}, "division:" + low: {r1}, "division:" + high: {r2}, "badge:top3": {r3}})
		if p.status != http.StatusOK || !strings.Contains(p.body, "Roles saved") {
			t.Fatalf("Got(save roles) = %d %.300s", p.status, p.body)
		}
		rc, _ := e.svc.DivisionRoleConfig(ctx, guildA)
		if rc.Mapping[low] != r1 || rc.Mapping[high] != r2 || rc.Badges["top3"] != r3 {
			t.Errorf("Got(mapping) = %v, badges %v", rc.Mapping, rc.Badges)
		}
		if page := b.get(path); !strings.Contains(page.body, `value="`+r2+`"`) {
			t.Error("Got(settings page) does not show the mapped role")
		}
		for _, c := range []struct {
			form url.Values
			msg  string
		}{
			{url.Values{"division:" + low: {"@mods"}}, "is not a Discord ID"},
			{url.Values{"division:" + low: {r2}}, "one role cannot stand for two divisions or badges"},
			{url.Values{"badge:top30": {r1}, "division:" + high: {""}}, "one role cannot stand for two divisions or badges"},
		} {
			c.form.Set("csrf", token)
			p := b.post("/admin/guilds/"+guildA+"/roles", c.form)
			if p.status != http.StatusBadRequest || !strings.Contains(p.body, c.msg) {
				t.Errorf("Got(%v) = %d %.300s, want 400 with %q", c.form, p.status, p.body, c.msg)
			}
		}
		if after, _ := e.svc.DivisionRoleConfig(ctx, guildA); after.Mapping[high] != r2 || after.Badges["top30"] != "" {
			t.Errorf("Got(mapping after refused saves) = %v, badges %v", after.Mapping, after.Badges)
		}
		// Unmapping: an empty role.
		p = b.post("/admin/guilds/"+guildA+"/roles", url.Values{"csrf": {token}, "division:" + high: {""}})
		if rc, _ := e.svc.DivisionRoleConfig(ctx, guildA); p.status != http.StatusOK || rc.Mapping[high] != "" {
			t.Errorf("Got(unmap) = %d, mapping %v", p.status, rc.Mapping)
		}
		n := 0
		for _, a := range webAudits(t, e, guildA) {
			if a.Action == "roles.set" && a.ActorID == "web:"+userAdmin {
				n++
			}
		}
		if n != 2 {
			t.Errorf("Got(roles.set audit entries by the web user) = %d, want 2", n)
		}
	})
}
