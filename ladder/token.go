package ladder

import (
	"context"
	"crypto/subtle"
	"fmt"
	"strings"
	"sync"
	"time"
)

// Token is an API bearer token of a guild (docs/spec.md 7). Only the SHA-256 hash
// of the secret is stored; the secret is shown once, at creation.
type Token struct {
	ID        int64
	GuildID   string
	Name      string
	Hash      []byte
	CreatedBy string
	CreatedAt time.Time
	// RevokedAt is the zero time while the token is live.
	RevokedAt time.Time
}

// TokenPrefix starts every API secret, so that leaked ones are easy to grep
// for and obvious garbage is refused before any lookup.
const TokenPrefix = "lbt_"

// TokenVault mints API token secrets and hashes them for storage. The store
// provides it, next to where the hashes are kept, so that the cryptographic
// random source and hash stay out of the domain package and tests of the
// rules need neither.
type TokenVault interface {
	// NewTokenSecret returns a fresh, unguessable secret that starts with TokenPrefix.
	NewTokenSecret() (string, error)
	// HashToken returns the stored form of a secret.
	HashToken(secret string) []byte
}

// CreateToken makes a new API token for a guild and returns its secret,
// which is never stored and cannot be shown again. Names are unique among a
// guild's live tokens.
func (s *Service) CreateToken(ctx context.Context, actor Actor, guildID, name string) (string, Token, error) {
	if !actor.Moderator {
		return "", Token{}, Errorf(CodeForbidden, "only moderators can create API tokens")
	}
	name = strings.TrimSpace(name)
	if name == "" || len(name) > 64 || strings.ContainsAny(name, "\n\r\t") {
		return "", Token{}, Errorf(CodeInvalid, "token name must be 1 to 64 characters on one line")
	}
	if err := CheckText("token name", name); err != nil {
		return "", Token{}, err
	}
	if name == "." || name == ".." {
		// A web address cannot hold such a path segment: the dashboard's
		// form revoking the token could not be reached.
		return "", Token{}, Errorf(CodeInvalid, `token name cannot be "." or ".."`)
	}
	if _, err := s.EnsureGuild(ctx, guildID); err != nil {
		return "", Token{}, err
	}
	secret, err := s.store.NewTokenSecret()
	if err != nil {
		return "", Token{}, fmt.Errorf("ladder: create token: %w", err)
	}
	t := Token{GuildID: guildID, Name: name, Hash: s.store.HashToken(secret), CreatedBy: actor.UserID, CreatedAt: s.now()}
	err = s.store.InTx(ctx, func(tx Tx) error {
		var err error
		if t, err = tx.CreateToken(ctx, t); err != nil {
			return err
		}
		return audit(ctx, tx, AuditEntry{GuildID: guildID, ActorID: actor.UserID, Action: "token.create", Target: name, At: s.now()}, nil, map[string]any{"name": name})
	})
	if err != nil {
		return "", Token{}, fmt.Errorf("ladder: create token: %w", err)
	}
	return secret, t, nil
}

// ListTokens returns a guild's tokens, revoked ones included, without secrets.
func (s *Service) ListTokens(ctx context.Context, guildID string) ([]Token, error) {
	return s.store.Tokens(ctx, guildID)
}

// RevokeToken revokes the guild's live token called name. Revoking a name
// whose tokens are all revoked answers alreadyDone.
func (s *Service) RevokeToken(ctx context.Context, actor Actor, guildID, name string) (alreadyDone bool, err error) {
	if !actor.Moderator {
		return false, Errorf(CodeForbidden, "only moderators can revoke API tokens")
	}
	err = s.store.InTx(ctx, func(tx Tx) error {
		alreadyDone = false
		err := tx.RevokeToken(ctx, guildID, name, s.now())
		if isCode(err, CodeNotFound) {
			ts, lerr := tx.Tokens(ctx, guildID)
			if lerr != nil {
				return lerr
			}
			for _, t := range ts {
				if t.Name == name {
					alreadyDone = true
					return nil
				}
			}
			return Errorf(CodeNotFound, "no API token called %q", name)
		}
		if err != nil {
			return err
		}
		return audit(ctx, tx, AuditEntry{GuildID: guildID, ActorID: actor.UserID, Action: "token.revoke", Target: name, At: s.now()}, map[string]any{"name": name}, nil)
	})
	// Forget cached lookups whether or not the transaction committed: a
	// revoke that did commit must take effect in this process at once.
	s.tokens.clear()
	if err != nil {
		return false, fmt.Errorf("ladder: revoke token: %w", err)
	}
	return alreadyDone, nil
}

// AuthenticateToken returns the live token of guildID whose secret is
// secret, or a CodeForbidden error. The hash comparison is constant-time.
func (s *Service) AuthenticateToken(ctx context.Context, guildID, secret string) (Token, error) {
	denied := Errorf(CodeForbidden, "invalid or revoked API token")
	if !strings.HasPrefix(secret, TokenPrefix) || len(secret) > 200 {
		return Token{}, denied
	}
	h := s.store.HashToken(secret)
	now := s.now()
	t, ok, gen := s.tokens.get(h, now)
	if !ok {
		var err error
		t, err = s.store.TokenByHash(ctx, h)
		if isCode(err, CodeNotFound) {
			return Token{}, denied
		}
		if err != nil {
			return Token{}, fmt.Errorf("ladder: authenticate: %w", err)
		}
		if t.RevokedAt.IsZero() {
			s.tokens.put(h, t, now, gen)
		}
	}
	if subtle.ConstantTimeCompare(t.Hash, h) != 1 || t.GuildID != guildID || !t.RevokedAt.IsZero() {
		return Token{}, denied
	}
	return t, nil
}

// tokenCacheTTL is how long a successful token lookup is reused without
// asking the database. A revoke clears this process's cache at once; other
// processes (shards, a separate ladderbot serve) keep honouring a revoked
// token for at most this long.
const tokenCacheTTL = 5 * time.Second

// tokenCache maps token hashes to live tokens looked up recently, so a
// game server posting results costs no token query per request. Its zero
// value is ready; entries expire after tokenCacheTTL and the map is bounded
// (tokenCacheMax), emptied when full. gen counts the clears: a lookup
// that read the database before a revoke cleared the cache must not put
// what it read, the token still live, back in after it.
type tokenCache struct {
	mu  sync.Mutex
	m   map[string]cachedToken
	gen uint64
}

type cachedToken struct {
	tok     Token
	expires time.Time
}

// tokenCacheMax bounds the cache; live tokens are few, so reaching it means
// churn, and starting over is cheap.
const tokenCacheMax = 1024

// get returns the cached token of hash, if any, and the cache's
// generation, which a put of what a lookup reads must give back.
func (c *tokenCache) get(hash []byte, now time.Time) (Token, bool, uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[string(hash)]
	if !ok || !now.Before(e.expires) {
		return Token{}, false, c.gen
	}
	return e.tok, true, c.gen
}

// put caches t unless the cache was cleared since get answered gen.
func (c *tokenCache) put(hash []byte, t Token, now time.Time, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if c.m == nil || len(c.m) >= tokenCacheMax {
		c.m = map[string]cachedToken{}
	}
	c.m[string(hash)] = cachedToken{tok: t, expires: now.Add(tokenCacheTTL)}
}

func (c *tokenCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m = nil
	c.gen++
}

// TokenStore keeps API tokens, hashed.
type TokenStore interface {
	CreateToken(ctx context.Context, t Token) (Token, error)
	Tokens(ctx context.Context, guildID string) ([]Token, error)
	TokenByHash(ctx context.Context, hash []byte) (Token, error)
	// RevokeToken revokes the guild's live token called name; CodeNotFound if none.
	RevokeToken(ctx context.Context, guildID, name string, at time.Time) error
}
