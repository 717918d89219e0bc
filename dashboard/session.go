package dashboard

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"strings"
	"time"

	"github.com/alexedwards/scs/v2"
)

// SessionRows keeps the dashboard's server-side sessions in the ladder's
// database (storage.DB on either backend). Keys are the SHA-256 of the
// cookie's token, so the table alone opens no session.
type SessionRows interface {
	// FindSession returns an unexpired session's data.
	FindSession(ctx context.Context, key []byte) (data []byte, found bool, err error)
	// CommitSession writes a session of userID ("" before login).
	CommitSession(ctx context.Context, key []byte, userID string, data []byte, expiry time.Time) error
	// DeleteSession deletes one session.
	DeleteSession(ctx context.Context, key []byte) error
	// DeleteUserSessions deletes every session of userID.
	DeleteUserSessions(ctx context.Context, userID string) (int64, error)
}

// Session keys.
const (
	keyUser     = "user_id"
	keyName     = "username"
	keyToken    = "access_token" // the user's Discord token; never leaves the server
	keyCSRF     = "csrf"
	keyState    = "oauth_state"
	keyVerifier = "oauth_verifier"
	keyNext     = "oauth_next"
	keyFlash    = "flash"
	keyAuthz    = "authz:" // + guild ID: unix time of the last successful check
)

// Session lifetimes: a session lasts at most 12 hours and ends after an
// hour without a request.
const (
	sessionLifetime = 12 * time.Hour
	sessionIdle     = time.Hour
)

// sessionStore adapts SessionRows to scs: it hashes tokens and reads the
// user ID out of the encoded values, so rows can be deleted by user.
type sessionStore struct {
	rows  SessionRows
	codec scs.Codec
}

var _ scs.CtxStore = sessionStore{}

func sessionKey(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// FindCtx implements scs.CtxStore.
func (s sessionStore) FindCtx(ctx context.Context, token string) ([]byte, bool, error) {
	return s.rows.FindSession(ctx, sessionKey(token))
}

// CommitCtx implements scs.CtxStore.
func (s sessionStore) CommitCtx(ctx context.Context, token string, b []byte, expiry time.Time) error {
	var user string
	if _, values, err := s.codec.Decode(b); err == nil {
		user, _ = values[keyUser].(string)
	}
	return s.rows.CommitSession(ctx, sessionKey(token), user, b, expiry)
}

// DeleteCtx implements scs.CtxStore.
func (s sessionStore) DeleteCtx(ctx context.Context, token string) error {
	return s.rows.DeleteSession(ctx, sessionKey(token))
}

// Find implements scs.Store.
func (s sessionStore) Find(token string) ([]byte, bool, error) {
	return s.FindCtx(context.Background(), token)
}

// Commit implements scs.Store.
func (s sessionStore) Commit(token string, b []byte, expiry time.Time) error {
	return s.CommitCtx(context.Background(), token, b, expiry)
}

// Delete implements scs.Store.
func (s sessionStore) Delete(token string) error { return s.DeleteCtx(context.Background(), token) }

// newSessions returns the session manager: cookies HttpOnly, SameSite=Lax,
// Secure (and named with the __Host- prefix, which pins them to this host
// and path /) when the dashboard is served over HTTPS.
func newSessions(rows SessionRows, secure bool) *scs.SessionManager {
	m := scs.New()
	m.Store = sessionStore{rows: rows, codec: m.Codec}
	m.Lifetime = sessionLifetime
	m.IdleTimeout = sessionIdle
	m.Cookie.Name = "ladderbot_admin"
	if secure {
		m.Cookie.Name = "__Host-ladderbot_admin"
	}
	m.Cookie.Path = "/"
	m.Cookie.HttpOnly = true
	m.Cookie.SameSite = http.SameSiteLaxMode
	m.Cookie.Secure = secure
	m.Cookie.Persist = false
	return m
}

// randomString returns n random bytes, URL-safe.
func randomString(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b)
}

// equalSecret compares two secrets in constant time; empty never matches.
func equalSecret(a, b string) bool {
	return a != "" && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// safeNext returns next when it is a path inside the dashboard, else
// "/admin": the login's return address must never send the browser to
// another site (//evil.example, /\evil.example, https://…).
func safeNext(next string) string {
	if !strings.HasPrefix(next, "/admin") || strings.ContainsAny(next, "\\\r\n\t") ||
		strings.HasPrefix(next, "//") || strings.Contains(next, "/../") || strings.HasSuffix(next, "/..") {
		return "/admin"
	}
	if rest := strings.TrimPrefix(next, "/admin"); rest != "" && rest[0] != '/' && rest[0] != '?' {
		return "/admin" // /admin.evil.example or /adminx
	}
	return next
}
