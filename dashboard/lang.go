package dashboard

import (
	"net/http"

	"github.com/ladderbot/ladderbot/i18n"
)

// langCookie remembers the language a moderator picked in the switcher;
// the public pages use the same cookie, so one choice serves both.
const langCookie = "lang"

// langLink is one entry of the language switcher.
type langLink struct {
	Code, Tag, Name string
	Current         bool
}

// pageLang is the language of the pages answering r, as on the public
// pages: the switcher's ?lang=, else the language cookie, else the best
// match of Accept-Language, else English.
func pageLang(r *http.Request) *i18n.Lang {
	cat := i18n.Default()
	if l, ok := cat.Lang(r.URL.Query().Get("lang")); ok {
		return l
	}
	if c, err := r.Cookie(langCookie); err == nil {
		if l, ok := cat.Lang(c.Value); ok {
			return l
		}
	}
	return cat.Match(r.Header.Get("Accept-Language"))
}
