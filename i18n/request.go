package i18n

import "net/http"

// Cookie is the name of the cookie the pages' language switcher sets; the
// public pages and the moderators' dashboard share it.
const Cookie = "lang"

// FromRequest is the language of a page answering r: the switcher's
// ?lang=, else the language cookie it set, else the best match of
// Accept-Language, else English.
func FromRequest(r *http.Request) *Lang {
	cat := Default()
	if l, ok := cat.Lang(r.URL.Query().Get("lang")); ok {
		return l
	}
	if c, err := r.Cookie(Cookie); err == nil {
		if l, ok := cat.Lang(c.Value); ok {
			return l
		}
	}
	return cat.Match(r.Header.Get("Accept-Language"))
}
