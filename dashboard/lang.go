package dashboard

import (
	"net/http"

	"github.com/ladderbot/ladderbot/i18n"
)

// langCookie remembers the language a moderator picked in the switcher;
// the public pages use the same cookie, so one choice serves both.
const langCookie = i18n.Cookie

// langLink is one entry of the language switcher.
type langLink struct {
	Code, Tag, Name string
	Current         bool
}

// pageLang is the language of the dashboard answering r, as of the public
// pages (i18n.FromRequest).
func pageLang(r *http.Request) *i18n.Lang { return i18n.FromRequest(r) }
