package web

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// countingLoader returns pages numbered by how often it ran (Season.Number),
// after waiting for gate when one is set.
type countingLoader struct {
	n    atomic.Int64
	fail atomic.Bool
	gate chan struct{}
}

func (l *countingLoader) load(ctx context.Context, q ladder.LeaderboardQuery) (ladder.LeaderboardPage, error) {
	if l.gate != nil {
		<-l.gate
	}
	n := l.n.Add(1)
	if l.fail.Load() {
		return ladder.LeaderboardPage{}, errors.New("database down")
	}
	return ladder.LeaderboardPage{Season: ladder.Season{Number: int(n)}}, nil
}

func TestBoardCache(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	l := &countingLoader{}
	c := newBoardCache(l.load, 2*time.Second, clock)
	q := ladder.LeaderboardQuery{GuildID: "1"}
	season := func() int {
		t.Helper()
		e, err := c.get(context.Background(), q)
		if err != nil {
			t.Fatalf("get: %v", err)
		}
		return e.page.Season.Number
	}
	refreshed := make(chan struct{}, 1)
	c.refreshed = func() { refreshed <- struct{}{} }

	if got := season(); got != 1 {
		t.Fatalf("Got(first get) = page %d, want 1", got)
	}
	advance(time.Second)
	if got := season(); got != 1 || l.n.Load() != 1 {
		t.Errorf("Got(fresh get) = page %d after %d loads, want page 1 from the cache", got, l.n.Load())
	}
	// Expired: the old page answers at once, one refresh runs behind it.
	advance(1500 * time.Millisecond)
	if got := season(); got != 1 {
		t.Errorf("Got(stale get) = page %d, want the old page 1", got)
	}
	<-refreshed // the refresh has swapped its page in
	if got := season(); got != 2 || l.n.Load() != 2 {
		t.Errorf("Got(after refresh) = page %d after %d loads, want page 2 after 2", got, l.n.Load())
	}
	// Too old to serve (past staleFactor·ttl): the request waits for a load.
	advance(11 * time.Second)
	if got := season(); got != 3 {
		t.Errorf("Got(very old get) = page %d, want a fresh page 3", got)
	}
	// Invalidation drops the page at once.
	c.invalidate("1")
	if got := season(); got != 4 {
		t.Errorf("Got(after invalidate) = page %d, want 4", got)
	}
	c.invalidate("2")
	if got := season(); got != 4 {
		t.Errorf("Got(after another guild's invalidate) = page %d, want 4", got)
	}
	// Errors are not cached.
	c.invalidate("1")
	l.fail.Store(true)
	if _, err := c.get(context.Background(), q); err == nil {
		t.Errorf("Got(get while the loader fails) = nil error, want it")
	}
	l.fail.Store(false)
	if got := season(); got != 6 {
		t.Errorf("Got(get after a failure) = page %d, want 6", got)
	}
}

func TestBoardCacheSharesOneLoad(t *testing.T) {
	l := &countingLoader{gate: make(chan struct{})}
	c := newBoardCache(l.load, time.Second, time.Now)
	waiting := make(chan struct{}, 8)
	c.waiting = func() { waiting <- struct{}{} }
	var wg sync.WaitGroup
	pages := make([]int, 8)
	for i := range pages {
		wg.Go(func() {
			e, err := c.get(context.Background(), ladder.LeaderboardQuery{GuildID: "1"})
			if err == nil {
				pages[i] = e.page.Season.Number
			}
		})
	}
	// One request loads (held at the gate); the other seven must all be
	// waiting for that load before it may finish.
	for range len(pages) - 1 {
		<-waiting
	}
	close(l.gate)
	wg.Wait()
	if l.n.Load() != 1 {
		t.Errorf("Got(loads for 8 concurrent misses) = %d, want 1", l.n.Load())
	}
	for i, p := range pages {
		if p != 1 {
			t.Errorf("Got(page of request %d) = %d, want 1", i, p)
		}
	}
}

func TestBoardCacheOff(t *testing.T) {
	l := &countingLoader{}
	c := newBoardCache(l.load, -1, time.Now)
	for range 3 {
		if _, err := c.get(context.Background(), ladder.LeaderboardQuery{GuildID: "1"}); err != nil {
			t.Fatal(err)
		}
	}
	if l.n.Load() != 3 {
		t.Errorf("Got(loads with the cache off) = %d, want 3", l.n.Load())
	}
}

func TestBoardCacheBounded(t *testing.T) {
	l := &countingLoader{}
	c := newBoardCache(l.load, time.Minute, time.Now)
	c.max = 3
	for i := range 10 {
		if _, err := c.get(context.Background(), ladder.LeaderboardQuery{GuildID: "1", After: itoa(i)}); err != nil {
			t.Fatal(err)
		}
		if n := len(c.entries); n > c.max {
			t.Fatalf("Got(entries after %d pages) = %d, want at most %d", i+1, n, c.max)
		}
	}
}
