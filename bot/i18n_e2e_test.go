package bot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestLocalizedMatch plays one whole match — queue, ready check, report,
// confirm, profile, leaderboard, and a refused command — in each language
// on both databases, through the real discordgo against the fake Discord.
// The guild's language is set with /config language; the players' clients
// speak it too and type the commands by their localized names. Every text
// checked is rendered from that language's catalog, so an English text
// left in the flow fails the test. One player's client is English: what
// answers him is English while the channel's posts stay in the guild's
// language.
func TestLocalizedMatch(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		for _, code := range i18n.Default().Languages() {
			t.Run(code, func(t *testing.T) { testLocalizedMatch(t, newEnv(t, freshDSN(t, backend)), code) })
		}
	})
}

// callIn is a call by u from a Discord client of locale.
func callIn(u fakediscord.User, locale string) fakediscord.Call {
	c := at(u)
	c.Locale = locale
	return c
}

func testLocalizedMatch(t *testing.T, e *env, code string) {
	l, _ := i18n.Default().Lang(code)
	en := i18n.English()
	locale := l.Discord()
	if locale == "" {
		locale = "en-US"
	}
	slash := func(u fakediscord.User, locale, path string, opts map[string]any) fakediscord.Response {
		t.Helper()
		p, err := e.fake.Slash(callIn(u, locale), path, opts)
		if err != nil {
			t.Fatal(err)
		}
		return e.result(p)
	}
	click := func(u fakediscord.User, m fakediscord.Message, label string) fakediscord.Response {
		t.Helper()
		b, ok := m.ButtonByLabel(label)
		if !ok {
			t.Fatalf("message %q has no button %q (buttons %+v)", m.Text(), label, m.Buttons())
		}
		p, err := e.fake.Click(callIn(u, locale), m.ID, b.CustomID)
		if err != nil {
			t.Fatal(err)
		}
		return e.result(p)
	}
	want := func(what, got, want string) {
		t.Helper()
		if !strings.Contains(got, want) {
			t.Errorf("%s: Got(text) = %q, want it to contain %q", what, got, want)
		}
	}
	typed := func(path string) string { return typed2(l, path) }

	e.establish()
	set := slash(owner, locale, "config language", map[string]any{"language": code})
	want("/config language", set.Message.Content, l.T("language.set", "Language", l.Name()))

	// A refused command: the coded error in the user's language.
	self := players[0]
	bad := slash(self, locale, typed("queue join"), map[string]any{typedOpt(l, "partner"): self.ID})
	want("own partner", bad.Message.Content, "⚠️ "+l.Error("you cannot be your own partner"))

	// Players 1-3 speak the guild's language; player 4's client is English.
	for i, p := range players {
		loc, pl := locale, l
		if i == 3 {
			loc, pl = "en-US", en
		}
		r := slash(p, loc, typed2(pl, "queue join"), nil)
		want("queue join", r.Message.Content, pl.T("queue.joined", "Queue", "2v2", "Size", 2))
	}
	ms, err := e.svc.Matches(e.ctx, ladder.MatchFilter{GuildID: testGuild, States: []ladder.MatchState{ladder.StateOpen}, Limit: 5})
	if err != nil || len(ms) != 1 {
		t.Fatalf("Got(open matches) = %d, %v, want 1", len(ms), err)
	}
	m := ms[0]
	ann := e.channelMessage(fmt.Sprintf("#%d", m.ID))
	want("ready check", ann.Text(), l.T("ready.title", "ID", m.ID, "Queue", "2v2"))
	want("ready check", ann.Text(), l.T("ready.count", "Ready", 0, "Total", 4))
	want("ready check", ann.Text(), l.T("ready.footer"))
	if b := ann.Buttons(); len(b) != 2 || b[0].Label != l.T("button.ready") || b[1].Label != l.T("button.not_ready") {
		t.Errorf("Got(ready check buttons) = %+v, want %q and %q", b, l.T("button.ready"), l.T("button.not_ready"))
	}
	var on fakediscord.Response
	for _, u := range m.Players() {
		on = click(userByID(u), ann, l.T("button.ready"))
	}
	want("match on", on.Message.Content, l.T("match.on", "ID", m.ID, "Team1", teamText(m.Teams[0]), "Team2", teamText(m.Teams[1])))
	want("match on", on.Message.Text(), l.T("match.quality"))
	want("match on", on.Message.Text(), l.T("match.footer"))

	winner, loser := userByID(m.Teams[0][0]), userByID(m.Teams[1][0])
	rep := click(winner, on.Message, l.T("button.won"))
	want("report", rep.Message.Content, l.T("report.reported", "ID", m.ID, "Result", l.T("winner.team", "N", 1)))
	ask, err := e.fake.WaitChannelMessage(e.ctx, testChannel, func(msg fakediscord.Message) bool {
		_, ok := msg.ButtonByLabel(l.T("button.confirm"))
		return ok
	})
	if err != nil {
		t.Fatalf("no confirmation request with a %q button: %v", l.T("button.confirm"), err)
	}
	want("confirmation request", ask.Content, l.T("report.ask", "Reporter", "<@"+winner.ID+">", "ID", m.ID,
		"Result", l.T("winner.team", "N", 1), "Others", teamText(m.Teams[1]), "Deadline", "<t:")[:40])
	conf := click(loser, ask, l.T("button.confirm"))
	want("confirm", conf.Message.Content, l.T("result.confirmed", "ID", m.ID, "Result", l.T("winner.team", "N", 1)))
	want("confirm", conf.Message.Text(), l.T("result.confirmed_title", "ID", m.ID, "Result", l.T("winner.team", "N", 1)))

	prof := slash(winner, locale, typed("profile"), nil)
	for _, k := range []string{"profile.rating", "profile.standing", "profile.record", "profile.recent"} {
		want("profile", prof.Message.Text(), l.T(k))
	}
	want("profile", prof.Message.Text(), l.T("outcome.win"))
	board := slash(loser, locale, typed("leaderboard"), nil)
	want("leaderboard", board.Message.Text(), l.T("board.title", "Queue", "2v2", "Season", 1))
	want("leaderboard", board.Message.Text(), l.T("board.footer", "Page", 1))
	if b := board.Message.Buttons(); len(b) != 2 || b[1].Label != l.T("button.next") {
		t.Errorf("Got(leaderboard buttons) = %+v, want %q", b, l.T("button.next"))
	}
	if code != "en" {
		// Nothing the players were shown is the English text.
		for what, text := range map[string]string{"ready footer": en.T("ready.footer"), "match footer": en.T("match.footer"), "board title": "Leaderboard · 2v2"} {
			for _, msg := range []string{ann.Text(), on.Message.Text(), board.Message.Text()} {
				if strings.Contains(msg, text) {
					t.Errorf("%s: English text %q shown in %s", what, text, code)
				}
			}
		}
	}
}

// typedOpt is an option's name as a user of l types it.
func typedOpt(l *i18n.Lang, name string) string { return l.Registration(i18n.SectionName, name) }

// typed2 is a command path as a user of l types it.
func typed2(l *i18n.Lang, path string) string {
	words := strings.Fields(path)
	for i, w := range words {
		words[i] = l.Registration(i18n.SectionName, w)
	}
	return strings.Join(words, " ")
}

// teamText renders a team as the bot does.
func teamText(ids []string) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = "<@" + id + ">"
	}
	return strings.Join(parts, ", ")
}

// TestLocalizedCommandsRegistered: the bot registers every command with
// its localizations for de, fr, es-ES and pt-BR, and Latin America's
// Spanish (es-419) as Spain's, the fake Discord accepts them under
// Discord's rules, and a client of each locale sees the translated names
// and descriptions.
func TestLocalizedCommandsRegistered(t *testing.T) {
	e := newEnv(t, freshDSN(t, "sqlite"))
	defs := e.fake.Commands(testGuild)
	if len(defs) == 0 {
		t.Fatal("no commands registered")
	}
	locales := []string{"de", "fr", "es-ES", "es-419", "pt-BR"}
	var walk func(path string, opts []fakediscord.OptionDef)
	walk = func(path string, opts []fakediscord.OptionDef) {
		for _, o := range opts {
			for _, loc := range locales {
				if o.DescriptionLocalizations[loc] == "" {
					t.Errorf("%s %s: no description in %s", path, o.Name, loc)
				}
			}
			walk(path+" "+o.Name, o.Options)
		}
	}
	// Discord counts each field at its longest spelling in any language;
	// the fake refuses a command past the limit, and the test says how
	// close the biggest command comes.
	biggest, size := "", 0
	for _, d := range defs {
		if n := fakediscord.CommandChars(d); n > size {
			biggest, size = d.Name, n
		}
	}
	t.Logf("largest command: /%s, %d of %d characters counted at their longest localization", biggest, size, fakediscord.MaxCommandChars)
	for _, d := range defs {
		for _, loc := range locales {
			if d.DescriptionLocalizations[loc] == "" {
				t.Errorf("/%s: no description in %s", d.Name, loc)
			}
		}
		walk("/"+d.Name, d.Options)
	}
	q := defs[0]
	if q.Name != "queue" || q.NameLocalizations["de"] != "warteschlange" || q.NameLocalizations["pt-BR"] != "fila" ||
		q.NameLocalizations["es-419"] != q.NameLocalizations["es-ES"] {
		t.Errorf("Got(/queue) = %s %v, want warteschlange in de, fila in pt-BR, es-419 as es-ES", q.Name, q.NameLocalizations)
	}
}

// TestGuildPreferredLocale: without /config language, a server's posts
// follow the preferred locale Discord sends with its interactions, noted
// for the scheduled jobs too, while each reply follows the user's client;
// /config language then overrides it.
func TestGuildPreferredLocale(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, freshDSN(t, backend))
		e.noReadyCheck()
		de, en := i18n.For("de"), i18n.English()
		for _, p := range players {
			c := callIn(p, "en-US")
			c.GuildLocale = "de"
			pend, err := e.fake.Slash(c, "queue join", nil)
			if err != nil {
				t.Fatal(err)
			}
			r := e.result(pend)
			if !strings.Contains(r.Message.Content, en.T("queue.joined", "Queue", "2v2", "Size", 2)) {
				t.Errorf("Got(reply) = %q, want English: the user's client is", r.Message.Content)
			}
		}
		ann, err := e.fake.WaitChannelMessage(e.ctx, testChannel, func(m fakediscord.Message) bool { return len(m.Buttons()) > 0 })
		if err != nil {
			t.Fatal(err)
		}
		if b := ann.Buttons(); b[0].Label != de.T("button.won") || !strings.Contains(ann.Text(), de.T("match.footer")) {
			t.Errorf("Got(announcement) = %q with %+v, want German: the server prefers de", ann.Text(), b)
		}
		g, err := e.svc.Guild(e.ctx, testGuild)
		if err != nil || g.PreferredLocale != "de" || commands.GuildLang(g).Code() != "de" {
			t.Errorf("Got(guild) = %q, %v; want the preferred locale de noted for the jobs", g.PreferredLocale, err)
		}
		set := e.slash(owner, "config language", map[string]any{"language": "fr"})
		if !strings.Contains(set.Message.Content, en.T("language.set", "Language", "Français")) {
			t.Errorf("Got(/config language) = %q", set.Message.Content)
		}
		if g, _ := e.svc.Guild(e.ctx, testGuild); commands.GuildLang(g).Code() != "fr" {
			t.Errorf("Got(language after /config language fr) = %s, want fr", commands.GuildLang(g).Code())
		}
		show := e.slash(owner, "config language", nil)
		if !strings.Contains(show.Message.Content, en.T("language.set_show", "Language", "Français")) {
			t.Errorf("Got(/config language) = %q, want the setting shown", show.Message.Content)
		}
		back := e.slash(owner, "config language", map[string]any{"language": "auto"})
		if !strings.Contains(back.Message.Content, en.T("language.auto", "Language", "English")) {
			t.Errorf("Got(/config language auto) = %q, want the preferred language (en-US from the owner's call)", back.Message.Content)
		}
	})
}
