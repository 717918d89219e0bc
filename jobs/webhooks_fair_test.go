package jobs_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/ladder"
)

// countingReceiver is a webhook endpoint that answers 200 at once, or,
// when it hangs, holds every request until the test lets go (or the
// deliverer gives up on it). It counts requests by event ID and how many
// were held at the same time.
type countingReceiver struct {
	*httptest.Server
	hang    bool
	release chan struct{}

	mu             sync.Mutex
	got            map[string]int
	held, mostHeld int
	arrived        chan string
}

func newCountingReceiver(t *testing.T, hang bool) *countingReceiver {
	r := &countingReceiver{hang: hang, release: make(chan struct{}), got: map[string]int{}, arrived: make(chan string, 1000)}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		var env struct {
			ID string `json:"id"`
		}
		_ = json.Unmarshal(body, &env)
		r.mu.Lock()
		r.got[env.ID]++
		r.held++
		r.mostHeld = max(r.mostHeld, r.held)
		r.mu.Unlock()
		r.arrived <- env.ID
		if r.hang {
			select {
			case <-r.release:
			case <-req.Context().Done():
			}
		}
		r.mu.Lock()
		r.held--
		r.mu.Unlock()
		w.WriteHeader(http.StatusOK)
	}))
	// Cleanups run last first: the handlers are released before the server closes.
	t.Cleanup(r.Close)
	t.Cleanup(func() { close(r.release) })
	return r
}

// TestWebhookFairness: guild A has two receivers that hang and one that
// answers, guild B one that answers; A's backlog was committed first and
// is far larger than a claim. Every event still reaches both healthy
// receivers while the hanging ones hold their first request — each hanging
// receiver costs one attempt slot for its own timeout and nothing else —
// and a hanging receiver never gets a second request while the first
// hangs.
func TestWebhookFairness(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		c := ladder.NewManualClock(time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC))
		p := newProc(t, testdb.DSN(t, b), c, nil)
		const guildB = "100000000000000002"
		hookUp := func(g string, r *countingReceiver) {
			t.Helper()
			if _, err := p.svc.CreateWebhook(ctx, moderator, g, r.URL+"/hook", []string{string(ladder.EventMatchConfirmed)}, testPolicy); err != nil {
				t.Fatalf("CreateWebhook() = %v", err)
			}
		}
		hang1, hang2, healthyA, healthyB := newCountingReceiver(t, true), newCountingReceiver(t, true), newCountingReceiver(t, false), newCountingReceiver(t, false)
		hookUp(guild, hang1)
		hookUp(guild, hang2)
		hookUp(guild, healthyA)
		hookUp(guildB, healthyB)
		const eventsA, eventsB = 20, 3
		for g, n := range map[string]int{guild: eventsA, guildB: eventsB} {
			for i := range n {
				_, err := p.svc.RecordResult(ctx, ladder.ResultInput{GuildID: g,
					Team1: []string{user(4*i + 1), user(4*i + 2)}, Team2: []string{user(4*i + 3), user(4*i + 4)}, Winner: 1})
				if err != nil {
					t.Fatalf("RecordResult() = %v", err)
				}
			}
			if g == guild {
				c.Add(time.Second) // A's backlog is older: a claim in due order takes it first
			}
		}

		// Four slots and an attempt timeout far beyond the test: only
		// fairness can get B's events out while A's receivers hang.
		d := jobs.NewDeliverer(p.svc, nil, jobs.DelivererOptions{Policy: testPolicy, Timeout: time.Hour, Lease: 2 * time.Hour, Batch: 8, Parallel: 4})
		runCtx, stop := context.WithCancel(ctx)
		stopped := make(chan struct{})
		go func() { d.Run(runCtx, 10*time.Millisecond); close(stopped) }()
		t.Cleanup(func() { stop(); <-stopped })

		deadline := time.After(time.Minute)
		wait := func(r *countingReceiver, n int, name string) {
			t.Helper()
			for range n {
				select {
				case <-r.arrived:
				case <-deadline:
					t.Fatalf("Got(%s deliveries while guild A's receivers hang) = fewer than %d, want all of them", name, n)
				}
			}
		}
		wait(healthyB, eventsB, "guild B's")
		wait(healthyA, eventsA, "guild A's healthy receiver's")
		wait(hang1, 1, "first hanging receiver's")
		wait(hang2, 1, "second hanging receiver's")
		for name, r := range map[string]*countingReceiver{"healthy A": healthyA, "healthy B": healthyB} {
			r.mu.Lock()
			for id, n := range r.got {
				if n != 1 {
					t.Errorf("Got(%s deliveries of %s) = %d, want 1", name, id, n)
				}
			}
			r.mu.Unlock()
		}
		for name, r := range map[string]*countingReceiver{"first": hang1, "second": hang2} {
			r.mu.Lock()
			if len(r.got) != 1 || r.mostHeld != 1 {
				t.Errorf("Got(%s hanging receiver) = %d events, %d held at once, want 1 and 1", name, len(r.got), r.mostHeld)
			}
			r.mu.Unlock()
		}
	})
}
