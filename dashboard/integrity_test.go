package dashboard_test

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// flagNames are the display names of the players raiseFlags uses.
var flagNames = map[string]string{team1[0]: "Ann", team1[1]: "Bo", team2[0]: "Cy", team2[1]: "Di"}

// raiseFlags has team1 and team2 meet twenty times in guild, trading wins
// in turn, which raises a win-trading flag per pair of opponents (four),
// and returns the guild's open flags, newest first.
func raiseFlags(t *testing.T, e *env, guild string) []integrity.Flag {
	t.Helper()
	ctx := context.Background()
	for i := range 20 {
		if _, err := e.svc.RecordResult(ctx, ladder.ResultInput{GuildID: guild, Queue: queueName, Team1: team1, Team2: team2, Winner: 1 + i%2,
			Names: flagNames, PlayedAt: time.Now().Add(-time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	for range 100 { // a ladder whose first fold is a rebuild
		n, err := e.in.Rebuild(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
	}
	fs, err := e.in.Flags(ctx, guild, false, 100)
	if err != nil || len(fs) != 4 {
		t.Fatalf("Flags() = %d flags, %v, want the 4 pairs of opponents' win-trading", len(fs), err)
	}
	return fs
}

var flagCardRE = regexp.MustCompile(`(?s)<div class="card[^"]*" id="flag-(\d+)">(.*?)\n</div>`)

// flagCards are the flag cards of an integrity page by flag number.
func flagCards(body string) map[string]string {
	out := map[string]string{}
	for _, m := range flagCardRE.FindAllStringSubmatch(body, -1) {
		out[m[1]] = m[2]
	}
	return out
}

// TestIntegrityPage: the integrity page lists the guild's open flags with
// their players by name, their matches and their evidence in the page's
// language, as /mod integrity words it; dismissing one with a reason
// takes it off the open list, keeps it under "all" with who dismissed it
// and why, and audits it. Another guild's flag, a second dismissal, a
// member without rights and a logged-out post are refused, changing
// nothing. Both backends.
func TestIntegrityPage(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		ctx := context.Background()
		fs := raiseFlags(t, e, guildA)
		theirs := raiseFlags(t, e, guildB)
		b := e.browser(t)
		b.login(userAdmin, "/admin")
		g := "/admin/guilds/" + guildA + "/"

		if p := b.get(g); !strings.Contains(p.body, `id="open-flags"`) || !strings.Contains(p.body, "4 open integrity flags") ||
			!strings.Contains(p.body, `href="`+g+`integrity"`) {
			t.Errorf("Got(overview) lacks the link to 4 open integrity flags:\n%.2000s", p.body)
		}
		p := b.get(g + "integrity")
		cards := flagCards(p.body)
		if p.status != http.StatusOK || len(cards) != 4 {
			t.Fatalf("Got(integrity page) = %d with %d flags, want 200 and 4:\n%.3000s", p.status, len(cards), p.body)
		}
		en := i18n.English()
		for _, f := range fs {
			card := html.UnescapeString(cards[fmt.Sprint(f.ID)])
			want := []string{commands.EvidenceText(en, f.Evidence), "win-trade", "Dismiss", fmt.Sprintf("/integrity/%d/dismiss", f.ID)}
			for _, id := range f.Subjects {
				want = append(want, ">"+flagNames[id]+"</a>", "/players/"+id)
			}
			for _, m := range f.Matches {
				want = append(want, fmt.Sprintf(`/matches/%d">#%d</a>`, m, m))
			}
			for _, w := range want {
				if !strings.Contains(card, w) {
					t.Errorf("Got(flag %d's card) lacks %q:\n%s", f.ID, w, card)
				}
			}
		}
		// German: the kind and the evidence in German.
		req, _ := http.NewRequest(http.MethodGet, b.abs(g+"integrity"), nil)
		req.Header.Set("Accept-Language", "de")
		de := i18n.For("de")
		if p := b.do(req); !strings.Contains(html.UnescapeString(p.body), commands.EvidenceText(de, fs[0].Evidence)) ||
			!strings.Contains(p.body, "<h1>"+de.T("dash.integrity")+"</h1>") {
			t.Errorf("Got(German integrity page) lacks the German evidence:\n%.3000s", p.body)
		}

		// Refused: another guild's flag through this guild, a flag that
		// is not a number, a reason of control characters; the database
		// does not change.
		token := b.csrf(g + "integrity")
		before, err := testdb.TakeSnapshot(ctx, e.db.SQL(), e.db.Dialect())
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			path, reason string
			status       int
		}{
			{fmt.Sprintf("%sintegrity/%d/dismiss", g, theirs[0].ID), "not yours", http.StatusNotFound},
			{g + "integrity/x/dismiss", "", http.StatusBadRequest},
			{fmt.Sprintf("%sintegrity/%d/dismiss", g, fs[0].ID), "ok\x00", http.StatusBadRequest},
		} {
			if p := b.post(c.path, url.Values{"csrf": {token}, "reason": {c.reason}}); p.status != c.status || !strings.Contains(p.body, `id="error"`) {
				t.Errorf("Got(POST %s) = %d, want %d with a message:\n%.1500s", c.path, p.status, c.status, p.body)
			}
		}
		pia := e.browser(t)
		pia.login(userPlain, "/admin")
		if p := pia.get(g + "integrity"); p.status != http.StatusForbidden {
			t.Errorf("Got(integrity page of a member without rights) = %d, want 403", p.status)
		}
		if p := e.browser(t).post(fmt.Sprintf("%sintegrity/%d/dismiss", g, fs[0].ID), url.Values{"reason": {"x"}}); p.status != http.StatusUnauthorized {
			t.Errorf("Got(logged-out dismissal) = %d, want 401", p.status)
		}
		after, err := testdb.TakeSnapshot(ctx, e.db.SQL(), e.db.Dialect())
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range before.Diff(after) {
			if !strings.HasPrefix(d, "dashboard_sessions:") {
				t.Errorf("a refused dismissal changed the database: %s", d)
			}
		}

		// Dismissed: off the open list, on the full one with who and why.
		f := fs[1]
		p = b.post(fmt.Sprintf("%sintegrity/%d/dismiss", g, f.ID), url.Values{"csrf": {token}, "reason": {"  friends testing a map  "}})
		if want := fmt.Sprintf("Flag #%d (win-trade) dismissed.", f.ID); p.status != http.StatusOK || !strings.Contains(p.body, want) {
			t.Errorf("Got(dismissal) = %d, want the list with %q:\n%.2000s", p.status, want, p.body)
		}
		if cards := flagCards(p.body); len(cards) != 3 || cards[fmt.Sprint(f.ID)] != "" {
			t.Errorf("Got(open flags after a dismissal) = %d, want 3 without #%d", len(cards), f.ID)
		}
		all := b.get(g + "integrity?all=true")
		card := flagCards(all.body)[fmt.Sprint(f.ID)]
		// The moderator is named (here by their session's name, as the
		// ladder knows them as no player), not by the audit log's "web:"
		// actor.
		if !strings.Contains(card, "Dismissed by ada:") || !strings.Contains(card, "friends testing a map") || strings.Contains(card, "<form") {
			t.Errorf("Got(dismissed flag under all) = %q, want who dismissed it and why, without a form", card)
		}
		es, err := e.svc.Audit(ctx, guildA, 5)
		if err != nil || len(es) == 0 || es[0].Action != "integrity.dismiss" || es[0].ActorID != "web:"+userAdmin ||
			es[0].Target != fmt.Sprint(f.ID) || es[0].Reason != "friends testing a map" {
			t.Errorf("Got(audit) = %+v, %v, want integrity.dismiss of #%d by web:%s with the reason", es, err, f.ID, userAdmin)
		}
		// The refusal names who dismissed it as the page does, not as the
		// raw Discord mention of the "web:" actor.
		if p := b.post(fmt.Sprintf("%sintegrity/%d/dismiss", g, f.ID), url.Values{"csrf": {token}}); p.status != http.StatusConflict ||
			!strings.Contains(p.body, fmt.Sprintf("flag %d was dismissed already by ada", f.ID)) || strings.Contains(p.body, "&lt;@") {
			t.Errorf("Got(second dismissal) = %d, want 409 naming ada:\n%.2000s", p.status, errorOf(p.body))
		}
		if p := b.get(g + "integrity?all=maybe"); p.status != http.StatusBadRequest {
			t.Errorf("Got(?all=maybe) = %d, want 400", p.status)
		}
		if got, err := e.in.Flags(ctx, guildB, false, 100); err != nil || len(got) != 4 {
			t.Errorf("Got(guild B's open flags) = %d, %v, want all 4", len(got), err)
		}
	})
}
