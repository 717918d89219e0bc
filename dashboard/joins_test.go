package dashboard_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/joins"
)

// TestQueueJoinSettings: the queue page shows the join settings
// (requirements, open hours, rematch) beside the others and saves them
// through the same checks as the commands, audited; a bad one shows the
// command's message and stores none of the fields sent.
func TestQueueJoinSettings(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		b := e.browser(t)
		b.login(userAdmin, "/admin")
		p := b.get(queuePath(guildA))
		for _, name := range joins.SettingNames() {
			if !strings.Contains(p.body, `name="`+name+`"`) {
				t.Errorf("Got(queue page) lacks the field %s", name)
			}
		}
		token := b.csrf(queuePath(guildA))
		p = b.post(queuePath(guildA), url.Values{"csrf": {token}, "min_rating": {"1400"}, "hours": {"sat,sun 12:00-02:00"},
			"timezone": {"America/New_York"}, "rematch": {"rebalance"}})
		if !strings.Contains(p.body, "saved") {
			t.Fatalf("Got(save) = %d %.400s, want saved", p.status, p.body)
		}
		q, _ := lobbyOf(t, e, guildA)
		st, err := e.joins.Settings(context.Background(), q)
		if err != nil || st.MinRating != 1400 || st.Hours != "sat,sun 12:00-02:00" || st.TimeZone != "America/New_York" || st.Rematch != joins.RematchRebalance {
			t.Errorf("Got(stored) = %+v, %v", st, err)
		}
		n := 0
		for _, a := range webAudits(t, e, guildA) {
			if a.Action == "queue.joins" {
				n++
			}
		}
		if n != 1 {
			t.Errorf("Got(queue.joins entries by the dashboard) = %d, want 1", n)
		}

		p = b.post(queuePath(guildA), url.Values{"csrf": {token}, "q_start": {"0.61"}, "hours": {"sat 25:00-26:00"}})
		if p.status != 400 || !strings.Contains(p.body, "not a time of day") {
			t.Errorf("Got(bad hours) = %d %.400s, want 400 with the command's message", p.status, p.body)
		}
		q2, _ := lobbyOf(t, e, guildA)
		st2, err := e.joins.Settings(context.Background(), q2)
		if err != nil || q2.QStart != q.QStart || st2 != st {
			t.Errorf("Got(after a refused save) = q_start %g, %+v, want %g and %+v unchanged", q2.QStart, st2, q.QStart, st)
		}
	})
}
