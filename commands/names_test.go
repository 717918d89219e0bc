package commands

import (
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestPlainTextNamesPlayers: Discord shows a title, a footer, a field's
// name and a select option's label as they are, so a mention there is
// the raw text "<@500000000000000001>". The map-ban view named its two
// banners in its footer, the season's final standings a nameless player
// in a field's name, /profile, /compare and /history a player the ladder
// has no name for in the title (and the rating chart). They now name the
// player (the ladder's name, else the one Discord resolved for the
// command, else the ID) or move the mention where it renders.
func TestPlainTextNamesPlayers(t *testing.T) {
	l := i18n.English()
	a, b := user(1), user(2)
	bans := mapBanView(l, ladder.Match{ID: 7, Teams: [2][]string{{a}, {b}}},
		formats.Pick{MatchID: 7, Game: 1, Mode: formats.ModeBan, Pool: []string{"Dust", "Nuke", "Mirage"}, Banners: [2]string{a, b}, Deadline: time.Unix(1e9, 0)})
	checkLimits(t, "map bans", bans)
	if d := bans.Embeds[0].Description; !strings.Contains(d, "<@"+a+">") || !strings.Contains(d, "<@"+b+">") {
		t.Errorf("Got(map bans description) = %q, want both banners mentioned", d)
	}

	st := ladder.SeasonStandings{Season: ladder.Season{Number: 3}, Queue: ladder.Queue{Name: "2v2"}, Results: []ladder.SeasonResult{
		{UserID: a, Name: "Ann", Rank: 1, Rating: 1700, RD: 50, Division: "Gold", Badge: "top3"},
		{UserID: b, Rank: 2, Rating: 1650, RD: 50, Division: "Gold", Badge: "top3"}}}
	final := FinalStandings(l, st)
	checkLimits(t, "final standings", final)
	if fs := final.Embeds[0].Fields; len(fs) != 2 || !strings.HasSuffix(fs[0].Name, "Ann") || !strings.HasPrefix(fs[1].Value, "<@"+b+"> · ") {
		t.Errorf("Got(final standings fields) = %+v, want Ann named and the nameless player mentioned in the value", fs)
	}

	var h handlers
	p := ladder.Profile{Standing: ladder.Standing{UserID: b, Rating: 1500}, Queue: ladder.Queue{Name: "2v2"}, Season: ladder.Season{Number: 3}}
	for resolved, want := range map[string]string{"": b, "Bea": "Bea"} {
		names := map[string]string{}
		if resolved != "" {
			names[b] = resolved
		}
		r := h.profileReply(l, p, names)
		checkLimits(t, "profile", r)
		if title := r.Embeds[0].Title; !strings.HasPrefix(title, want+" · 2v2") {
			t.Errorf("Got(profile title) = %q, want it to name the player %q", title, want)
		}
	}

	if got := nameOr("_xX_Sniper_Xx_ [mod](https://x.example)", a); got != `\_xX\_Sniper\_Xx\_ \[mod\](https://x.example)` {
		t.Errorf("Got(nameOr) = %q, want the name's markdown escaped", got)
	}
	if got := plainName("", "web:"+a, nil); got != a {
		t.Errorf("Got(plainName of a dashboard actor) = %q, want the user ID", got)
	}
}

// TestResolvedNamesNeutral: a name Discord resolved for an option may
// carry bidirectional controls (legal on Discord) or, from a modified
// client, worse. /profile of such a user works: the title shows the name
// without its controls, and a name that breaks the text rule otherwise
// is left out rather than refuse the command.
func TestResolvedNamesNeutral(t *testing.T) {
	f := newFixture(t)
	if _, err := f.svc.EnsureGuild(t.Context(), guild); err != nil {
		t.Fatal(err)
	}
	f.ok(admin("mod rating set", map[string]any{"player": user(3), "rating": 1600.0, "rd": 60.0}))
	f.ok(admin("mod rating set", map[string]any{"player": user(4), "rating": 1600.0, "rd": 60.0}))
	for id, tc := range map[string]struct{ name, title string }{
		user(3): {"\u202eevil\u2068 eve\u2069", "evil eve · "},
		user(4): {"nul\x00name", user(4) + " · "},
	} {
		req := cmd(user(1), "profile", map[string]any{"player": id})
		req.Names = map[string]string{id: tc.name}
		r, err := f.call(req)
		if err != nil || len(r.Embeds) == 0 || !strings.HasPrefix(r.Embeds[0].Title, tc.title) {
			t.Errorf("Got(/profile of a user resolved as %q) = %+v, %v; want the title to start %q", tc.name, r.Embeds, err, tc.title)
		}
	}
}
