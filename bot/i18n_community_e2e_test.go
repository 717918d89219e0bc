package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

// TestLocalizedCommunity: a German and a Portuguese player get /compare,
// /history with its buttons, /stats, /link and /match show in their own
// language, typed by their localized names, on both databases through the
// real discordgo against the fake Discord. Every text checked is rendered
// from the player's catalog, and the English texts are nowhere.
func TestLocalizedCommunity(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		for _, code := range []string{"de", "pt-BR"} {
			t.Run(code, func(t *testing.T) { testLocalizedCommunity(t, newEnv(t, freshDSN(t, backend)), code) })
		}
	})
}

// after is what l renders for id after its leading {{.Name}}: the part of
// a list line that is not a player's name.
func after(l *i18n.Lang, id string, n int, kv ...any) string {
	const mark = "\x00"
	return strings.TrimPrefix(l.N(id, n, append([]any{"Name", mark}, kv...)...), mark)
}

func testLocalizedCommunity(t *testing.T, e *env, code string) {
	l, _ := i18n.Default().Lang(code)
	en := i18n.English()
	locale := l.Discord()
	// 12 rated matches: p1+p2 beat p3+p4 nine times, then lose three.
	start := time.Now().UTC().Add(-24 * time.Hour)
	var recs []rating.MatchRecord
	for i := range 12 {
		w := 1
		if i >= 9 {
			w = 2
		}
		recs = append(recs, rating.MatchRecord{Date: start.Add(time.Duration(i) * time.Minute),
			Team1: []string{players[0].ID, players[1].ID}, Team2: []string{players[2].ID, players[3].ID}, Winner: w})
	}
	if _, err := e.svc.ImportMatches(e.ctx, testGuild, "", recs, nil); err != nil {
		t.Fatalf("ImportMatches: %v", err)
	}
	slash := func(path string, opts map[string]any) fakediscord.Response {
		t.Helper()
		typedOpts := map[string]any{}
		for k, v := range opts {
			typedOpts[typedOpt(l, k)] = v
		}
		p, err := e.fake.Slash(callIn(alice, locale), typed2(l, path), typedOpts)
		if err != nil {
			t.Fatal(err)
		}
		return e.result(p)
	}
	want := func(what string, r fakediscord.Response, texts ...string) {
		t.Helper()
		for _, s := range texts {
			if !strings.Contains(r.Message.Text(), s) {
				t.Errorf("%s in %s: Got(text) = %q, want it to contain %q", what, code, r.Message.Text(), s)
			}
		}
	}
	// english fails when r shows one of the English texts.
	english := func(what string, r fakediscord.Response, texts ...string) {
		t.Helper()
		for _, s := range texts {
			if strings.Contains(r.Message.Text(), s) {
				t.Errorf("%s in %s: English %q shown: %q", what, code, s, r.Message.Text())
			}
		}
	}

	c := slash("compare", map[string]any{"a": players[0].ID, "b": players[2].ID})
	// A title shows text as it is: players the ladder has no name for
	// are named as Discord resolved them (the fake: "user<ID>").
	title := l.T("compare.title", "A", "user"+players[0].ID, "B", "user"+players[2].ID, "Queue", "2v2", "Season", 1)
	if named := l.T("compare.title", "A", players[0].Name, "B", players[2].Name, "Queue", "2v2", "Season", 1); strings.Contains(c.Message.Text(), named) {
		title = named
	}
	want("/compare", c, title, l.T("compare.chance"), l.T("compare.against"), l.N("compare.games", 12, "Record", "9-3"),
		l.T("compare.partners"), l.T("compare.no_games"), l.T("compare.last"), l.T("outcome.loss"))
	english("/compare", c, en.T("compare.chance"), en.T("compare.against"), en.T("compare.last"), "12 games", "no games", " for ")
	self := slash("compare", map[string]any{"a": players[0].ID, "b": players[0].ID})
	want("/compare of one player", self, "⚠️ "+l.Error("pick two different players to compare"))

	st := slash("stats", nil)
	want("/stats", st, l.T("stats.title", "Queue", "2v2", "Season", 1), l.T("stats.active"), l.T("stats.streaks"),
		l.T("stats.upsets"), l.T("stats.partnerships", "Min", 5), after(l, "stats.streak_line", 3), after(l, "stats.active_line", 12))
	english("/stats", st, "Server stats", "wins in a row", "Most active", "Biggest upsets")

	h := slash("history", map[string]any{"player": players[1].ID})
	want("/history", h, l.T("history.title"), l.T("history.footer"), l.T("winner.team", "N", 2), "("+l.T("outcome.loss")+")")
	english("/history", h, en.T("history.title"), en.T("history.footer"), "Team 2 won", "(loss)")
	if b := h.Message.Buttons(); len(b) != 2 || b[0].Label != l.T("button.previous") || b[1].Label != l.T("button.next") {
		t.Fatalf("Got(/history buttons in %s) = %+v, want %q and %q", code, b, l.T("button.previous"), l.T("button.next"))
	}
	next, ok := h.Message.ButtonByLabel(l.T("button.next"))
	if !ok {
		t.Fatalf("no %q button", l.T("button.next"))
	}
	p, err := e.fake.Click(callIn(alice, locale), h.Message.ID, next.CustomID)
	if err != nil {
		t.Fatal(err)
	}
	page2 := e.result(p)
	want("/history page 2", page2, "`#2`", l.T("history.footer"), l.T("winner.team", "N", 1), "("+l.T("outcome.win")+")")
	english("/history page 2", page2, en.T("history.footer"), "Team 1 won", "(win)")

	link := slash("link showdown", map[string]any{"name": "Ash K."})
	want("/link", link, l.T("link.done", "Name", "Ash K."))
	english("/link", link, "Linked your Showdown name")
	badName := slash("link showdown", map[string]any{"name": "---"})
	want("/link of a bad name", badName, "⚠️ "+l.Error("a Showdown name has 1 to %d characters with at least one letter or digit", 18))

	show := slash("match show", map[string]any{"match": int64(12)})
	want("/match show", show, l.T("match.title", "ID", 12, "Queue", "2v2"), l.T("match.result"), l.T("winner.team", "N", 2))
	english("/match show", show, "Team 2 won", "to win")
}
