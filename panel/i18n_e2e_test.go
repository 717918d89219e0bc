package panel_test

import (
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestLocalizedPanel: in a German or Portuguese server, /config queue
// panel answers a moderator whose client speaks the language in it, and
// the panel it places is in the server's language; on both databases.
func TestLocalizedPanel(t *testing.T) {
	for _, backend := range testdb.Backends() {
		for _, code := range []string{"de", "pt-BR"} {
			t.Run(backend+"/"+code, func(t *testing.T) {
				e := newEnv(t, backend, fast)
				l := i18n.For(code)
				e.slash(admin, "config language", map[string]any{"language": code})
				e.slash(admin, "config queue add", map[string]any{"name": "2v2", "team_size": 2})
				c := at(admin)
				c.Locale = l.Discord()
				r := e.result(e.fake.Slash(c, "config queue panel", map[string]any{"queue": "2v2", "channel": testChannel}))
				want := l.T("panel.placed", "Queue", "2v2", "Channel", testChannel)
				if !r.Ephemeral() || !strings.Contains(r.Message.Text(), want) {
					t.Errorf("Got(/config queue panel) = %q (ephemeral %v), want %q", r.Message.Text(), r.Ephemeral(), want)
				}
				if strings.Contains(r.Message.Text(), "The panel of queue") {
					t.Errorf("Got(/config queue panel) = %q, English in %s", r.Message.Text(), code)
				}
				title := l.T("panel.title", "Queue", "2v2", "Size", 2)
				m, err := e.fake.WaitChannelMessage(e.ctx, testChannel, func(m fakediscord.Message) bool {
					return len(m.Embeds) == 1 && m.Embeds[0].Title == title
				})
				if err != nil {
					t.Fatalf("no panel titled %q: %v\nlog:\n%s", title, err, e.logs)
				}
				if _, ok := m.ButtonByLabel(l.T("panel.join")); !ok {
					t.Errorf("Got(panel buttons) = %+v, want %q", m.Buttons(), l.T("panel.join"))
				}
			})
		}
	}
}
