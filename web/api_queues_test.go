package web

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/community"
)

// TestAdminQueuesAPI: the queue settings through the token API, under
// /config queue set's names, written through the same checks with the
// same messages, audited under the token, and refused with another
// guild's token.
func TestAdminQueuesAPI(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		seedFixture(t, e)
		tok := newToken(t, e, guildG, "ops")
		path := "/api/v1/guilds/" + guildG + "/admin/queues"
		rec := call(e, "GET", path, "", "Authorization", "Bearer "+tok)
		if rec.Code != 200 {
			t.Fatalf("Got(GET queues) = %d %s", rec.Code, rec.Body)
		}
		var got struct {
			Queues []map[string]any `json:"queues"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || len(got.Queues) == 0 {
			t.Fatalf("Got(GET queues) = %s (%v), want a list", rec.Body, err)
		}
		q := got.Queues[0]
		name, _ := q["name"].(string)
		for field, want := range map[string]any{"q_start": 0.8, "q_floor": 0.5, "ready_window": 120.0, "cooldowns": "5m,30m,2h",
			"pick_mode": "balanced", "open": true, "abandon_after": "3h"} {
			if q[field] != want {
				t.Errorf("Got(%s) = %#v, want %#v", field, q[field], want)
			}
		}

		rec = call(e, "PUT", path+"/"+name, `{"q_start": 0.75, "cooldowns": "1m,2m", "self_tune": true, "ready_window": 30}`,
			"Authorization", "Bearer "+tok, "Content-Type", "application/json")
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"q_start":0.75`) || !strings.Contains(rec.Body.String(), `"self_tune":true`) {
			t.Fatalf("Got(PUT) = %d %s", rec.Code, rec.Body)
		}
		sq, l, err := e.svc.Lobby(context.Background(), guildG, name)
		if err != nil {
			t.Fatal(err)
		}
		if sq.QStart != 0.75 || !sq.SelfTune || l.ReadyWindow != 30*time.Second || len(l.Cooldowns) != 2 {
			t.Errorf("Got(stored) = q_start %g, self_tune %v, ready %s, cooldowns %v", sq.QStart, sq.SelfTune, l.ReadyWindow, l.Cooldowns)
		}
		audit, err := e.svc.Audit(context.Background(), guildG, 10)
		if err != nil || len(audit) == 0 || audit[0].ActorID != "api:ops" {
			t.Errorf("Got(latest audit) = %v (%v), want an entry by api:ops", audit, err)
		}

		bad := []struct{ name, body, msg string }{
			{"range", `{"q_floor": 0.9}`, "quality thresholds need"},
			{"type", `{"q_start": "high"}`, "q_start must be a number"},
			{"whole", `{"team_size": 2.5}`, "team_size must be a whole number"},
			{"unknown", `{"colour": "red"}`, `no queue setting called \"colour\"`},
			{"bool", `{"open": "yes"}`, "open must be true or false"},
			{"empty", `{}`, "at least one setting"},
		}
		for _, c := range bad {
			t.Run(c.name, func(t *testing.T) {
				rec := call(e, "PUT", path+"/"+name, c.body, "Authorization", "Bearer "+tok, "Content-Type", "application/json")
				if rec.Code != 400 || !strings.Contains(rec.Body.String(), c.msg) {
					t.Errorf("Got(PUT %s) = %d %s, want 400 with %q", c.body, rec.Code, rec.Body, c.msg)
				}
			})
		}
		if after, _, _ := e.svc.Lobby(context.Background(), guildG, name); after.QFloor != sq.QFloor || after.TeamSize != sq.TeamSize {
			t.Errorf("Got(queue after refused PUTs) changed: %+v", after)
		}
		if rec := call(e, "PUT", path+"/nope", `{"q_start": 0.7}`, "Authorization", "Bearer "+tok, "Content-Type", "application/json"); rec.Code != 404 {
			t.Errorf("Got(PUT unknown queue) = %d, want 404", rec.Code)
		}

		// Another guild's token reaches neither the list nor the write.
		other := newToken(t, e, otherGuild, "theirs")
		if rec := call(e, "GET", path, "", "Authorization", "Bearer "+other); rec.Code != 401 {
			t.Errorf("Got(GET with another guild's token) = %d, want 401", rec.Code)
		}
		if rec := call(e, "PUT", path+"/"+name, `{"q_start": 0.6}`, "Authorization", "Bearer "+other, "Content-Type", "application/json"); rec.Code != 401 {
			t.Errorf("Got(PUT with another guild's token) = %d, want 401", rec.Code)
		}
	})
}

// TestAdminQueuesCommunity: the token API shows and sets a queue's
// predictions and mvp_vote beside the other settings, through the
// community service (audited), refusing a non-boolean; without the
// community service they are unknown settings.
func TestAdminQueuesCommunity(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		seedFixture(t, e)
		e.srv = New(Options{Service: e.svc, Community: community.New(e.db, e.svc)})
		tok := newToken(t, e, guildG, "ops")
		auth := []string{"Authorization", "Bearer " + tok, "Content-Type", "application/json"}
		path := "/api/v1/guilds/" + guildG + "/admin/queues"
		rec := call(e, "GET", path, "", auth...)
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"predictions":false,"mvp_vote":false`) {
			t.Fatalf("Got(GET queues) = %d %s, want predictions and mvp_vote off", rec.Code, rec.Body)
		}
		qs, err := e.svc.Queues(context.Background(), guildG)
		if err != nil {
			t.Fatal(err)
		}
		rec = call(e, "PUT", path+"/"+qs[0].Name, `{"predictions": true, "q_start": 0.7}`, auth...)
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"predictions":true,"mvp_vote":false`) || !strings.Contains(rec.Body.String(), `"q_start":0.7`) {
			t.Fatalf("Got(PUT) = %d %s", rec.Code, rec.Body)
		}
		rec = call(e, "PUT", path+"/"+qs[0].Name, `{"mvp_vote": true}`, auth...)
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"predictions":true,"mvp_vote":true`) {
			t.Fatalf("Got(PUT mvp_vote) = %d %s", rec.Code, rec.Body)
		}
		wantError(t, call(e, "PUT", path+"/"+qs[0].Name, `{"mvp_vote": "yes"}`, auth...), 400, "mvp_vote must be true or false")
		audit, err := e.svc.Audit(context.Background(), guildG, 3)
		if err != nil || len(audit) == 0 || audit[0].Action != "queue.community" || audit[0].ActorID != "api:ops" {
			t.Errorf("Got(audit) = %+v, %v, want queue.community by api:ops", audit, err)
		}
		e.srv = New(Options{Service: e.svc})
		wantError(t, call(e, "PUT", path+"/"+qs[0].Name, `{"predictions": true}`, auth...), 400, "no queue setting")
	})
}
