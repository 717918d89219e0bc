package ladder_test

import (
	"context"
	"sync"
	"testing"

	"github.com/ladderbot/ladderbot/internal/laddertest"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// pausedLookup is the real store whose first token lookup, once it has
// read the token, waits for release: a request authenticating at the
// instant a moderator revokes the token.
type pausedLookup struct {
	*storage.DB
	once             sync.Once
	reached, release chan struct{}
}

func (p *pausedLookup) TokenByHash(ctx context.Context, hash []byte) (ladder.Token, error) {
	t, err := p.DB.TokenByHash(ctx, hash)
	p.once.Do(func() {
		close(p.reached)
		<-p.release
	})
	return t, err
}

// TestRevokeDuringAuthentication revokes a token while a request's lookup
// of it is in flight. That request may still pass (it began before the
// revoke), but every request after the revoke is refused at once in this
// process: the in-flight lookup must not put the token it read, live,
// back into the cache the revoke has just cleared, where it stayed good
// for the cache's 5 seconds.
func TestRevokeDuringAuthentication(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		ctx := context.Background()
		db := &pausedLookup{DB: laddertest.Open(t, backend), reached: make(chan struct{}), release: make(chan struct{})}
		svc := ladder.NewService(db, laddertest.Clock())
		secret, _, err := svc.CreateToken(ctx, mod, guild, "overlay")
		if err != nil {
			t.Fatalf("CreateToken() = %v", err)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, _ = svc.AuthenticateToken(ctx, guild, secret)
		}()
		<-db.reached
		if _, err := svc.RevokeToken(ctx, mod, guild, "overlay"); err != nil {
			t.Fatalf("RevokeToken() = %v", err)
		}
		close(db.release)
		<-done
		if _, err := svc.AuthenticateToken(ctx, guild, secret); ladder.ErrorCode(err) != ladder.CodeForbidden {
			t.Errorf("Got(AuthenticateToken after the revoke) = %v, want refused", err)
		}
	})
}
