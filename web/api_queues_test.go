package web

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/rooms"
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

// TestAdminQueuesRoomsAndSides: the room settings (/config queue room) and
// the sides setting (/config queue sides) through the same routes, under
// the commands' names, with their checks and messages; a bad value among
// good ones stores none of them.
func TestAdminQueuesRoomsAndSides(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		seedFixture(t, e)
		ctx := context.Background()
		tok := newToken(t, e, guildG, "ops")
		path := "/api/v1/guilds/" + guildG + "/admin/queues"
		auth := []string{"Authorization", "Bearer " + tok, "Content-Type", "application/json"}
		rec := call(e, "GET", path, "", auth...)
		var got struct {
			Queues []map[string]any `json:"queues"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || len(got.Queues) == 0 {
			t.Fatalf("Got(GET queues) = %d %s", rec.Code, rec.Body)
		}
		q := got.Queues[0]
		name, _ := q["name"].(string)
		for field, want := range map[string]any{"room": "thread", "room_category": "", "voice": false, "lobby_voice": "",
			"room_linger": 300.0, "sides": false} {
			if q[field] != want {
				t.Errorf("Got(%s) = %#v, want %#v", field, q[field], want)
			}
		}
		const category, lobby = "900000000000000001", "900000000000000002"
		rec = call(e, "PUT", path+"/"+name, `{"room": "channel", "room_category": "`+category+`", "voice": true, "lobby_voice": "`+lobby+`", "room_linger": 60, "sides": true, "q_start": 0.7, "best_of": 3, "map_pick": "random"}`, auth...)
		for _, want := range []string{`"room":"channel"`, `"voice":true`, `"room_linger":60`, `"sides":true`, `"q_start":0.7`, `"best_of":3`, `"map_pick":"random"`} {
			if rec.Code != 200 || !strings.Contains(rec.Body.String(), want) {
				t.Errorf("Got(PUT rooms) = %d %s, want %s", rec.Code, rec.Body, want)
			}
		}
		sq, _, _ := e.svc.Lobby(ctx, guildG, name)
		rs, err := e.db.RoomSettings(ctx, sq.ID)
		if err != nil {
			t.Fatal(err)
		}
		if rs.Mode != rooms.ModeChannel || rs.CategoryID != category || !rs.Voice || rs.LobbyVoiceID != lobby || rs.Linger != time.Minute {
			t.Errorf("Got(stored room settings) = %+v", rs)
		}
		if sided, _ := e.svc.QueueSided(ctx, guildG, name); !sided {
			t.Error("Got(sided) = false after PUT sides:true")
		}
		actions := map[string]string{}
		audit, _ := e.svc.Audit(ctx, guildG, 20)
		for _, a := range audit {
			actions[a.Action] = a.ActorID
		}
		for _, a := range []string{"queue.room", "queue.sides", "queue.update", "queue.format"} {
			if actions[a] != "api:ops" {
				t.Errorf("Got(audit %s by) = %q, want api:ops (all: %v)", a, actions[a], actions)
			}
		}

		bad := []struct{ name, body, msg string }{
			{"voice without a room", `{"room": "none", "q_start": 0.6}`, "voice needs a room"},
			{"mode", `{"room": "tent"}`, `room must be none, thread or channel, not \"tent\"`},
			{"linger", `{"room_linger": 90000}`, "room_linger must be from 0 to 86400 seconds"},
			{"channel", `{"room_category": "#matches"}`, "room_category must be a Discord channel"},
			{"voice type", `{"voice": "yes"}`, "voice must be true or false"},
			{"sides type", `{"sides": 1}`, "sides must be true or false"},
			{"best_of", `{"best_of": 2, "room": "thread"}`, "best_of must be 1, 3 or 5, not 2"},
			{"best_of type", `{"best_of": "3"}`, "best_of must be a whole number"},
			{"bad queue value with a good room", `{"room": "none", "voice": false, "q_floor": 0.95}`, "quality thresholds need"},
		}
		for _, c := range bad {
			t.Run(c.name, func(t *testing.T) {
				rec := call(e, "PUT", path+"/"+name, c.body, auth...)
				if rec.Code != 400 || !strings.Contains(rec.Body.String(), c.msg) {
					t.Errorf("Got(PUT %s) = %d %s, want 400 with %q", c.body, rec.Code, rec.Body, c.msg)
				}
			})
		}
		after, _, _ := e.svc.Lobby(ctx, guildG, name)
		if rs2, _ := e.db.RoomSettings(ctx, sq.ID); rs2 != rs || after.QStart != 0.7 {
			t.Errorf("Got(after refused PUTs) = room %+v, q_start %g; want unchanged", rs2, after.QStart)
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
