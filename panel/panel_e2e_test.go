package panel_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/panel"
)

// fast is the editor tuned for tests: the real 2 s gap, a short resync.
var fast = panel.Options{Resync: 300 * time.Millisecond}

// wantPrivate fails unless r is a private answer containing want.
func wantPrivate(t *testing.T, what string, r fakediscord.Response, want string) {
	t.Helper()
	if !r.Ephemeral() || !strings.Contains(r.Message.Text(), want) {
		t.Errorf("Got(%s) = %q (ephemeral %v), want a private answer containing %q", what, r.Message.Text(), r.Ephemeral(), want)
	}
}

// TestPanelButtons: join, leave, a party through Join with…, status, and
// the rules of /queue (a ban, a closed queue) through the panel's buttons,
// every answer private, the panel edited in place to show each change.
func TestPanelButtons(t *testing.T) {
	for _, backend := range testdb.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newEnv(t, backend, fast)
			_, pm := e.addQueue("2v2", 2)
			for _, label := range []string{panel.LabelJoin, panel.LabelLeave, panel.LabelWith, panel.LabelStatus} {
				if _, ok := pm.ButtonByLabel(label); !ok {
					t.Fatalf("panel has no button %q: %+v", label, pm.Buttons())
				}
			}
			p1, p2, p3, p4 := player(1), player(2), player(3), player(4)

			wantPrivate(t, "Join", e.click(p1, pm, panel.LabelJoin), "You joined queue **2v2**")
			e.panelIn(testChannel, "2v2", shows("<@"+p1.ID+">", "1 player"))
			wantPrivate(t, "Join again", e.click(p1, pm, panel.LabelJoin), "already done")

			// Join with…: a private user menu; the pick is invited as by
			// /queue join partner, and the invitation's Accept queues both.
			r := e.click(p1, pm, panel.LabelWith)
			if !r.Ephemeral() || len(r.Message.Rows) != 1 || r.Message.Rows[0].Components[0].Type != fakediscord.ComponentUserSelect {
				t.Fatalf("Got(Join with…) = %q rows %+v, want a private user select menu", r.Message.Text(), r.Message.Rows)
			}
			menu := r.Message.Rows[0].Components[0]
			if _, err := e.fake.SelectEntities(at(p1), r.Message.ID, menu.CustomID, p2.ID, p3.ID); err == nil {
				t.Errorf("Got(two players picked) = accepted, want the menu to take one")
			}
			r = e.result(e.fake.SelectEntities(at(p1), r.Message.ID, menu.CustomID, p2.ID))
			wantPrivate(t, "invite", r, "Invitation sent to <@"+p2.ID+">")
			inv, err := e.fake.WaitChannelMessage(e.ctx, testChannel, func(m fakediscord.Message) bool {
				return strings.Contains(m.Content, "invites you to queue")
			})
			if err != nil {
				t.Fatal(err)
			}
			e.click(p2, inv, "Accept")
			e.panelIn(testChannel, "2v2", shows("👥 <@"+p1.ID+"> + <@"+p2.ID+">", "2 players"))

			st := e.click(p3, pm, panel.LabelStatus)
			wantPrivate(t, "Status", st, "**2v2** (2v2): 2 waiting")
			wantPrivate(t, "Status", st, "You are not queued.")

			wantPrivate(t, "Leave", e.click(p2, pm, panel.LabelLeave), "Your party left the queue")
			e.panelIn(testChannel, "2v2", shows("Nobody is waiting", "0 players"))

			// The rules of /queue join hold for the button.
			e.slash(admin, "mod queue ban", map[string]any{"player": p4.ID})
			r = e.click(p4, pm, panel.LabelJoin)
			if !r.Ephemeral() || !strings.Contains(r.Message.Text(), "⚠️") {
				t.Errorf("Got(banned player's Join) = %q, want a private refusal", r.Message.Text())
			}
			e.slash(admin, "config queue set", map[string]any{"queue": "2v2", "open": false})
			e.panelIn(testChannel, "2v2", shows("Closed"))
			r = e.click(p3, pm, panel.LabelJoin)
			if !strings.Contains(r.Message.Text(), "⚠️") {
				t.Errorf("Got(Join on a closed queue) = %q, want a refusal", r.Message.Text())
			}
			st2, err := e.svc.QueueStatus(e.ctx, testGuild, p3.ID)
			if err != nil || st2.Ticket.ID != 0 {
				t.Errorf("Got(p3 queued after refused joins) = ticket %d, %v, want none", st2.Ticket.ID, err)
			}
			if live := e.livePanels(testChannel); len(live) != 1 || live[0].ID != pm.ID {
				t.Errorf("Got(%d live panels), want the one first posted, edited in place", len(live))
			}
		})
	}
}

// TestPanelRepost: a panel deleted by hand comes back by itself (Discord
// answers the edit 10008 Unknown Message), and a restart re-syncs a panel
// that missed changes made while no editor ran.
func TestPanelRepost(t *testing.T) {
	for _, backend := range testdb.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newEnv(t, backend, fast)
			q, pm := e.addQueue("1v1", 1)
			e.fake.DeleteMessage(pm.ID)
			p1 := player(1)
			// The button of the deleted message still works (a client may
			// show it a moment longer): the click joins and the panel
			// comes back with p1 listed.
			wantPrivate(t, "Join", e.result(e.fake.ClickForged(at(p1), pm.ID, "pjoin:"+fmt.Sprint(q.ID))), "You joined")
			back := e.panelIn(testChannel, "1v1", shows("<@"+p1.ID+">"))
			if back.ID == pm.ID {
				t.Fatalf("Got(panel after deletion) = the deleted message %s, want a new one", pm.ID)
			}

			e.recorded(q.ID, back.ID)

			// A change while no editor runs (another process's job) shows
			// after a restart.
			e.stopPanels()
			if _, _, err := e.svc.LeaveQueue(e.ctx, testGuild, p1.ID); err != nil {
				t.Fatal(err)
			}
			e.restart()
			e.panelIn(testChannel, "1v1", shows("Nobody is waiting"))
			if live := e.livePanels(testChannel); len(live) != 1 || live[0].ID != back.ID {
				t.Errorf("Got(%d live panels) after restart, want the re-posted one edited in place", len(live))
			}

			// Deleted while the queue stays as it is: placing the panel
			// again brings it back.
			e.recorded(q.ID, back.ID)
			e.fake.DeleteMessage(back.ID)
			e.slash(admin, "config queue panel", map[string]any{"queue": "1v1"})
			again := e.panelIn(testChannel, "1v1", shows("Nobody is waiting"))
			if again.ID == back.ID {
				t.Errorf("Got(panel placed again after deletion) = the deleted message, want a new one")
			}
		})
	}
}

// TestPanelRush: 200 players press Join at once. Every click is answered
// privately, the panel ends showing exactly who waits, its edits stay
// within the coalescing budget (one per gap, plus the first), and Discord
// never answers 429, even with an edit bucket tighter than the gap.
func TestPanelRush(t *testing.T) {
	const players = 200
	for _, backend := range testdb.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newEnv(t, backend, fast)
			// 8v8: 16 players a match, so a few of the 200 stay listed.
			q, pm := e.addQueue("8v8", 8)
			// A bucket tighter than the coalescing (2 edits per 5 s against
			// one per 2 s): discordgo must pace the edits by Discord's
			// headers instead of running into 429s.
			e.fake.SetEditRateLimit(2, 5*time.Second)
			// A second process's editor over the same rows: the claims let
			// one of them edit at a time, and the gap holds across both.
			other := panel.New(e.db, e.svc, panel.PostFunc(e.bot.Post), nil, fast)
			octx, ocancel := context.WithCancel(e.ctx)
			done := make(chan struct{})
			go func() { other.Run(octx); close(done) }()
			defer func() { ocancel(); <-done }()
			start := time.Now()
			var pending []*fakediscord.Pending
			for i := range players {
				p, err := e.fake.Click(at(player(100+i)), pm.ID, "pjoin:"+fmt.Sprint(q.ID))
				if err != nil {
					t.Fatal(err)
				}
				pending = append(pending, p)
			}
			for i, p := range pending {
				r, err := p.Result(e.ctx)
				if err != nil {
					t.Fatalf("click %d never answered: %v", i, err)
				}
				if !r.Ephemeral() || !strings.Contains(r.Message.Text(), "You joined queue **8v8**") {
					t.Fatalf("Got(click %d) = %q, want a private join", i, r.Message.Text())
				}
			}
			waiting, err := e.db.Waiting(e.ctx, q.ID)
			if err != nil {
				t.Fatal(err)
			}
			waits, err := e.db.RecentWaits(e.ctx, q.ID, 50)
			if err != nil {
				t.Fatal(err)
			}
			want := panel.Message(i18n.English(), q, waiting, waits).Embeds[0]
			final := e.panelIn(testChannel, "8v8", func(m fakediscord.Message) bool {
				return m.Embeds[0].Description == want.Description && m.Embeds[0].Fields[0].Value == want.Fields[0].Value
			})
			elapsed := time.Since(start)
			queued := 0
			for _, p := range waiting {
				queued += len(p.UserIDs)
			}
			formed := (players - queued) / 16
			if len(waits) != min(formed, 50) || formed == 0 {
				t.Errorf("Got(%d waits recorded), want one per formed match (%d)", len(waits), formed)
			}
			budget := int(elapsed/(2*time.Second)) + 2
			if final.Edits > budget {
				t.Errorf("Got(%d panel edits in %s), want at most %d (one per 2 s gap)", final.Edits, elapsed, budget)
			}
			if n := e.fake.Edit429s(); n != 0 {
				t.Errorf("Got(%d edits answered 429), want 0", n)
			}
			t.Logf("%d clicks, %d matches formed, %d panel edits in %s (editors: this process %+v, the other %+v)",
				players, formed, final.Edits, elapsed.Round(time.Millisecond), e.panels.Stats(), other.Stats())
		})
	}
}

// TestPanelClaim: two editors over one database never edit one panel
// within the gap: the row's claim and its last edit time decide.
func TestPanelClaim(t *testing.T) {
	for _, backend := range testdb.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newEnv(t, backend, fast)
			q, pm := e.addQueue("2v2", 2)
			e.recorded(q.ID, pm.ID)
			now := time.Now()
			a, ok, err := e.db.ClaimPanel(e.ctx, q.ID, "a", now, 2*time.Second, time.Minute)
			if err != nil || ok {
				// The panel was just posted: its gap has not passed.
				t.Fatalf("Got(claim right after the post) = %v, %v, want refused", ok, err)
			}
			later := a.EditedAt.Add(2 * time.Second)
			if _, ok, _ := e.db.ClaimPanel(e.ctx, q.ID, "a", later, 2*time.Second, time.Minute); !ok {
				t.Fatalf("Got(claim after the gap) = refused, want taken")
			}
			if _, ok, _ := e.db.ClaimPanel(e.ctx, q.ID, "b", later.Add(time.Second), 2*time.Second, time.Minute); ok {
				t.Errorf("Got(second holder's claim while held) = taken, want refused")
			}
			if _, ok, _ := e.db.ClaimPanel(e.ctx, q.ID, "b", later.Add(2*time.Minute), 2*time.Second, time.Minute); !ok {
				t.Errorf("Got(claim after the lease ran out) = refused, want taken (the holder died)")
			}
		})
	}
}

// TestPanelMoved: /config queue panel run again with another channel
// moves the panel. The message left behind must not go on offering Join
// with a list nobody edits any more: it is deleted, and the panel in its
// new channel lists who waits.
func TestPanelMoved(t *testing.T) {
	for _, backend := range testdb.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newEnv(t, backend, fast)
			q, old := e.addQueue("2v2", 2)
			e.recorded(q.ID, old.ID)
			const elsewhere = "200000000000000002"
			r := e.slash(admin, "config queue panel", map[string]any{"queue": "2v2", "channel": elsewhere})
			wantPrivate(t, "move", r, "<#"+elsewhere+">")
			p1 := player(1)
			moved := e.panelIn(elsewhere, "2v2", shows("Nobody is waiting"))
			wantPrivate(t, "Join on the moved panel", e.click(p1, moved, panel.LabelJoin), "You joined queue **2v2**")
			e.panelIn(elsewhere, "2v2", shows("<@"+p1.ID+">", "1 player"))
			// The old message goes with the move; give the editor a few
			// gaps to get there.
			deadline := time.Now().Add(5 * time.Second)
			for m, _ := e.fake.Message(old.ID); !m.Deleted; m, _ = e.fake.Message(old.ID) {
				if time.Now().After(deadline) {
					t.Errorf("Got(panel left in %s after the move) = %q (deleted %v), want it deleted", testChannel, m.Text(), m.Deleted)
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
			if live := e.livePanels(testChannel); len(live) != 0 {
				t.Errorf("Got(%d live panels in the old channel), want 0", len(live))
			}
		})
	}
}
