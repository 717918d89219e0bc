package panel_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestPanelHostile presses the panel's buttons and its Join with… menu
// as a modified client can, through discordgo and the fake Discord:
// custom IDs naming another guild's queue, queue 0 or 2^53+1, partner
// values that are not IDs, oversize, with control characters, oneself or
// two at once. Each is a private, clear refusal and the database is
// unchanged but for the panel editor's own rows; eight Joins at once
// queue the player once.
func TestPanelHostile(t *testing.T) {
	for _, backend := range testdb.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newEnv(t, backend, fast)
			q, pm := e.addQueue("2v2", 2)
			const other = "100000000000000099"
			if _, err := e.svc.EnsureGuild(e.ctx, other); err != nil {
				t.Fatal(err)
			}
			foreign, _, err := e.svc.Lobby(e.ctx, other, "")
			if err != nil {
				t.Fatal(err)
			}
			p1 := player(1)
			press := func(id string) func() (*fakediscord.Pending, error) {
				return func() (*fakediscord.Pending, error) { return e.fake.ClickForged(at(p1), pm.ID, id) }
			}
			partner := func(queueID int64, values ...string) func() (*fakediscord.Pending, error) {
				return func() (*fakediscord.Pending, error) {
					return e.fake.SelectForged(at(p1), pm.ID, fmt.Sprintf("ppartner:%d", queueID), values...)
				}
			}
			rows := []struct {
				name string
				send func() (*fakediscord.Pending, error)
				want string
			}{
				{"Join of another guild's queue", press(fmt.Sprintf("pjoin:%d", foreign.ID)), "no longer exists"},
				{"Join of queue 0", press("pjoin:0"), ""},
				{"Join of queue 2^53+1", press("pjoin:9007199254740993"), "no longer exists"},
				{"Join of a queue of 20 digits", press("pjoin:99999999999999999999"), "not valid"},
				{"Join of queue -1", press("pjoin:-1"), "not valid"},
				{"Join with… of another guild's queue", press(fmt.Sprintf("pwith:%d", foreign.ID)), "no longer exists"},
				{"a partner in another guild's queue", partner(foreign.ID, player(2).ID), "no longer exists"},
				{"a partner that is not an ID", partner(q.ID, "bob"), "pick one player"},
				{"a partner with a NUL", partner(q.ID, player(2).ID+"\x00"), "control character"},
				{"a partner with a bidi override", partner(q.ID, "\u202e"+player(2).ID), "bidirectional"},
				{"a partner of 500 digits", partner(q.ID, strings.Repeat("9", 500)), "pick one player"},
				{"two partners", partner(q.ID, player(2).ID, player(3).ID), "pick one player"},
				{"no partner", partner(q.ID), "pick one player"},
				{"oneself as partner", partner(q.ID, p1.ID), ""},
			}
			snapshot := func() testdb.Snapshot {
				s, err := testdb.TakeSnapshot(e.ctx, e.db.SQL(), e.db.Dialect())
				if err != nil {
					t.Fatal(err)
				}
				return s
			}
			before := snapshot()
			for _, r := range rows {
				got := e.result(r.send())
				if text := got.Message.Text(); !got.Ephemeral() || !strings.HasPrefix(text, "⚠️") || !strings.Contains(text, r.want) ||
					strings.Contains(text, "eference") {
					t.Errorf("%s: Got(answer) = %q (ephemeral %v), want a private refusal containing %q", r.name, text, got.Ephemeral(), r.want)
				}
			}
			// The editor keeps its claim on the panel's row; nothing else moves.
			if diff := slices.DeleteFunc(before.Diff(snapshot()), func(d string) bool { return strings.HasPrefix(d, "queue_panels:") }); len(diff) > 0 {
				t.Errorf("refused presses changed the database: %v", diff)
			}

			// Eight Joins at once: one ticket, every answer a join or "already done".
			b, _ := pm.ButtonByLabel("Join")
			var wg sync.WaitGroup
			texts := make([]string, 8)
			for i := range texts {
				wg.Go(func() {
					p, err := e.fake.Click(at(p1), pm.ID, b.CustomID)
					if err != nil {
						texts[i] = err.Error()
						return
					}
					r, err := p.Result(e.ctx)
					if err != nil {
						texts[i] = err.Error()
						return
					}
					texts[i] = r.Message.Text()
				})
			}
			wg.Wait()
			for i, text := range texts {
				if !strings.Contains(text, "You joined queue") && !strings.Contains(text, "already done") {
					t.Errorf("concurrent Join %d: Got(answer) = %q, want a join or \"already done\"", i, text)
				}
			}
			st, err := e.svc.QueueStatus(e.ctx, testGuild, p1.ID)
			if err != nil || st.Ticket.ID == 0 {
				t.Fatalf("Got(status after 8 Joins) = %+v, %v, want queued", st, err)
			}
			if n := count(t, e, "queue_entries"); n != 1 {
				t.Errorf("Got(queue tickets after 8 concurrent Joins) = %d, want 1", n)
			}
		})
	}
}

func count(t *testing.T, e *env, table string) int {
	t.Helper()
	var n int
	if err := e.db.SQL().QueryRowContext(e.ctx, "SELECT COUNT(*) FROM "+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
