package joins_test

import (
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/panel"
)

// TestScheduleEndToEnd: a queue with open hours on a manual clock. Before
// opening, joins are refused with the next opening time and the panel
// says when it opens; at opening the panel says so and joins work; at
// close the queue-close job empties it once, with a notice to the players
// naming the next opening, and the panel shows it closed again.
func TestScheduleEndToEnd(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		if start.Weekday() != time.Monday {
			t.Fatalf("the scenario starts on a Monday, not %s", start.Weekday())
		}
		e.slash(admin, "config queue set", map[string]any{"queue": "2v2", "channel": testChannel})
		private(t, "panel", e.slash(admin, "config queue panel", map[string]any{"queue": "2v2", "channel": testChannel}), "<#"+testChannel+">")
		pm := e.panel("2v2", "Nobody is waiting", "Open")

		// Bad hours change nothing.
		refused(t, "bad hours", e.slash(admin, "config queue schedule", map[string]any{"queue": "2v2", "hours": "mon-fri 18:00-25:00"}), "not a time of day")
		refused(t, "bad zone", e.slash(admin, "config queue schedule", map[string]any{"queue": "2v2", "hours": "mon-fri 18:00-23:00", "timezone": "Mars/Base"}), "timezone must be")
		p1, p2 := player(1), player(2)
		private(t, "still open", e.slash(p1, "queue join", nil), "You joined queue **2v2**")
		e.slash(p1, "queue leave", nil)

		// 17:00 in Berlin on Monday: closed until 18:00. Setting the hours
		// does not empty the queue; the job does.
		r := e.slash(admin, "config queue schedule", map[string]any{"queue": "2v2", "hours": "mon-fri 18:00-23:00", "timezone": "Europe/Berlin"})
		private(t, "schedule", r, "Mon–Fri 18:00–23:00 (Europe/Berlin); closed now, opens at Mon 18:00 Europe/Berlin")
		private(t, "config show", e.slash(admin, "config show", nil), "joins: open Mon–Fri 18:00–23:00 (Europe/Berlin)")
		if got := e.audited("queue.joins", "2v2"); got != 1 {
			t.Errorf("Got(queue.joins audit entries) = %d, want 1", got)
		}
		opens := time.Date(2027, 3, 1, 17, 0, 0, 0, time.UTC) // 18:00 CET
		wantOpens := "it opens at Mon 18:00 Europe/Berlin"
		refused(t, "/queue join before opening", e.slash(p1, "queue join", nil), "Queue 2v2 is closed now", wantOpens)
		refused(t, "panel Join before opening", e.click(p1, pm, panel.LabelJoin), wantOpens)
		e.panel("2v2", "Closed, opens at Mon 18:00 Europe/Berlin")
		private(t, "status", e.click(p1, pm, panel.LabelStatus), "**2v2** (2v2, closed, opens at Mon 18:00 Europe/Berlin)")

		// Clients in German and Portuguese read the hours and the opening
		// time with their catalog's weekdays, and no English one.
		for _, code := range []string{"de", "pt-BR"} {
			l := i18n.For(code)
			in := func(path string, opts map[string]any, u fakediscord.User) fakediscord.Response {
				t.Helper()
				c := at(u)
				c.Locale = l.Discord()
				p, err := e.fake.Slash(c, path, opts)
				return e.result(p, err)
			}
			when := l.T("hours.at", "Day", l.T("weekday.mon"), "Time", "18:00", "Zone", "Europe/Berlin")
			days := l.T("hours.window", "Days", l.T("hours.days", "From", l.T("weekday.mon"), "To", l.T("weekday.fri")), "From", "18:00", "To", "23:00")
			for what, r := range map[string]fakediscord.Response{
				"join":     in("queue join", nil, p1),
				"status":   in("queue status", nil, p1),
				"schedule": in("config queue schedule", map[string]any{"queue": "2v2", "hours": "mon-fri 18:00-23:00", "timezone": "Europe/Berlin"}, admin),
				"show":     in("config show", nil, admin),
			} {
				text := r.Message.Text()
				want := when
				if what == "show" {
					want = days
				}
				if !strings.Contains(text, want) {
					t.Errorf("%s %s: Got(answer) = %q, want %q from the catalog", code, what, text, want)
				}
				if strings.Contains(text, "Mon ") || strings.Contains(text, "mon-fri") || strings.Contains(text, "Mon–Fri") {
					t.Errorf("%s %s: Got(answer) = %q, want no English weekday", code, what, text)
				}
			}
		}

		// 18:00: open until 23:00.
		e.clock.Set(opens)
		e.panel("2v2", "Open until Mon 23:00 Europe/Berlin")
		private(t, "join when open", e.click(p1, pm, panel.LabelJoin), "You joined queue **2v2**")
		private(t, "join when open", e.slash(p2, "queue join", nil), "You joined queue **2v2**")
		e.panel("2v2", "2 players")
		// The close job leaves an open queue alone.
		if _, err := e.sched.Run(e.ctx, jobs.JobQueueClose); err != nil {
			t.Fatal(err)
		}
		if !e.queued(p1.ID) || !e.queued(p2.ID) {
			t.Fatalf("Got(players queued while open) = false, want true")
		}

		// 23:00: the job empties the queue with a notice, once.
		e.clock.Set(time.Date(2027, 3, 1, 22, 0, 0, 0, time.UTC))
		if ran, err := e.sched.Run(e.ctx, jobs.JobQueueClose); err != nil || !ran {
			t.Fatalf("Got(Run(queue-close)) = %v, %v, want ran", ran, err)
		}
		notice := e.message("close notice", func(m fakediscord.Message) bool { return strings.Contains(m.Content, "closed for now") })
		for _, want := range []string{"<@" + p1.ID + ">", "<@" + p2.ID + ">", "It opens again at Tue 18:00 Europe/Berlin"} {
			if !strings.Contains(notice.Content, want) {
				t.Errorf("Got(notice) = %q, want %q in it", notice.Content, want)
			}
		}
		if e.queued(p1.ID) || e.queued(p2.ID) {
			t.Errorf("Got(players queued after close) = true, want the queue empty")
		}
		e.panel("2v2", "Nobody is waiting", "Closed, opens at Tue 18:00 Europe/Berlin")
		// Another replica's scheduler in the same minute runs nothing; the
		// next minute finds nothing to empty: one notice in all.
		replica := jobs.New(e.svc, nil, nil, jobs.Options{Joins: e.joins})
		if ran, err := replica.Run(e.ctx, jobs.JobQueueClose); err != nil || ran {
			t.Errorf("Got(another replica's Run in the minute) = %v, %v, want not ran", ran, err)
		}
		e.clock.Add(time.Minute)
		if _, err := e.sched.Run(e.ctx, jobs.JobQueueClose); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, m := range e.fake.ChannelMessages(testChannel) {
			if strings.Contains(m.Content, "closed for now") {
				n++
			}
		}
		if n != 1 {
			t.Errorf("Got(close notices) = %d, want 1", n)
		}
		refused(t, "join after close", e.slash(p1, "queue join", nil), "it opens at Tue 18:00 Europe/Berlin")

		// hours:off: always open again.
		private(t, "off", e.slash(admin, "config queue schedule", map[string]any{"queue": "2v2", "hours": "off"}), "always open")
		private(t, "join without hours", e.slash(p1, "queue join", nil), "You joined queue **2v2**")
		e.panel("2v2", "1 player", "Open")
	})
}
