package web

import (
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/ladderbot/ladderbot/ladder"
)

// tokenHandler is an API handler that runs with an authenticated token of
// the guild in its path.
type tokenHandler func(w http.ResponseWriter, r *http.Request, tok ladder.Token)

// authed guards h with the guild's bearer tokens (docs/spec.md 7): a missing or
// malformed Authorization header, an unknown, revoked or other guild's
// token answer 401; a token over its rate answers 429 with Retry-After.
// Failed authentications are limited per client address (authFailures):
// once a client has used up its failures it gets 429 before any database
// lookup, so guessing tokens cannot hammer the database. The service
// compares token hashes in constant time; the secret is never logged.
func (s *Server) authed(h tokenHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		client := clientAddr(r)
		if ok, wait := s.authFailures.check(client); !ok {
			w.Header().Set("Retry-After", retryAfter(wait))
			writeJSONError(w, r, errStatus(http.StatusTooManyRequests, "too many failed authentications from %s; retry later", client))
			return
		}
		secret, ok := bearer(r.Header.Get("Authorization"))
		if !ok {
			s.authFailures.allow(client)
			w.Header().Set("WWW-Authenticate", `Bearer realm="ladderbot"`)
			writeJSONError(w, r, errStatus(http.StatusUnauthorized, "missing bearer token: send Authorization: Bearer <token>"))
			return
		}
		tok, err := s.svc.AuthenticateToken(r.Context(), r.PathValue("guild"), secret)
		if ladder.ErrorCode(err) == ladder.CodeForbidden {
			s.authFailures.allow(client)
			w.Header().Set("WWW-Authenticate", `Bearer realm="ladderbot", error="invalid_token"`)
			writeJSONError(w, r, errStatus(http.StatusUnauthorized, "invalid or revoked API token for this guild"))
			return
		}
		if err != nil {
			writeJSONError(w, r, err)
			return
		}
		if ri := infoOf(r); ri != nil {
			ri.tokenID = strconv.FormatInt(tok.ID, 10) + ":" + tok.Name
		}
		if ok, wait := s.limiter.allow(strconv.FormatInt(tok.ID, 10)); !ok {
			w.Header().Set("Retry-After", retryAfter(wait))
			writeJSONError(w, r, errStatus(http.StatusTooManyRequests, "rate limit exceeded for this token; retry in %s s", retryAfter(wait)))
			return
		}
		h(w, r, tok)
	}
}

// clientAddr is the key failed authentications are counted under: the
// connection's IP address. Forwarded headers are not trusted, since any
// client can set them; behind a proxy all clients share its address, which
// errs on the side of limiting.
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// bearer extracts the token of an "Authorization: Bearer <token>" header;
// the scheme is case-insensitive (RFC 9110).
func bearer(header string) (string, bool) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(header), " ")
	token = strings.TrimSpace(token)
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return "", false
	}
	return token, true
}

// tokenActor is who a token acts as in the audit log: a moderator named
// after the token.
func tokenActor(tok ladder.Token) ladder.Actor {
	return ladder.Actor{UserID: "api:" + tok.Name, Moderator: true}
}
