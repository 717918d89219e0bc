package queueconfig_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/queueconfig"
	"github.com/ladderbot/ladderbot/rooms"
	"github.com/ladderbot/ladderbot/storage"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m, "queueconfig")) }

const guild = "200000000000000001"

// TestSet: one change of several commands' settings, checked whole: the
// names and values as the commands take them, nothing stored when one is
// bad, nothing written when nothing differs, each command's write audited.
func TestSet(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		ctx := context.Background()
		db, err := storage.Open(ctx, testdb.DSN(t, backend), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		svc := ladder.NewService(db, nil)
		if _, err := svc.EnsureGuild(ctx, guild); err != nil {
			t.Fatal(err)
		}
		if _, _, err := svc.Lobby(ctx, guild, "2v2"); err != nil {
			t.Fatal(err)
		}
		c := queueconfig.Config{Service: svc, Rooms: rooms.New(db, nil, svc, nil), Formats: formats.New(db, svc)}
		mod := ladder.Actor{UserID: "api:ops", Moderator: true}

		q, err := c.Read(ctx, guild, "2v2")
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, f := range q.Fields {
			names = append(names, f.Name)
		}
		all := strings.Join(names, " ")
		for _, want := range []string{"team_size model q_start", "pick_window room room_category voice lobby_voice room_linger map_pick best_of series_rating sides"} {
			if !strings.Contains(all, want) {
				t.Errorf("Got(fields) = %s, want %q in order", all, want)
			}
		}
		if _, changed, err := c.Set(ctx, mod, guild, "2v2", map[string]string{"q_start": "0.8", "room": "thread", "sides": "false"}); err != nil || changed {
			t.Errorf("Got(Set of the current values) = changed %v, %v; want nothing changed", changed, err)
		}
		n := auditCount(t, svc)
		for _, bad := range []map[string]string{
			{"q_start": "0.7", "colour": "red"},
			{"q_start": "0.7", "room": "tent"},
			{"q_start": "0.7", "sides": "maybe"},
			{"room": "channel", "q_floor": "0.95"},
			{"room": "none", "voice": "true"},
			{"best_of": "2", "q_start": "0.7"},
			{"map_pick": "draft"},
			{"series_rating": "maps"},
		} {
			if _, _, err := c.Set(ctx, mod, guild, "2v2", bad); ladder.ErrorCode(err) != ladder.CodeInvalid {
				t.Errorf("Got(Set %v) = %v, want invalid", bad, err)
			}
		}
		if got := auditCount(t, svc); got != n {
			t.Errorf("Got(audit entries after refused sets) = %d, want %d", got, n)
		}
		if v, _ := mustRead(t, c).Value("q_start"); v != "0.8" {
			t.Errorf("Got(q_start after refused sets) = %s, want 0.8", v)
		}
		if _, _, err := c.Set(ctx, ladder.Actor{UserID: "u"}, guild, "2v2", map[string]string{"room": "none"}); ladder.ErrorCode(err) != ladder.CodeForbidden {
			t.Errorf("Got(Set by a player) = %v, want forbidden", err)
		}
		set := map[string]string{"q_start": "0.7", "room": "none", "sides": "true", "map_pick": "random", "best_of": "3", "series_rating": "games"}
		out, changed, err := c.Set(ctx, mod, guild, "2v2", set)
		if err != nil || !changed {
			t.Fatalf("Got(Set) = %v, %v", changed, err)
		}
		for name, want := range set {
			if v, _ := out.Value(name); v != want {
				t.Errorf("Got(%s) = %s, want %s", name, v, want)
			}
		}
		if got := auditCount(t, svc); got != n+4 {
			t.Errorf("Got(audit entries) = %d, want %d (queue.update, queue.room, queue.format, queue.sides)", got, n+4)
		}
	})
}

func mustRead(t *testing.T, c queueconfig.Config) queueconfig.Queue {
	t.Helper()
	q, err := c.Read(context.Background(), guild, "2v2")
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func auditCount(t *testing.T, svc *ladder.Service) int {
	t.Helper()
	es, err := svc.Audit(context.Background(), guild, 1000)
	if err != nil {
		t.Fatal(err)
	}
	return len(es)
}
