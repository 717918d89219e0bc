package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// hostileEnv is one ladderbot process with a guild that has a match in
// progress, a moderator role and an API token, plus a second guild with a
// match of its own, for tests that try what must be refused.
type hostileEnv struct {
	l       *load
	g, g2   *lguild
	match   ladder.Match // reported, in g
	other   ladder.Match // open, in g2
	ann     fakediscord.Message
	modRole string
}

func newHostileEnv(t *testing.T, backend string) *hostileEnv {
	ctx := testCtx(t, 2*time.Minute)
	dsn := freshDSN(t, backend)
	fake := startFake(t)
	p := newProc(t, "shard0", dsn, fake, 0, 1)
	p.start()
	p.waitConnected(ctx, fake, 1)
	waitCommands(t, ctx, fake, p)
	l := newLoad(t, fake, dsn, 2, 4, 1)
	e := &hostileEnv{l: l, g: l.guilds[0], g2: l.guilds[1], modRole: "300000000000000009"}
	must := func(a answer, want string) {
		t.Helper()
		if a.class != classOK || !strings.Contains(a.text, want) {
			t.Fatalf("setup: Got(answer) = %s %q, want %q\n%s", a.class, a.text, want, p.tail(10))
		}
	}
	must(l.slash(ctx, e.g, e.g.owner, "config moderator", map[string]any{"role": e.modRole}), "")
	must(l.slash(ctx, e.g, e.g.owner, "mod token create", map[string]any{"name": "server1"}), "created")
	for _, g := range []*lguild{e.g, e.g2} {
		for _, u := range g.players {
			must(l.slash(ctx, g, u, "queue join", nil), "")
		}
	}
	ms := l.matches(ctx, e.g, ladder.StateOpen)
	ms2 := l.matches(ctx, e.g2, ladder.StateOpen)
	if len(ms) != 1 || len(ms2) != 1 {
		t.Fatalf("setup: Got(open matches) = %d, %d, want 1 per guild", len(ms), len(ms2))
	}
	e.other = ms2[0]
	reporter := e.g.user(ms[0].Teams[0][0])
	must(l.slash(ctx, e.g, reporter, "report", map[string]any{"outcome": "win"}), "Reported match")
	e.match, _ = l.svc.Match(ctx, e.g.id, ms[0].ID)
	var err error
	e.ann, err = fake.WaitChannelMessage(ctx, e.g.channel, func(m fakediscord.Message) bool {
		return strings.Contains(m.Content, fmt.Sprintf("**Match #%d** is ready", e.match.ID))
	})
	if err != nil {
		t.Fatal(err)
	}
	// The request to confirm is recorded once posted, after the answer:
	// wait for it, so that the tests' snapshots start after it.
	for {
		if _, ok, err := l.svc.MatchMessage(ctx, e.match.ID, ladder.MessageReport); err != nil || ok {
			break
		}
		if ctx.Err() != nil {
			t.Fatal("the report's message was never recorded")
		}
		time.Sleep(20 * time.Millisecond)
	}
	return e
}

func (e *hostileEnv) snapshot(t *testing.T) testdb.Snapshot {
	t.Helper()
	s, err := testdb.TakeSnapshot(context.Background(), e.l.db.SQL(), e.l.db.Dialect())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// optionsFor fills every required option of a registered subcommand with
// a plausible value, so the Discord client would send it.
func (e *hostileEnv) optionsFor(defs []fakediscord.OptionDef) map[string]any {
	out := map[string]any{}
	for _, d := range defs {
		if !d.Required {
			continue
		}
		var v any
		switch d.Type {
		case 3:
			v = "server1"
		case 4:
			v = int(e.match.ID)
		case 10:
			v = 100.0
		case 5:
			v = true
		case 6:
			v = e.g.players[0].ID
		case 7:
			v = e.g.channel
		case 8:
			v = e.modRole
		}
		if len(d.Choices) > 0 {
			v = d.Choices[0].Value
			if f, ok := v.(float64); ok && d.Type == 4 {
				v = int(f)
			}
		}
		out[d.Name] = v
	}
	return out
}

// leaves returns every subcommand path of a registered command with its options.
func leaves(prefix string, opts []fakediscord.OptionDef) map[string][]fakediscord.OptionDef {
	out := map[string][]fakediscord.OptionDef{}
	sub := false
	for _, o := range opts {
		if o.Type == 1 || o.Type == 2 {
			sub = true
			for p, d := range leaves(prefix+" "+o.Name, o.Options) {
				out[p] = d
			}
		}
	}
	if !sub {
		out[prefix] = opts
	}
	return out
}

// TestNonModeratorRefused sends every /mod and /config subcommand, with
// valid options, as members who may not use them, and the moderator
// buttons as forged clicks: each is refused with "not allowed" and the
// database does not change at all.
func TestNonModeratorRefused(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newHostileEnv(t, backend)
		ctx := testCtx(t, time.Minute)
		player := e.g.user(e.match.Teams[0][0])
		moderator := fakediscord.User{ID: "700000000000000099", Name: "mod", Roles: []string{e.modRole}}
		before := e.snapshot(t)
		tried := 0
		for _, def := range e.l.fake.Commands("") {
			if def.Name != "mod" && def.Name != "config" {
				continue
			}
			who := []fakediscord.User{player}
			if def.Name == "config" {
				who = append(who, moderator) // /config is for admins, not moderators
			}
			for path, opts := range leaves(def.Name, def.Options) {
				for _, u := range who {
					a := e.l.slash(ctx, e.g, u, path, e.optionsFor(opts))
					tried++
					if a.class != classRefused || !strings.Contains(a.text, "not allowed") || !a.resp.Ephemeral() {
						t.Errorf("/%s by %s: Got(answer) = %s %q (ephemeral %v), want a private \"not allowed\"", path, u.Name, a.class, a.text, a.resp.Ephemeral())
					}
				}
			}
		}
		for _, id := range []string{
			commands.ID("modfix", e.match.ID, "2"),
			commands.ID("modfix", e.match.ID, "1"),
			commands.ID("modfix", e.other.ID, "2"),
		} {
			a := e.l.click(ctx, e.g, player, e.ann.ID, id)
			tried++
			if a.class != classRefused || !strings.Contains(a.text, "not allowed") {
				t.Errorf("forged %s by a player: Got(answer) = %s %q, want \"not allowed\"", id, a.class, a.text)
			}
		}
		if tried < 20 {
			t.Errorf("Got(refused actions tried) = %d, want every /mod and /config subcommand", tried)
		}
		if diff := before.Diff(e.snapshot(t)); len(diff) > 0 {
			t.Errorf("refused actions changed the database: %v", diff)
		}
		t.Logf("%d moderator and admin actions by non-moderators refused, database unchanged", tried)
	})
}

// TestHostileInteractions sends what a modified client or a stale
// message can: forged and garbled button IDs, another guild's match,
// unknown IDs, out-of-range numbers. Each gets a clear error, never an
// internal one, and the database does not change.
func TestHostileInteractions(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newHostileEnv(t, backend)
		ctx := testCtx(t, time.Minute)
		m := e.match
		loser, winner, outsider := e.g.user(m.Teams[1][0]), e.g.user(m.Teams[0][1]), e.g2.players[0]
		before := e.snapshot(t)
		click := func(u fakediscord.User, id string) func() answer {
			return func() answer { return e.l.click(ctx, e.g, u, e.ann.ID, id) }
		}
		slash := func(u fakediscord.User, path string, opts map[string]any) func() answer {
			return func() answer { return e.l.slash(ctx, e.g, u, path, opts) }
		}
		tests := []struct {
			name string
			do   func() answer
			want string
		}{
			{"confirm by the reporter's own team", click(winner, commands.ID("cf", m.ID)), "other team must confirm"},
			{"confirm by a player of another guild", func() answer {
				return e.l.click(ctx, e.g2, outsider, e.ann.ID, commands.ID("cf", m.ID))
			}, "not found"},
			{"confirm another guild's match", click(loser, commands.ID("cf", e.other.ID)), "not found"},
			{"confirm an unknown match", click(loser, commands.ID("cf", 987654321)), "not found"},
			{"confirm match 0 (the service's \"current match\")", click(loser, "cf:0"), "not valid"},
			{"dispute form for match 0", click(loser, "dpf:0"), "not valid"},
			{"report button with a forged outcome", click(loser, "rep:"+fmt.Sprint(m.ID)+":banana"), "not valid"},
			{"report button without an outcome", click(loser, "rep:"+fmt.Sprint(m.ID)), "not valid"},
			{"unknown action", click(loser, "nuke:1"), "not valid"},
			{"garbled ID", click(loser, "cf:12abc"), "not valid"},
			{"negative ID", click(loser, "cf:-5"), "not valid"},
			{"huge ID", click(loser, "cf:99999999999999999999999"), "not valid"},
			{"too many parts", click(loser, "cf:1:a:b:c:d:e:f"), "not valid"},
			{"empty ID", click(loser, ":"), "not valid"},
			{"accept someone else's invitation", click(loser, commands.ID("party_ok", 1)), ""},
			{"leaderboard page button far away", click(loser, "lb:0:999999999"), ""},
			{"report another guild's match", slash(loser, "report", map[string]any{"outcome": "win", "match": int(e.other.ID)}), "not found"},
			{"report an unknown match", slash(loser, "report", map[string]any{"outcome": "win", "match": 987654321}), "not found"},
			{"report a match one is not in", slash(e.g.owner, "report", map[string]any{"outcome": "win", "match": int(m.ID)}), "not a player"},
			{"resolve another guild's match", slash(e.g.owner, "mod resolve", map[string]any{"match": int(e.other.ID), "winner": 1}), "not found"},
			{"void an unknown match", slash(e.g.owner, "mod void", map[string]any{"match": 987654321}), "not found"},
			{"correct to the same result is a preview only", slash(e.g.owner, "mod correct", map[string]any{"match": int(e.other.ID), "winner": 1}), "not found"},
			{"queue with a partner from nowhere", slash(loser, "queue join", map[string]any{"partner": loser.ID}), ""},
			{"join an unknown queue", slash(outsider, "queue join", map[string]any{"queue": "9v9"}), ""},
			{"revoke an unknown token", slash(e.g.owner, "mod token revoke", map[string]any{"name": "nope"}), "no API token"},
			{"balance with one player twice", slash(loser, "balance", map[string]any{"p1": loser.ID, "p2": loser.ID}), ""},
			{"divisions that are not a list", slash(e.g.owner, "config divisions", map[string]any{"list": "Gold:abc, :5, Silver"}), ""},
			{"season schedule that is not cron", slash(e.g.owner, "config season", map[string]any{"schedule": "every tuesday"}), ""},
			{"queue with an absurd name", slash(e.g.owner, "config queue add", map[string]any{"name": "   ", "team_size": 2}), ""},
			{"a queue named like an existing one", slash(e.g.owner, "config queue add", map[string]any{"name": "2v2", "team_size": 2}), ""},
			// Larger IDs are refused by Discord's client: the option's max_value.
			{"match ID at Discord's largest integer in /match", slash(loser, "match show", map[string]any{"match": int64(commands.MaxInteger)}), "not found"},
		}
		for _, tt := range tests {
			a := tt.do()
			if a.class != classRefused || !strings.Contains(a.text, tt.want) || !a.resp.Ephemeral() {
				t.Errorf("%s: Got(answer) = %s %q (ephemeral %v), want a private error containing %q", tt.name, a.class, a.text, a.resp.Ephemeral(), tt.want)
			}
		}
		if diff := before.Diff(e.snapshot(t)); len(diff) > 0 {
			t.Errorf("refused actions changed the database: %v", diff)
		}
	})
}
