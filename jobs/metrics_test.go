package jobs_test

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/ladder"
)

// recMetrics records the scheduler's metrics by label.
type recMetrics struct {
	mu      sync.Mutex
	sizes   map[string]int // "guild/queue" -> last size
	formed  map[string]int // "guild/queue" -> matches
	results []string       // guilds told by OnResult
}

func newRecMetrics() *recMetrics {
	return &recMetrics{sizes: map[string]int{}, formed: map[string]int{}}
}

func (m *recMetrics) ObserveJob(string, string, time.Duration) {}

func (m *recMetrics) MatchesFormed(guildID, queue string, n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.formed[guildID+"/"+queue] += n
}

func (m *recMetrics) SetQueueSize(guildID, queue string, n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sizes[guildID+"/"+queue] = n
}

func (m *recMetrics) onResult(guildID string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.results = append(m.results, guildID)
}

func (m *recMetrics) snapshot() (sizes, formed map[string]int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return maps.Clone(m.sizes), maps.Clone(m.formed)
}

// TestMatchmakeMetrics queues four players whose only match forms at 30 s
// of waiting, so the scheduled pass forms it: each tick sets the queue's
// size (3, then 4, then 0 once the match took them) and the tick that
// forms the match counts it once, under the guild and queue name.
func TestMatchmakeMetrics(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		c := ladder.NewManualClock(mmStart)
		m := newRecMetrics()
		p := newProc(t, testdb.DSN(t, b), c, &poster{})
		p.sched = jobs.New(p.svc, &poster{}, slog.New(slog.DiscardHandler), jobs.Options{PostBackoff: time.Millisecond, Metrics: m})
		setupGuild(t, p.svc, 0)
		q := defaultQueue(t, p.svc, func(q *ladder.Queue) { q.ChannelID = queueChannel })
		key := guild + "/" + q.Name
		ps := users(1, 4)
		rateFour(t, p.svc, ps, gapFor(0.76))
		tick := func(at time.Duration, players, matches int) {
			t.Helper()
			c.Set(mmStart.Add(at))
			run(t, p, jobs.JobMatchmake)
			sizes, formed := m.snapshot()
			if got, ok := sizes[key]; !ok || got != players {
				t.Errorf("Got(queue size of %s at %s) = %d (set %v), want %d", key, at, got, ok, players)
			}
			if got := formed[key]; got != matches || len(formed) > 1 {
				t.Errorf("Got(matches formed at %s) = %v, want %s: %d", at, formed, key, matches)
			}
		}
		for _, u := range ps[:3] {
			join(t, p.svc, u)
		}
		tick(0, 3, 0)
		if f := join(t, p.svc, ps[3]); len(f) != 0 {
			t.Fatalf("Got(matches formed by the fourth join) = %d, want 0", len(f))
		}
		tick(time.Second, 4, 0)
		tick(30*time.Second, 0, 1)
		tick(35*time.Second, 0, 1)
	})
}

// TestOnResultConfirm lets a report's confirm window (30 min) pass: the
// confirm job confirms it and tells OnResult the guild once.
func TestOnResultConfirm(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		c := ladder.NewManualClock(mmStart)
		m := newRecMetrics()
		p := newProc(t, testdb.DSN(t, b), c, nil)
		p.sched = jobs.New(p.svc, nil, slog.New(slog.DiscardHandler), jobs.Options{OnResult: m.onResult})
		setupGuild(t, p.svc, 0)
		q := defaultQueue(t, p.svc, func(*ladder.Queue) {})
		mt, err := p.svc.CreateMatch(ctx, ladder.NewMatch{GuildID: guild, QueueID: q.ID, Teams: [2][]string{{user(1), user(2)}, {user(3), user(4)}}})
		if err != nil {
			t.Fatalf("CreateMatch() = %v", err)
		}
		if _, err := p.svc.Report(ctx, ladder.Actor{UserID: user(1)}, guild, mt.ID, ladder.Win); err != nil {
			t.Fatalf("Report() = %v", err)
		}
		results := func() string {
			m.mu.Lock()
			defer m.mu.Unlock()
			return fmt.Sprint(m.results)
		}
		c.Set(mmStart.Add(29 * time.Minute))
		run(t, p, jobs.JobConfirm)
		if got := results(); got != "[]" {
			t.Errorf("Got(OnResult before the window passed) = %s, want []", got)
		}
		c.Set(mmStart.Add(30*time.Minute + time.Second))
		run(t, p, jobs.JobConfirm)
		if got, want := results(), fmt.Sprint([]string{guild}); got != want {
			t.Errorf("Got(OnResult after the window) = %s, want %s", got, want)
		}
	})
}
