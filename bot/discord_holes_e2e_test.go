package bot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestQueueAutocompleteFreshServer: on a server where nobody has used the
// bot, the queue option's autocomplete offers the default queue that
// /queue join would use.
func TestQueueAutocompleteFreshServer(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, freshDSN(t, backend))
		for _, typed := range []string{"", "2v"} {
			p, err := e.fake.Autocomplete(at(alice), "queue join", map[string]any{"queue": typed}, "queue")
			if err != nil {
				t.Fatal(err)
			}
			r := e.result(p)
			if len(r.Choices) != 1 || r.Choices[0].Value != "2v2" {
				t.Errorf("typed %q: Got(choices) = %+v, want the default queue 2v2", typed, r.Choices)
			}
		}
		wantText(t, "join the offered queue", e.slash(alice, "queue join", map[string]any{"queue": "2v2"}), "You joined queue")
	})
}

// TestOptionBounds: every integer and number option without fixed choices
// reaches Discord with both min_value and max_value, so the client refuses
// an out-of-range value before sending it; the ready window's are the 0
// to 3600 seconds its validation allows, and the fake's client refuses
// 3601 as Discord's does.
func TestOptionBounds(t *testing.T) {
	e := newEnv(t, freshDSN(t, testdb.SQLite))
	defs := append(e.fake.Commands(""), e.fake.Commands(testGuild)...)
	if len(defs) == 0 {
		t.Fatal("no commands registered")
	}
	var walk func(path string, opts []fakediscord.OptionDef)
	seen := 0
	walk = func(path string, opts []fakediscord.OptionDef) {
		for _, o := range opts {
			p := path + " " + o.Name
			switch {
			case o.Type == 1 || o.Type == 2:
				walk(p, o.Options)
			case (o.Type == 4 || o.Type == 10) && len(o.Choices) == 0:
				seen++
				if o.MinValue == nil || o.MaxValue == nil || *o.MinValue > *o.MaxValue {
					t.Errorf("%s: Got(min_value, max_value) = %v, %v, want both, min ≤ max", p, fmtBound(o.MinValue), fmtBound(o.MaxValue))
				}
				if p == "/config queue set ready_window" && (o.MinValue == nil || *o.MinValue != 0 || o.MaxValue == nil || *o.MaxValue != 3600) {
					t.Errorf("%s: Got(bounds) = %s..%s, want 0..3600", p, fmtBound(o.MinValue), fmtBound(o.MaxValue))
				}
			}
		}
	}
	for _, d := range defs {
		walk("/"+d.Name, d.Options)
	}
	if seen < 10 {
		t.Errorf("Got(bounded options seen) = %d, want the command set's", seen)
	}
	if _, err := e.fake.Slash(at(owner), "config queue set", map[string]any{"queue": "2v2", "ready_window": 3601}); err == nil {
		t.Error("Got(ready_window 3601 sent) = accepted by the client, want refused before sending")
	}
}

func fmtBound(b *float64) string {
	if b == nil {
		return "none"
	}
	return fmt.Sprint(*b)
}

// TestBidiDisplayName: a member whose display name carries bidirectional
// controls (legal on Discord) can join the queue; the name is kept and
// shown without them, in the stored name every page and CSV reads and in
// the leaderboard's embed.
func TestBidiDisplayName(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, freshDSN(t, backend))
		eve := fakediscord.User{ID: "400000000000000009", Name: "\u202eevil\u2068 eve\u2069"}
		wantText(t, "join with a bidi name", e.slash(eve, "queue join", nil), "You joined queue")
		names, err := e.svc.PlayerNames(e.ctx, testGuild, []string{eve.ID})
		if err != nil || names[eve.ID] != "evil eve" {
			t.Errorf("Got(stored name) = %q, %v, want %q", names[eve.ID], err, "evil eve")
		}
		e.slash(eve, "queue leave", nil)
		wantText(t, "config", e.slash(owner, "config thresholds", map[string]any{"placement_games": 0}), "Saved")
		e.slash(owner, "mod rating set", map[string]any{"player": eve.ID, "rating": 1600.0, "rd": 60.0})
		lb := e.slash(alice, "leaderboard", nil)
		if text := lb.Message.Text(); !strings.Contains(text, "evil eve") || strings.ContainsAny(text, "\u202e\u2068\u2069") {
			t.Errorf("Got(leaderboard) = %q, want the name shown without its bidi controls", text)
		}
	})
}
