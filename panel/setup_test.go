package panel_test

import (
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
)

// step presses the button labelled label on a /setup message and returns
// the next step, which must be the same private message, edited.
func (e *env) step(m fakediscord.Message, label, wantTitle string) fakediscord.Message {
	e.t.Helper()
	r := e.click(admin, m, label)
	return e.wantStep(r, m.ID, wantTitle)
}

func (e *env) wantStep(r fakediscord.Response, id, wantTitle string) fakediscord.Message {
	e.t.Helper()
	m := r.Message
	if m.ID != id || !m.Ephemeral() || len(m.Embeds) != 1 || !strings.Contains(m.Embeds[0].Title, wantTitle) {
		e.t.Fatalf("Got(setup step) = message %s %q (ephemeral %v), want message %s edited to %q", m.ID, m.Text(), m.Ephemeral(), id, wantTitle)
	}
	return m
}

// menu returns the select menu of message m whose custom ID starts with
// action.
func menu(t *testing.T, m fakediscord.Message, action string) fakediscord.Button {
	t.Helper()
	for _, b := range m.Buttons() {
		if strings.HasPrefix(b.CustomID, action+":") {
			return b
		}
	}
	t.Fatalf("message %q has no menu %s: %+v", m.Text(), action, m.Rows)
	return fakediscord.Button{}
}

// TestSetup: /setup on an empty guild creates the queue channel, the
// results channel and the moderator role, the first queue (3v3 picked
// from the size menu, the default model preselected), and posts its
// panel; run again, it offers to keep everything and changes nothing:
// no second channel, role, queue or panel.
func TestSetup(t *testing.T) {
	for _, backend := range testdb.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newEnv(t, backend, fast)
			r := e.slash(admin, "setup", nil)
			if !r.Ephemeral() {
				t.Fatalf("Got(/setup) public, want private")
			}
			m := e.wantStep(r, r.Message.ID, "step 1 of 4")
			if _, err := e.fake.SelectEntities(at(admin), m.ID, menu(t, m, "su_qpick").CustomID, "123456789012345678"); err == nil {
				t.Errorf("Got(a channel the guild lacks picked) = sent, want the menu not to offer it")
			}
			// Only admins set up: a player who forges the button is refused
			// and nothing is created.
			create, _ := m.ButtonByLabel("Create #ladder-queue")
			if r := e.result(e.fake.ClickForged(at(player(1)), m.ID, create.CustomID)); !strings.Contains(r.Message.Text(), "⚠️") {
				t.Errorf("Got(a player's forged setup click) = %q, want a refusal", r.Message.Text())
			}
			if n := len(e.fake.GuildChannels(testGuild)); n != 0 {
				t.Fatalf("Got(%d channels) after a refused click, want 0", n)
			}
			// Without Manage Channels the create button says so; the menu
			// remains.
			e.fake.SetManageChannels(testGuild, false)
			if r := e.click(admin, m, "Create #ladder-queue"); !strings.Contains(r.Message.Text(), "Manage Channels") {
				t.Errorf("Got(create without Manage Channels) = %q, want the permission named", r.Message.Text())
			}
			e.fake.SetManageChannels(testGuild, true)
			m = e.step(m, "Create #ladder-queue", "step 2 of 4")
			m = e.step(m, "Create #ladder-results", "step 3 of 4")
			m = e.step(m, "Create @Ladder Moderator", "step 4 of 4")
			models := menu(t, m, "su_model")
			if models.Options[0].Value != "team-glicko" || !hasDefault(models, "team-glicko") {
				t.Errorf("Got(model menu) = %+v, want the default model first and preselected", models.Options)
			}
			r = e.result(e.fake.Select(at(admin), m.ID, menu(t, m, "su_size").CustomID, "3"))
			m = e.wantStep(r, m.ID, "step 4 of 4")
			m = e.step(m, "Create queue 3v3", "done")
			if !strings.Contains(m.Text(), "Try next") {
				t.Errorf("Got(setup done) = %q, want what to try next", m.Text())
			}

			chans := e.fake.GuildChannels(testGuild)
			byName := map[string]string{}
			for _, c := range chans {
				byName[c.Name] = c.ID
			}
			queueCh, resultsCh := byName["ladder-queue"], byName["ladder-results"]
			if len(chans) != 2 || queueCh == "" || resultsCh == "" {
				t.Fatalf("Got(channels) = %+v, want #ladder-queue and #ladder-results", chans)
			}
			pm := e.panelIn(queueCh, "3v3", shows("Nobody is waiting", "Open"))
			qs, err := e.svc.Queues(e.ctx, testGuild)
			if err != nil || len(qs) != 1 || qs[0].TeamSize != 3 || qs[0].Model != "team-glicko" || qs[0].ChannelID != queueCh {
				t.Fatalf("Got(queues) = %+v, %v, want one 3v3 team-glicko queue announcing in #ladder-queue", qs, err)
			}
			g, err := e.svc.EnsureGuild(e.ctx, testGuild)
			if err != nil {
				t.Fatal(err)
			}
			roles := e.fake.Roles(testGuild)
			if len(roles) != 1 || roles[0].Name != "Ladder Moderator" || g.ModeratorRoleID != roles[0].ID {
				t.Fatalf("Got(roles %+v, moderator %q), want Ladder Moderator created and set", roles, g.ModeratorRoleID)
			}
			if got, _ := e.panels.ResultsChannel(e.ctx, testGuild); got != resultsCh {
				t.Errorf("Got(results channel) = %q, want %q", got, resultsCh)
			}
			e.recorded(qs[0].ID, pm.ID)

			// Twice: everything is kept, nothing made again.
			r = e.slash(admin, "setup", nil)
			m = e.wantStep(r, r.Message.ID, "step 1 of 4")
			if !strings.Contains(m.Text(), "<#"+queueCh+">") {
				t.Errorf("Got(second /setup) = %q, want the current queue channel shown", m.Text())
			}
			m = e.step(m, "Keep the current channel", "step 2 of 4")
			m = e.step(m, "Keep the current channel", "step 3 of 4")
			m = e.step(m, "Keep the current role", "step 4 of 4")
			m = e.step(m, "Use queue 3v3", "done")
			// The create buttons reuse what has that name.
			r = e.slash(admin, "setup", nil)
			m = e.wantStep(r, r.Message.ID, "step 1 of 4")
			m = e.step(m, "Create #ladder-queue", "step 2 of 4")
			m = e.step(m, "Create #ladder-results", "step 3 of 4")
			m = e.step(m, "Create @Ladder Moderator", "step 4 of 4")
			e.step(m, "Create queue 2v2", "done")

			if n := len(e.fake.GuildChannels(testGuild)); n != 2 {
				t.Errorf("Got(%d channels) after setup thrice, want 2", n)
			}
			if n := len(e.fake.Roles(testGuild)); n != 1 {
				t.Errorf("Got(%d roles) after setup thrice, want 1", n)
			}
			qs, _ = e.svc.Queues(e.ctx, testGuild)
			if len(qs) != 2 {
				t.Errorf("Got(%d queues), want the 3v3 and the 2v2 asked for last", len(qs))
			}
			e.panelIn(queueCh, "2v2", shows("Nobody is waiting"))
			live := e.livePanels(queueCh)
			if len(live) != 2 || live[0].ID != pm.ID {
				t.Errorf("Got(%d live panels), want the 3v3's first panel kept and the 2v2's", len(live))
			}
		})
	}
}

func hasDefault(b fakediscord.Button, value string) bool {
	for _, o := range b.Options {
		if o.Value == value {
			return o.Default
		}
	}
	return false
}
