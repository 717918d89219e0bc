package dashboard_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestAuthorization: who may open and change a guild's pages. Manage
// Server or the ladder's moderator role admit; a member without either,
// and a moderator of another guild reaching this one by URL, are refused
// every page and every write, and nothing changes.
func TestAuthorization(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		pages := []string{"/", "/queues/" + queueName, "/audit", "/disputes", "/players", "/players/" + userPlain}
		cases := []struct {
			name, user string
			allowed    bool
		}{
			{"manage server", userAdmin, true},
			{"moderator role", userRole, true},
			{"plain member", userPlain, false},
			{"moderator of guild B", userAdminB, false},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				b := e.browser(t)
				b.login(c.user, "/admin")
				for _, pg := range pages {
					p := b.peek("/admin/guilds/" + guildA + pg)
					if got := p.status == http.StatusOK; got != c.allowed {
						t.Errorf("Got(GET %s as %s) = %d %.200s, want allowed=%v", pg, c.name, p.status, p.body, c.allowed)
					}
				}
				before, _ := lobbyOf(t, e, guildA)
				// A write with a valid CSRF token of the user's own session.
				token := b.csrf("/admin/logout")
				p := b.post(queuePath(guildA), url.Values{"csrf": {token}, "q_start": {"0.66"}})
				after, _ := lobbyOf(t, e, guildA)
				if c.allowed {
					if after.QStart != 0.66 {
						t.Errorf("Got(q_start after %s's write) = %g, want 0.66 (%d %.200s)", c.name, after.QStart, p.status, p.body)
					}
					return
				}
				if p.status != http.StatusForbidden || after.QStart != before.QStart {
					t.Errorf("Got(write as %s) = %d, q_start %g → %g; want 403 and no change", c.name, p.status, before.QStart, after.QStart)
				}
			})
		}
	})
}

// TestDemotedModerator: a moderator whose role is taken away on Discord
// is refused at the next write, though a page read within the last five
// minutes still stands for reads.
func TestDemotedModerator(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		b := e.browser(t)
		b.login(userRole, queuePath(guildA))
		token := b.csrf(queuePath(guildA))
		e.fake.TakeRole(guildA, userRole, e.modRole)
		p := b.post(queuePath(guildA), url.Values{"csrf": {token}, "q_floor": {"0.3"}})
		if q, _ := lobbyOf(t, e, guildA); p.status != http.StatusForbidden || q.QFloor == 0.3 {
			t.Errorf("Got(write after demotion) = %d, q_floor %g; want 403 and unchanged", p.status, q.QFloor)
		}
		if !strings.Contains(p.body, "moderator role") {
			t.Errorf("Got(refusal) = %.300s, want it to name what is needed", p.body)
		}
		// Given back, the next write passes.
		giveRole(t, e, guildA, userRole, e.modRole)
		token = b.csrf(queuePath(guildA))
		p = b.post(queuePath(guildA), url.Values{"csrf": {token}, "q_floor": {"0.3"}})
		if q, _ := lobbyOf(t, e, guildA); p.status != http.StatusOK || q.QFloor != 0.3 {
			t.Errorf("Got(write after the role came back) = %d, q_floor %g %.300s", p.status, q.QFloor, p.body)
		}
	})
}

// TestCSRF: a write needs the session's form token and must come from the
// dashboard's own origin; a missing or wrong token, or a form posted from
// another site, is refused and changes nothing.
func TestCSRF(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		b := e.browser(t)
		b.login(userAdmin, "/admin")
		token := b.csrf(queuePath(guildA))
		other := e.browser(t)
		other.login(userAdmin, "/admin")
		otherToken := other.csrf(queuePath(guildA))
		cases := []struct {
			name string
			send func() page
		}{
			{"no token", func() page { return b.post(queuePath(guildA), url.Values{"q_start": {"0.61"}}) }},
			{"wrong token", func() page { return b.post(queuePath(guildA), url.Values{"csrf": {token + "x"}, "q_start": {"0.61"}}) }},
			{"another session's token", func() page {
				return b.post(queuePath(guildA), url.Values{"csrf": {otherToken}, "q_start": {"0.61"}})
			}},
			{"another site, with the token", func() page {
				return b.postFrom(queuePath(guildA), url.Values{"csrf": {token}, "q_start": {"0.61"}}, "https://evil.example", "cross-site")
			}},
			{"another origin, no fetch metadata", func() page {
				return b.postFrom(queuePath(guildA), url.Values{"csrf": {token}, "q_start": {"0.61"}}, "https://evil.example", "")
			}},
			{"log out from another site", func() page {
				return b.postFrom("/admin/logout", url.Values{"csrf": {token}}, "https://evil.example", "cross-site")
			}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				p := c.send()
				if q, _ := lobbyOf(t, e, guildA); p.status != http.StatusForbidden || q.QStart == 0.61 {
					t.Errorf("Got(%s) = %d, q_start %g; want 403 and unchanged", c.name, p.status, q.QStart)
				}
			})
		}
		if n := len(webAudits(t, e, guildA)); n != 0 {
			t.Errorf("Got(dashboard audit entries) = %d, want 0", n)
		}
		// Still logged in, and the real form works.
		if p := b.post(queuePath(guildA), url.Values{"csrf": {token}, "q_start": {"0.61"}}); p.status != http.StatusOK {
			t.Errorf("Got(real form) = %d %.300s", p.status, p.body)
		}
	})
}

// TestQueueSettings: the settings form changes the queue as /config queue
// set does, through the same checks with the same messages, and every
// write is in the audit log under the web user.
func TestQueueSettings(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		b := e.browser(t)
		b.login(userAdmin, "/admin")
		token := b.csrf(queuePath(guildA))
		form := url.Values{"csrf": {token}, "q_start": {"0.7"}, "q_floor": {"0.4"}, "cooldowns": {"1m,10m"},
			"ready_window": {"60"}, "pick_mode": {"captains"}, "self_tune": {"false"}, "open": {"true"}}
		p := b.post(queuePath(guildA), form)
		if p.status != http.StatusOK || !strings.Contains(p.body, "saved") {
			t.Fatalf("Got(save) = %d %.400s", p.status, p.body)
		}
		q, l := lobbyOf(t, e, guildA)
		if q.QStart != 0.7 || q.QFloor != 0.4 || l.ReadyWindow != time.Minute || l.PickMode != "captains" ||
			len(l.Cooldowns) != 2 || l.Cooldowns[1] != 10*time.Minute {
			t.Errorf("Got(saved) = q %g/%g, ready %s, pick %s, cooldowns %v", q.QStart, q.QFloor, l.ReadyWindow, l.PickMode, l.Cooldowns)
		}
		if !strings.Contains(p.body, `value="0.7"`) {
			t.Errorf("Got(form after save) lacks the new q_start: %.300s", p.body)
		}
		audits := webAudits(t, e, guildA)
		if len(audits) == 0 {
			t.Fatal("no audit entry for the dashboard's write")
		}
		var actions []string
		for _, a := range audits {
			actions = append(actions, a.Action)
			if a.ActorID != "web:"+userAdmin {
				t.Errorf("Got(audit actor) = %q, want web:%s", a.ActorID, userAdmin)
			}
		}
		if !strings.Contains(strings.Join(actions, " "), "queue.update") {
			t.Errorf("Got(audit actions) = %v, want queue.update", actions)
		}

		bad := []struct{ field, value, msg string }{
			{"q_floor", "0.9", "quality thresholds need 0 ≤ q_floor ≤ q_start ≤ 1"},
			{"cooldowns", "5m,soon", "cooldowns must be durations separated by commas"},
			{"abandon_after", "forever", "abandon_after must be a duration like 3h or 90m"},
			{"ready_window", "5", "ready_window must be at least 10 seconds"},
			{"team_size", "9", "team size must be from 1 to"},
			{"pick_mode", "random", "pick_mode must be balanced or captains"},
			{"q_start", "lots", "q_start must be a number"},
			{"channel", "#general", "channel must be a Discord channel"},
		}
		n := len(audits)
		for _, c := range bad {
			t.Run(c.field, func(t *testing.T) {
				before, beforeL := lobbyOf(t, e, guildA)
				p := b.post(queuePath(guildA), url.Values{"csrf": {token}, c.field: {c.value}})
				after, afterL := lobbyOf(t, e, guildA)
				if p.status != http.StatusBadRequest || !strings.Contains(p.body, c.msg) {
					t.Errorf("Got(%s=%s) = %d %.300s, want 400 saying %q", c.field, c.value, p.status, p.body, c.msg)
				}
				if before.QFloor != after.QFloor || before.TeamSize != after.TeamSize || beforeL.AbandonAfter != afterL.AbandonAfter ||
					len(beforeL.Cooldowns) != len(afterL.Cooldowns) || before.ChannelID != after.ChannelID {
					t.Errorf("Got(queue after refused %s) changed", c.field)
				}
				if !strings.Contains(p.body, `value="`+c.value+`"`) && c.field != "pick_mode" {
					t.Errorf("Got(form after refusal) does not keep the value typed")
				}
			})
		}
		if got := len(webAudits(t, e, guildA)); got != n {
			t.Errorf("Got(audit entries after refused writes) = %d, want %d", got, n)
		}
	})
}

// TestQueueNameInPath: a queue whose name needs escaping in a URL ("ranked
// 1/1") is linked from the guild page and saved from its own form.
func TestQueueNameInPath(t *testing.T) {
	e := newEnv(t, testdb.SQLite)
	if _, err := e.svc.CreateQueue(context.Background(), ladder.System, ladder.NewQueue(guildA, "ranked 1/1", 1)); err != nil {
		t.Fatal(err)
	}
	b := e.browser(t)
	b.login(userAdmin, "/admin")
	p := b.get("/admin/guilds/" + guildA + "/")
	link := "/admin/guilds/" + guildA + "/queues/ranked%201%2F1"
	if !strings.Contains(p.body, `href="`+link+`"`) {
		t.Fatalf("Got(guild page) lacks the link %s: %.600s", link, p.body)
	}
	token := b.csrf(link)
	p = b.post(link, url.Values{"csrf": {token}, "q_floor": {"0.45"}})
	q, _, err := e.svc.Lobby(context.Background(), guildA, "ranked 1/1")
	if err != nil || p.status != http.StatusOK || q.QFloor != 0.45 {
		t.Errorf("Got(save of ranked 1/1) = %d, q_floor %g (%v)", p.status, q.QFloor, err)
	}
}
