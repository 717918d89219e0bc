package dashboard_test

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

var (
	// styleRE drops what is not text for a reader, and the audit log's
	// recorded changes, which are data.
	// styleRE finds what is not text to translate: the style sheet, and
	// recorded data (an audit entry's change as recorded, a webhook
	// delivery's error text), marked with the class rec.
	styleRE = regexp.MustCompile(`(?s)<style>.*?</style>|<(?:b|span|code) class="[^"]*\brec\b[^"]*">.*?</(?:b|span|code)>`)
	dataRE  = regexp.MustCompile(`^[a-z0-9_.:,/ -]+$|^\d{4}-\d\d-\d\d \d\d:\d\d UTC$`)
	tagRE   = regexp.MustCompile(`(?s)<[^>]*>`)
	// attrRE finds the attributes a user reads: placeholders and labels.
	attrRE = regexp.MustCompile(`(?:placeholder|aria-label)="([^"]*)"`)
	wordRE = regexp.MustCompile(`\pL{2,}`)
)

// texts lists what a page shows a reader: its text between tags, and its
// placeholders and labels.
func texts(body string) []string {
	body = styleRE.ReplaceAllString(body, "")
	var out []string
	for _, m := range attrRE.FindAllStringSubmatch(body, -1) {
		out = append(out, html.UnescapeString(m[1]))
	}
	for _, s := range tagRE.Split(body, -1) {
		if s = strings.TrimSpace(html.UnescapeString(s)); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// TestDashboardLanguage opens every page of the dashboard in the
// pseudo-locale, chosen with the switcher's ?lang= and kept by its cookie:
// every text with words is marked, so none bypasses the catalogs, except
// the data the test put there (names, the queue, setting names, the
// switcher's language names). It also checks the page says its language
// and that German follows Accept-Language.
func TestDashboardLanguage(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		ctx := context.Background()
		res, err := e.svc.RecordResult(ctx, ladder.ResultInput{GuildID: guildA, Queue: queueName, Team1: team1, Team2: team2, Winner: 1})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := e.svc.CreateToken(ctx, ladder.System, guildA, "site"); err != nil {
			t.Fatal(err)
		}
		flag := raiseFlags(t, e, guildA)[0]
		if _, err := e.in.Dismiss(ctx, ladder.Actor{UserID: "web:" + userAdmin, Moderator: true}, guildA, flag.ID, "friends"); err != nil {
			t.Fatal(err)
		}
		b := e.browser(t)
		b.login(userAdmin, "/admin")
		if p := b.get("/admin?lang=" + i18n.Pseudo); p.header.Get("Content-Language") != i18n.Pseudo {
			t.Fatalf("Got(Content-Language) = %q, want %s", p.header.Get("Content-Language"), i18n.Pseudo)
		}
		g := "/admin/guilds/" + guildA + "/"
		data := map[string]bool{"ada": true, "Alpha League": true, queueName: true, "site": true, "ladderbot": true}
		for _, n := range flagNames {
			data[n] = true
		}
		for _, d := range ladder.DefaultDivisions() {
			data[d.Name] = true // the server's own names
		}
		for _, code := range i18n.Default().Languages() {
			l, _ := i18n.Default().Lang(code)
			data[l.Name()] = true
		}
		pages := []string{"/admin", g, g + "queues/" + queueName, g + "disputes", g + "players", g + "players/" + team1[0],
			g + "settings", g + "integrations", g + "audit", g + "integrity", g + "integrity?all=true", fmt.Sprintf("%smatches/%d?winner=2", g, res.Match.ID), g + "no-such-page"}
		for _, path := range pages {
			p := b.get(path)
			if p.status != http.StatusOK && path != g+"no-such-page" {
				t.Errorf("%s: Got(status) = %d, want 200", path, p.status)
			}
			if strings.Contains(path, "integrity") && !strings.Contains(p.body, `id="flag-`) {
				t.Errorf("%s: Got(no flag on the page), want the raised flags", path)
			}
			if !strings.Contains(p.body, `<html lang="`+i18n.Pseudo+`">`) {
				t.Errorf("%s: Got(html lang) wrong, want %s (status %d)", path, i18n.Pseudo, p.status)
			}
			for _, s := range texts(p.body) {
				s = strings.Trim(s, " ·")
				// Setting names (placement_games), IDs, numbers and
				// dates are data, the same in every language.
				if strings.Contains(s, "⟦") || data[s] || !wordRE.MatchString(s) || dataRE.MatchString(s) {
					continue
				}
				t.Errorf("%s: %q is not from the catalogs", path, s)
			}
		}

		// Another browser whose language is German gets German pages.
		de := e.browser(t)
		de.login(userAdmin, "/admin")
		req, _ := http.NewRequest(http.MethodGet, de.abs(g+"settings"), nil)
		req.Header.Set("Accept-Language", "de-DE,de;q=0.9,en;q=0.5")
		p := de.do(req)
		if want := i18n.For("de").T("dash.settings"); !strings.Contains(p.body, "<h1>"+want+"</h1>") || p.header.Get("Content-Language") != "de" {
			t.Errorf("Got(German settings page) lacks %q or Content-Language de (%q)", want, p.header.Get("Content-Language"))
		}
	})
}
