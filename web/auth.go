package web

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/ladderbot/ladderbot/ladder"
)

// tokenHandler is an API handler that runs with an authenticated token of
// the guild in its path.
type tokenHandler func(w http.ResponseWriter, r *http.Request, tok ladder.Token)

// authed guards h with the guild's bearer tokens (SPEC 7): a missing or
// malformed Authorization header, an unknown, revoked or other guild's
// token answer 401; a token over its rate answers 429. The service compares
// token hashes in constant time; the secret is never logged.
func (s *Server) authed(h tokenHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		secret, ok := bearer(r.Header.Get("Authorization"))
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer realm="ladderbot"`)
			writeJSONError(w, r, errStatus(http.StatusUnauthorized, "missing bearer token: send Authorization: Bearer <token>"))
			return
		}
		tok, err := s.svc.AuthenticateToken(r.Context(), r.PathValue("guild"), secret)
		if ladder.ErrorCode(err) == ladder.CodeForbidden {
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
		if !s.limiter.allow(strconv.FormatInt(tok.ID, 10)) {
			writeJSONError(w, r, errStatus(http.StatusTooManyRequests, "rate limit exceeded for this token; retry shortly"))
			return
		}
		h(w, r, tok)
	}
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
