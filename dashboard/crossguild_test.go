package dashboard_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestOtherGuildByURL: a moderator of guild B, logged in, reaches none of
// guild A's pages and none of its writes by typing the URL, with a valid
// form token of their own session; nor does the dashboard's session open
// guild A's token API, and guild B's API token opens nothing of A. Nothing
// of guild A changes and nothing is audited.
func TestOtherGuildByURL(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		ctx := context.Background()
		disputed := disputedMatch(t, e)
		rated, err := e.svc.RecordResult(ctx, ladder.ResultInput{GuildID: guildA, Queue: queueName, Team1: team1, Team2: team2, Winner: 1})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := e.svc.CreateToken(ctx, ladder.System, guildA, "game-server"); err != nil {
			t.Fatal(err)
		}
		b := e.browser(t)
		b.login(userAdminB, "/admin")
		token := b.csrf("/admin/guilds/" + guildB + "/settings")
		a := "/admin/guilds/" + guildA
		pages := []string{"/", "/queues/" + queueName, "/settings", "/integrations", "/audit", "/audit?format=csv", "/disputes",
			fmt.Sprintf("/matches/%d", rated.Match.ID), fmt.Sprintf("/matches/%d?winner=2", rated.Match.ID), "/players", "/players/" + team1[0]}
		for _, pg := range pages {
			if p := b.peek(a + pg); p.status != http.StatusForbidden && p.status != http.StatusNotFound {
				t.Errorf("Got(GET %s as guild B's moderator) = %d %.200s, want refused", pg, p.status, p.body)
			} else if strings.Contains(p.body, "Alpha League") || strings.Contains(p.body, team1[0]) {
				t.Errorf("Got(GET %s as guild B's moderator) shows guild A's data: %.300s", pg, p.body)
			}
		}
		before, _ := e.svc.Audit(ctx, guildA, 500)
		writes := []struct {
			path string
			form url.Values
		}{
			{"/queues/" + queueName, url.Values{"q_start": {"0.61"}, "sides": {"true"}, "room": {"none"}, "voice": {"false"}}},
			{"/settings", url.Values{"stale_days": {"99"}}},
			{"/roles", url.Values{"badge:top3": {"700000000000000009"}}},
			{"/season/end", url.Values{"season": {"1"}}},
			{"/tokens", url.Values{"name": {"mine"}}},
			{"/tokens/game-server/revoke", url.Values{}},
			{"/webhooks", url.Values{"url": {"https://hooks.example/x"}}},
			{fmt.Sprintf("/matches/%d/resolve", disputed), url.Values{"winner": {"2"}}},
			{fmt.Sprintf("/matches/%d/void", disputed), url.Values{}},
			{fmt.Sprintf("/matches/%d/correct", rated.Match.ID), url.Values{"winner": {"2"}}},
			{"/players/" + team1[0] + "/ban", url.Values{"hours": {"1"}}},
			{"/players/" + team1[0] + "/rating", url.Values{"queue": {queueName}, "rating": {"2000"}, "rd": {"50"}}},
			{"/players/" + team1[0] + "/rating/reset", url.Values{"queue": {queueName}}},
		}
		for _, w := range writes {
			w.form.Set("csrf", token)
			if p := b.post(a+w.path, w.form); p.status != http.StatusForbidden {
				t.Errorf("Got(POST %s as guild B's moderator) = %d %.200s, want 403", w.path, p.status, p.body)
			}
		}
		after, _ := e.svc.Audit(ctx, guildA, 500)
		if len(after) != len(before) {
			t.Errorf("Got(guild A's audit entries) = %d after the refused writes, want %d", len(after), len(before))
		}
		if m, _ := e.svc.Match(ctx, guildA, disputed); m.State != ladder.StateDisputed {
			t.Errorf("Got(disputed match) = %s, want still disputed", m.State)
		}
		if q, _ := lobbyOf(t, e, guildA); q.QStart == 0.61 {
			t.Error("Got(q_start) = 0.61: guild B's moderator changed guild A's queue")
		}

		// The API: the dashboard's session cookie is no API credential, and
		// guild B's token opens nothing of guild A.
		api := e.srv.URL + "/api/v1/guilds/" + guildA + "/admin/queues"
		resp, err := b.client.Get(api)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("Got(guild A's API with guild B's moderator's cookie) = %d, want 401", resp.StatusCode)
		}
		secretB, _, err := e.svc.CreateToken(ctx, ladder.System, guildB, "b-server")
		if err != nil {
			t.Fatal(err)
		}
		for _, req := range []*http.Request{
			mustRequest(t, http.MethodGet, api, ""),
			mustRequest(t, http.MethodPut, api+"/"+queueName, `{"q_start": 0.61}`),
		} {
			req.Header.Set("Authorization", "Bearer "+secretB)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("Got(%s guild A's admin API with guild B's token) = %d, want 401", req.Method, resp.StatusCode)
			}
		}
		if q, _ := lobbyOf(t, e, guildA); q.QStart == 0.61 {
			t.Error("Got(q_start) = 0.61 after guild B's token wrote to guild A")
		}
	})
}

func mustRequest(t *testing.T, method, url, body string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	return req
}
