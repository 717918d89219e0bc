package jobs_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestWebhookLimitRace creates a guild's webhooks from 30 requests at
// once: the guild ends with exactly its limit of 10, and the others are
// refused. On PostgreSQL each create counted the guild's webhooks without
// seeing the others' uncommitted rows, and the guild ended with 11 or 12.
func TestWebhookLimitRace(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		c := ladder.NewManualClock(time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC))
		p := newProc(t, testdb.DSN(t, b), c, nil)
		setupGuild(t, p.svc, 0)
		var wg sync.WaitGroup
		for i := range 30 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, _ = p.svc.CreateWebhook(ctx, moderator, guild, fmt.Sprintf("https://hooks%d.example.com/x", i), []string{"match.formed"}, ladder.URLPolicy{})
			}()
		}
		wg.Wait()
		ws, err := p.svc.Webhooks(ctx, guild, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(ws) != 10 {
			t.Errorf("Got(webhooks after 30 concurrent creates) = %d, want 10", len(ws))
		}
	})
}
