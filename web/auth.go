package web

import (
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// tokenHandler is an API handler that runs with an authenticated token of
// the guild in its path.
type tokenHandler func(w http.ResponseWriter, r *http.Request, tok ladder.Token)

// authed guards h with the guild's bearer tokens (docs/spec.md 7): a missing or
// malformed Authorization header, an unknown, revoked or other guild's
// token answer 401; a token over its rate answers 429 with Retry-After.
// Failed authentications are limited per client address (authFailures),
// without locking valid tokens out: once a client has used up its
// failures, a request whose secret is not even shaped like a token gets
// 429 before any database lookup, and a well-shaped one is still looked
// up — a valid token goes through, another failure gets 429 instead of
// 401. So guessing from an address costs it a wait, but a game server
// behind the same address (a NAT, a proxy) keeps working. The service
// compares token hashes in constant time; the secret is never logged.
func (s *Server) authed(h tokenHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		client := clientAddr(r)
		open, failWait := s.authFailures.check(client)
		blocked := !open
		refuse := func() {
			w.Header().Set("Retry-After", retryAfter(failWait))
			writeJSONError(w, r, errStatus(http.StatusTooManyRequests, "too many failed authentications from %s; retry later", client))
		}
		secret, ok := bearer(r.Header.Get("Authorization"))
		if blocked && !wellFormedToken(secret) {
			refuse()
			return
		}
		if !ok {
			s.authFailures.allow(client)
			w.Header().Set("WWW-Authenticate", `Bearer realm="ladderbot"`)
			writeJSONError(w, r, errStatus(http.StatusUnauthorized, "missing bearer token: send Authorization: Bearer <token>"))
			return
		}
		tok, err := s.svc.AuthenticateToken(r.Context(), r.PathValue("guild"), secret)
		if ladder.ErrorCode(err) == ladder.CodeForbidden {
			s.authFailures.allow(client)
			if blocked {
				refuse()
				return
			}
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
		ok, wait, err := s.allowToken(r, tok)
		if err != nil {
			writeJSONError(w, r, err)
			return
		}
		if !ok {
			w.Header().Set("Retry-After", retryAfter(wait))
			writeJSONError(w, r, errStatus(http.StatusTooManyRequests, "rate limit exceeded for this token; retry in %s s", retryAfter(wait)))
			return
		}
		h(w, r, tok)
	}
}

// allowToken charges one request to tok's rate limit: in the shared
// buckets of Options.Rates when the server has them, else in memory.
func (s *Server) allowToken(r *http.Request, tok ladder.Token) (bool, time.Duration, error) {
	if s.rates == nil || s.limiter.rate <= 0 {
		ok, wait := s.limiter.allow(strconv.FormatInt(tok.ID, 10))
		return ok, wait, nil
	}
	return s.rates.TakeToken(r.Context(), "token:"+strconv.FormatInt(tok.ID, 10), s.limiter.rate, int(s.limiter.burst), s.now())
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

// wellFormedToken reports whether secret has the shape of the secrets
// the store makes: the prefix and 43 characters of unpadded base64url
// (32 random bytes).
func wellFormedToken(secret string) bool {
	body, ok := strings.CutPrefix(secret, ladder.TokenPrefix)
	if !ok || len(body) != 43 {
		return false
	}
	for _, c := range []byte(body) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
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
