package web

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/joins"
)

// TestAdminQueuesAPIJoins: the join settings (requirements, open hours,
// rematch) beside the other queue settings in the token API, written
// through the same parsing and checks as the commands, audited, and a
// bad one storing none of the fields sent.
func TestAdminQueuesAPIJoins(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		jn := joins.New(e.db, e.svc)
		e.svc.SetJoinGate(jn)
		e.srv = New(Options{Service: e.svc, Ping: e.db.Ping, Rates: e.db, Joins: jn})
		seedFixture(t, e)
		tok := newToken(t, e, guildG, "ops")
		path := "/api/v1/guilds/" + guildG + "/admin/queues"
		auth := []string{"Authorization", "Bearer " + tok, "Content-Type", "application/json"}

		rec := call(e, "GET", path, "", auth...)
		var got struct {
			Queues []map[string]any `json:"queues"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || len(got.Queues) == 0 {
			t.Fatalf("Got(GET queues) = %d %s (%v)", rec.Code, rec.Body, err)
		}
		q := got.Queues[0]
		name, _ := q["name"].(string)
		for field, want := range map[string]any{"min_rating": 0.0, "min_games": 0.0, "games_queue": "", "hours": "", "timezone": "UTC", "rematch": "off"} {
			if q[field] != want {
				t.Errorf("Got(%s) = %#v, want %#v", field, q[field], want)
			}
		}

		rec = call(e, "PUT", path+"/"+name, `{"min_rating": 1400, "min_games": 3, "hours": "Mon-Fri 18:00-23:00", "timezone": "Europe/Berlin", "rematch": "same", "q_start": 0.7}`, auth...)
		for _, want := range []string{`"min_rating":1400`, `"min_games":3`, `"hours":"mon-fri 18:00-23:00"`, `"timezone":"Europe/Berlin"`, `"rematch":"same"`, `"q_start":0.7`} {
			if rec.Code != 200 || !strings.Contains(rec.Body.String(), want) {
				t.Errorf("Got(PUT) = %d %s, want %s in it", rec.Code, rec.Body, want)
			}
		}
		qs, err := e.svc.Queues(context.Background(), guildG)
		if err != nil {
			t.Fatal(err)
		}
		st, err := jn.Settings(context.Background(), qs[0])
		if err != nil || st.MinRating != 1400 || st.MinGames != 3 || st.TimeZone != "Europe/Berlin" || st.Rematch != joins.RematchSame {
			t.Errorf("Got(stored) = %+v, %v", st, err)
		}
		audit, err := e.svc.Audit(context.Background(), guildG, 10)
		if err != nil || len(audit) == 0 || audit[0].Action != "queue.joins" || audit[0].ActorID != "api:ops" {
			t.Errorf("Got(latest audit) = %+v (%v), want queue.joins by api:ops", audit, err)
		}

		bad := []struct{ name, body, msg string }{
			{"hours", `{"q_start": 0.6, "hours": "18:00-25:00"}`, "not a time of day"},
			{"type", `{"min_rating": "high"}`, "min_rating must be a number"},
			{"zone", `{"timezone": "Nowhere/Town"}`, "timezone must be"},
			{"games queue", `{"games_queue": "nope"}`, `games_queue: no queue called \"nope\"`},
			{"range", `{"max_rating": 1000}`, "max_rating (1000) must not be below min_rating (1400)"},
			{"rematch", `{"rematch": "always"}`, "rematch must be off, same or rebalance"},
		}
		for _, c := range bad {
			t.Run(c.name, func(t *testing.T) {
				rec := call(e, "PUT", path+"/"+name, c.body, auth...)
				if rec.Code != 400 || !strings.Contains(rec.Body.String(), c.msg) {
					t.Errorf("Got(PUT %s) = %d %s, want 400 with %q", c.body, rec.Code, rec.Body, c.msg)
				}
			})
		}
		after, err := jn.Settings(context.Background(), qs[0])
		if err != nil || after != st {
			t.Errorf("Got(settings after refused PUTs) = %+v, %v, want %+v", after, err, st)
		}
		if aq, _, _ := e.svc.Lobby(context.Background(), guildG, name); aq.QStart != 0.7 {
			t.Errorf("Got(q_start after a refused PUT) = %g, want 0.7 kept", aq.QStart)
		}
	})
}
