package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ladderbot/ladderbot/ladder"
)

// checkRequestText applies ladder.CheckText, the one identifier rule, to
// every path segment and query value of a request before it is routed, so
// no handler (page or API) ever sees a NUL, a control or bidi character or
// invalid UTF-8 in a guild, player, queue or cursor. Percent
// escapes are decoded first (%00 is a NUL); a query that does not decode
// is refused too.
func checkRequestText(r *http.Request) error {
	for seg := range strings.SplitSeq(r.URL.Path, "/") {
		if err := ladder.CheckText("URL path segment", seg); err != nil {
			return err
		}
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return ladder.Errorf(ladder.CodeInvalid, "malformed query string: %v", err)
	}
	for k, vs := range q {
		if err := ladder.CheckText("query parameter name", k); err != nil {
			return err
		}
		for _, v := range vs {
			if err := ladder.CheckText("query parameter "+strconv.Quote(k), v); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkJSONBody is the strict half of decodeJSON: body must be valid UTF-8
// (encoding/json would silently turn bad bytes into U+FFFD, collapsing
// different inputs into one ID), no string escape may be a lone UTF-16
// surrogate (the same collapse, spelled \ud800), no object may repeat a key
// (encoding/json keeps the last, so "winner":1,"winner":2 records a win for
// team 2 while a logging proxy sees team 1), and every string, key or
// value, passes ladder.CheckText (a "reason" value ladder.CheckLines).
func checkJSONBody(body []byte) error {
	if !utf8.Valid(body) {
		i := 0
		for i < len(body) {
			r, n := utf8.DecodeRune(body[i:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			i += n
		}
		return ladder.Errorf(ladder.CodeInvalid, "request body is not valid UTF-8 (bad byte at offset %d)", i)
	}
	if off := loneSurrogate(body); off >= 0 {
		return ladder.Errorf(ladder.CodeInvalid, "request body has an unpaired UTF-16 surrogate escape at byte %d", off)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := walkJSON(dec, "body"); err != nil {
		if errors.Is(err, io.EOF) {
			return nil // decodeJSON reports empty and truncated bodies itself
		}
		if ladder.ErrorCode(err) == ladder.CodeInvalid {
			return err
		}
		return nil // syntax errors: decodeJSON reports them with their offset
	}
	return nil
}

// walkJSON reads one JSON value from dec, refusing repeated keys and
// strings that fail ladder.CheckText; where names the value in messages.
func walkJSON(dec *json.Decoder, where string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			seen := map[string]bool{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return err
				}
				k, _ := kt.(string)
				if err := ladder.CheckText("JSON key in "+where, k); err != nil {
					return err
				}
				if seen[k] {
					return ladder.Errorf(ladder.CodeInvalid, "duplicate JSON key %q in %s", k, where)
				}
				seen[k] = true
				if err := walkJSON(dec, strconv.Quote(k)); err != nil {
					return err
				}
			}
		case '[':
			for dec.More() {
				if err := walkJSON(dec, where); err != nil {
					return err
				}
			}
		}
		_, err := dec.Token() // the closing delimiter
		return err
	case string:
		if where == `"reason"` {
			// A reason is prose, kept by the service under
			// ladder.CheckReason, which allows line breaks and tabs as
			// Discord's paragraph fields and the dashboard's forms do.
			return ladder.CheckLines("string in "+where, t)
		}
		return ladder.CheckText("string in "+where, t)
	}
	return nil
}

// loneSurrogate returns the offset of the first \uD800–\uDFFF escape in a
// JSON text that is not a high surrogate followed by a low one, or -1.
func loneSurrogate(b []byte) int {
	for i := 0; i+1 < len(b); i++ {
		if b[i] != '\\' {
			continue
		}
		if b[i+1] != 'u' {
			i++ // skip the escaped character (it may be a backslash)
			continue
		}
		v, ok := hex4(b, i+2)
		if !ok {
			continue
		}
		switch {
		case v >= 0xd800 && v <= 0xdbff:
			lo, ok := uint16(0), false
			if i+11 < len(b) && b[i+6] == '\\' && b[i+7] == 'u' {
				lo, ok = hex4(b, i+8)
			}
			if !ok || lo < 0xdc00 || lo > 0xdfff {
				return i
			}
			i += 11
		case v >= 0xdc00 && v <= 0xdfff:
			return i
		default:
			i += 5
		}
	}
	return -1
}

func hex4(b []byte, at int) (uint16, bool) {
	if at+4 > len(b) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(b[at:at+4]), 16, 16)
	return uint16(v), err == nil
}
