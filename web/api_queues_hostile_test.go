package web

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/joins"
)

// TestAdminQueuesHostile sends the queue settings API (PUT
// /api/v1/guilds/{guild}/admin/queues/{name}) what a hostile or broken
// client would: values of the wrong JSON type, out of range or overflowing
// a duration, oversize and control-character text, null, nested values,
// unknown settings, another guild's queue, hostile queue names. Each is a
// 4xx with a message and the database is unchanged; then eight identical
// PUTs at once all succeed and leave one state.
func TestAdminQueuesHostile(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{RatePerToken: -1})
		// As ladderbot serve has them: every group of settings.
		e.srv.queues.Joins, e.srv.queues.Community = joins.New(e.db, e.svc), community.New(e.db, e.svc)
		seedFixture(t, e)
		tok := newToken(t, e, guildG, "ops")
		other := "100000000000000099"
		if _, err := e.svc.EnsureGuild(context.Background(), other); err != nil {
			t.Fatal(err)
		}
		otherTok := newToken(t, e, other, "theirs")
		path := "/api/v1/guilds/" + guildG + "/admin/queues/2v2"
		cases := []struct{ name, path, body, token string }{
			{"q_start as a string", path, `{"q_start": "0.7"}`, tok},
			{"q_start above 1", path, `{"q_start": 2}`, tok},
			{"q_start 1e400", path, `{"q_start": 1e400}`, tok},
			{"q_floor negative", path, `{"q_floor": -0.1}`, tok},
			{"ready_window as a bool", path, `{"ready_window": true}`, tok},
			{"ready_window 5 s", path, `{"ready_window": 5}`, tok},
			{"ready_window 2^62 s", path, `{"ready_window": 4611686018427387904}`, tok},
			{"ready_window fractional", path, `{"ready_window": 30.5}`, tok},
			{"pick_window 2^53+1", path, `{"pick_window": 9007199254740993}`, tok},
			{"pick_mode draft", path, `{"pick_mode": "draft"}`, tok},
			{"pick_mode with a NUL", path, `{"pick_mode": "captains\u0000"}`, tok},
			{"cancel_share negative", path, `{"cancel_share": -1}`, tok},
			{"cancel_share 1", path, `{"cancel_share": 1.5}`, tok},
			{"cooldowns garbage", path, `{"cooldowns": "soon"}`, tok},
			{"cooldowns with a bidi override", path, `{"cooldowns": "5m,\u202e30m"}`, tok},
			{"cooldowns of 10,000 characters", path, `{"cooldowns": "` + strings.Repeat("5m,", 3333) + `5m"}`, tok},
			{"abandon_after -1h", path, `{"abandon_after": "-1h"}`, tok},
			{"team_size 9", path, `{"team_size": 9}`, tok},
			{"team_size 0", path, `{"team_size": 0}`, tok},
			{"model unknown", path, `{"model": "elo9000"}`, tok},
			{"channel not an ID", path, `{"channel": "#general"}`, tok},
			{"open as a number", path, `{"open": 1}`, tok},
			{"a null value", path, `{"q_start": null}`, tok},
			{"a nested value", path, `{"q_start": {"value": 0.7}}`, tok},
			{"an array", path, `[{"q_start": 0.7}]`, tok},
			{"an unknown setting", path, `{"q_start": 0.7, "admin": true}`, tok},
			{"a repeated key", path, `{"q_start": 0.7, "q_start": 0.9}`, tok},
			{"another guild's token", path, `{"q_start": 0.7}`, otherTok},
			{"another guild's queue by path", "/api/v1/guilds/" + other + "/admin/queues/2v2", `{"q_start": 0.7}`, tok},
			{"a queue name with a NUL", "/api/v1/guilds/" + guildG + "/admin/queues/2v%002", `{"q_start": 0.7}`, tok},
			{"a queue name of 500 characters", "/api/v1/guilds/" + guildG + "/admin/queues/" + strings.Repeat("q", 500), `{"q_start": 0.7}`, tok},
			// Formats, rooms, requirements, schedule, rematch, community.
			{"map_pick draft", path, `{"map_pick": "draft"}`, tok},
			{"map_pick as a number", path, `{"map_pick": 3}`, tok},
			{"best_of 2", path, `{"best_of": 2}`, tok},
			{"best_of 0", path, `{"best_of": 0}`, tok},
			{"best_of -1", path, `{"best_of": -1}`, tok},
			{"best_of 2^63", path, `{"best_of": 9223372036854775808}`, tok},
			{"best_of as a string", path, `{"best_of": "3"}`, tok},
			{"series_rating maps", path, `{"series_rating": "maps"}`, tok},
			{"room tent", path, `{"room": "tent"}`, tok},
			{"room as a bool", path, `{"room": true}`, tok},
			{"room_category not an ID", path, `{"room_category": "#matches"}`, tok},
			{"room_category of 25 digits", path, `{"room_category": "` + strings.Repeat("1", 25) + `"}`, tok},
			{"lobby_voice with a NUL", path, `{"lobby_voice": "300000000000000001\u0000"}`, tok},
			{"voice as a string", path, `{"voice": "yes"}`, tok},
			{"voice without a room", path, `{"room": "none", "voice": true}`, tok},
			{"room_linger -1", path, `{"room_linger": -1}`, tok},
			{"room_linger a day and a second", path, `{"room_linger": 86401}`, tok},
			{"room_linger 2^62", path, `{"room_linger": 4611686018427387904}`, tok},
			{"room_linger fractional", path, `{"room_linger": 1.5}`, tok},
			{"min_rating 1e400", path, `{"min_rating": 1e400}`, tok},
			{"min_rating negative", path, `{"min_rating": -5}`, tok},
			{"max_rating below min_rating", path, `{"min_rating": 1800, "max_rating": 1500}`, tok},
			{"min_games -1", path, `{"min_games": -1}`, tok},
			{"min_games 2^40", path, `{"min_games": 1099511627776}`, tok},
			{"games_queue unknown", path, `{"games_queue": "nope"}`, tok},
			{"required_role not an ID", path, `{"required_role": "@everyone"}`, tok},
			{"excluded_role with a bidi override", path, `{"excluded_role": "\u202e300000000000000001"}`, tok},
			{"min_account_days 2^40", path, `{"min_account_days": 1099511627776}`, tok},
			{"hours at 25:00", path, `{"hours": "mon-fri 25:00-26:00"}`, tok},
			{"hours of 10,000 characters", path, `{"hours": "` + strings.Repeat("mon 18:00-19:00; ", 600) + `"}`, tok},
			{"timezone on Mars", path, `{"timezone": "Mars/Olympus"}`, tok},
			{"timezone as a path", path, `{"timezone": "../../etc/passwd"}`, tok},
			{"rematch twice", path, `{"rematch": "twice"}`, tok},
			{"predictions as a string", path, `{"predictions": "yes"}`, tok},
			{"mvp_vote as a number", path, `{"mvp_vote": 1}`, tok},
			{"mvp_vote null", path, `{"mvp_vote": null}`, tok},
			{"a good room with a bad best_of", path, `{"room": "channel", "best_of": 4}`, tok},
			{"a good q_start with a bad rematch", path, `{"q_start": 0.7, "rematch": "twice"}`, tok},
		}
		ctx := context.Background()
		before, err := testdb.TakeSnapshot(ctx, e.db.SQL(), e.db.Dialect())
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				rec := call(e, "PUT", c.path, c.body, "Authorization", "Bearer "+c.token, "Content-Type", "application/json")
				if rec.Code < 400 || rec.Code > 499 || !strings.Contains(rec.Body.String(), `"error"`) {
					t.Errorf("Got(PUT %s %.80s) = %d %.300s, want a 4xx with an error message", c.path, c.body, rec.Code, rec.Body)
				}
			})
		}
		after, err := testdb.TakeSnapshot(ctx, e.db.SQL(), e.db.Dialect())
		if err != nil {
			t.Fatal(err)
		}
		if diff := before.Diff(after); len(diff) > 0 {
			t.Errorf("refused settings changed the database: %v", diff)
		}
		// Eight identical PUTs at once: each answered, one resulting state.
		var wg sync.WaitGroup
		codes := make(chan int, 8)
		for range 8 {
			wg.Go(func() {
				codes <- call(e, "PUT", path, `{"q_start": 0.7, "ready_window": 45}`, "Authorization", "Bearer "+tok, "Content-Type", "application/json").Code
			})
		}
		wg.Wait()
		close(codes)
		for code := range codes {
			if code != 200 && code != 409 && code != 503 {
				t.Errorf("Got(concurrent PUT) = %d, want 200 (or a conflict to retry)", code)
			}
		}
		q, l, err := e.svc.Lobby(ctx, guildG, "2v2")
		if err != nil || q.QStart != 0.7 || l.ReadyWindow.Seconds() != 45 {
			t.Errorf("Got(queue after concurrent PUTs) = q_start %g, ready %s, %v; want 0.7, 45s", q.QStart, l.ReadyWindow, err)
		}
		// The groups the table refused are served: good values pass.
		good := `{"map_pick": "vote", "best_of": 3, "room": "channel", "room_linger": 60, "rematch": "same", "hours": "mon-fri 18:00-23:00", "timezone": "Europe/Berlin", "predictions": true, "mvp_vote": true}`
		if rec := call(e, "PUT", path, good, "Authorization", "Bearer "+tok, "Content-Type", "application/json"); rec.Code != 200 ||
			!strings.Contains(rec.Body.String(), `"rematch":"same"`) || !strings.Contains(rec.Body.String(), `"mvp_vote":true`) {
			t.Errorf("Got(PUT of good values) = %d %.400s, want 200 with them", rec.Code, rec.Body)
		}
	})
}
