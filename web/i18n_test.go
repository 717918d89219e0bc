package web

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/i18n"
)

// TestPagesLanguage: pages follow Accept-Language, the switcher's ?lang=
// sets a cookie that wins over the header from then on, <html lang> names
// the language shown, and every page's texts come from its catalog.
func TestPagesLanguage(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{})
		fx := seedFixture(t, e)
		get := func(path string, header ...string) *httptest.ResponseRecorder {
			t.Helper()
			return call(e, "GET", path, "", header...)
		}
		board := "/guilds/" + guildG
		for _, tc := range []struct {
			name, accept, cookie, query, want string
		}{
			{"no header", "", "", "", "en"},
			{"German browser", "de-DE,de;q=0.9,en;q=0.8", "", "", "de"},
			{"Brazilian browser", "pt-BR", "", "", "pt-BR"},
			{"French second choice", "ja,fr;q=0.7", "", "", "fr"},
			{"unknown language", "ja", "", "", "en"},
			{"cookie wins over the header", "de", "es", "", "es"},
			{"switcher wins over both", "de", "es", "?lang=fr", "fr"},
			{"bad cookie", "pt-BR", "xx", "", "pt-BR"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				var h []string
				if tc.accept != "" {
					h = append(h, "Accept-Language", tc.accept)
				}
				if tc.cookie != "" {
					h = append(h, "Cookie", langCookie+"="+tc.cookie)
				}
				rec := get(board+tc.query, h...)
				html := rec.Body.String()
				l, _ := i18n.Default().Lang(tc.want)
				if !strings.Contains(html, `<html lang="`+l.Tag().String()+`">`) || rec.Header().Get("Content-Language") != l.Tag().String() {
					t.Errorf("Got(html lang, Content-Language) = %q, want %s", rec.Header().Get("Content-Language"), l.Tag())
				}
				for _, k := range []string{"web.leaderboard", "web.footer", "web.player", "web.rating"} {
					if !strings.Contains(html, escaped(l.T(k))) {
						t.Errorf("Got(page) lacks %s %q", k, l.T(k))
					}
				}
				set := rec.Header().Get("Set-Cookie")
				if (tc.query != "") != strings.HasPrefix(set, langCookie+"="+tc.want+";") {
					t.Errorf("Got(Set-Cookie) = %q with query %q", set, tc.query)
				}
			})
		}
		// Every page in German, the error page included.
		for _, path := range []string{"/", board, board + "/players/1001", board + "/matches/" + itoa(int(fx.matchIDs[0])), board + "/players/nobody"} {
			html := get(path, "Accept-Language", "de").Body.String()
			if !strings.Contains(html, `<html lang="de">`) || !strings.Contains(html, escaped(i18n.For("de").T("web.footer"))) {
				t.Errorf("GET %s in German: %.300s", path, html)
			}
			for _, english := range []string{"Back to the", "Recent matches", "Rating history", ">Result<", "Open leaderboard"} {
				if strings.Contains(html, english) {
					t.Errorf("GET %s in German shows English %q", path, english)
				}
			}
		}
	})
}

// escaped is s as html/template escapes it in text.
func escaped(s string) string {
	return strings.NewReplacer("&", "&amp;", "'", "&#39;", "<", "&lt;", ">", "&gt;", `"`, "&#34;").Replace(s)
}
