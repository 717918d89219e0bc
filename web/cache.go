package web

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"sync"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// boardCache keeps encoded leaderboard pages for a short time (a
// micro-cache). A leaderboard is read far more often than it changes, and
// its Cache-Control already lets clients keep a page that long, so serving
// the same bytes for ttl costs little freshness that clients do not
// already accept. Concurrent misses for one page share a single query.
// Results and rating changes posted through this server drop the guild's
// pages at once; Server.Invalidate does the same for other writers.
type boardCache struct {
	load func(ctx context.Context, q ladder.LeaderboardQuery) (ladder.LeaderboardPage, error)
	ttl  time.Duration
	now  func() time.Time
	max  int

	mu      sync.Mutex
	entries map[ladder.LeaderboardQuery]*boardEntry

	// Test hooks, nil in production: waiting runs when a request starts
	// waiting for another request's load of its page, refreshed when a
	// background refresh has swapped its page in or given up. Tests wait
	// on them instead of sleeping.
	waiting, refreshed func()
}

// boardEntry is one cached page; ready is closed once page, body, etag or
// err are set. Entries left in the map after ready have no error.
type boardEntry struct {
	ready chan struct{}
	at    time.Time
	// refreshing is set, under boardCache.mu, while a refresh replaces it.
	refreshing bool
	page       ladder.LeaderboardPage
	body       []byte
	etag       string
	err        error
}

func newBoardCache(load func(context.Context, ladder.LeaderboardQuery) (ladder.LeaderboardPage, error), ttl time.Duration, now func() time.Time) *boardCache {
	// At most 1024 pages of at most 200 rows (about 36 KiB each) stay in memory.
	return &boardCache{load: load, ttl: ttl, now: now, max: 1024, entries: map[ladder.LeaderboardQuery]*boardEntry{}}
}

// staleFactor bounds how old a page may be served while its refresh runs:
// past staleFactor·ttl (a database that keeps failing) requests wait again.
const staleFactor = 5

// get returns the page for q: from the cache while it is younger than ttl;
// after that the same page once more while one background refresh replaces
// it (stale-while-revalidate), so expiry never stalls the requests that
// arrive during a refill. Only a page never seen, or one dropped by
// invalidate, is loaded while the request waits.
func (c *boardCache) get(ctx context.Context, q ladder.LeaderboardQuery) (*boardEntry, error) {
	if c.ttl <= 0 {
		e := &boardEntry{}
		c.fill(ctx, e, q)
		return e, e.err
	}
	now := c.now()
	c.mu.Lock()
	e, ok := c.entries[q]
	switch {
	case ok && !isDone(e.ready):
		c.mu.Unlock()
		if c.waiting != nil {
			c.waiting()
		}
		select {
		case <-e.ready:
			return e, e.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	case ok && now.Sub(e.at) < c.ttl:
		c.mu.Unlock()
		return e, nil
	case ok && now.Sub(e.at) < staleFactor*c.ttl:
		if !e.refreshing {
			e.refreshing = true
			go c.refresh(q, e)
		}
		c.mu.Unlock()
		return e, nil
	}
	if len(c.entries) >= c.max {
		c.evict(now)
	}
	e = &boardEntry{ready: make(chan struct{}), at: now}
	c.entries[q] = e
	c.mu.Unlock()

	// The fill outlives a client that gives up, for the others waiting on it.
	fillCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	c.fill(fillCtx, e, q)
	cancel()
	if e.err != nil {
		c.mu.Lock()
		if c.entries[q] == e {
			delete(c.entries, q)
		}
		c.mu.Unlock()
	}
	close(e.ready)
	return e, e.err
}

// refresh loads q again and swaps the new page in for old, unless old was
// invalidated meanwhile. A failed refresh leaves old to be retried.
func (c *boardCache) refresh(q ladder.LeaderboardQuery, old *boardEntry) {
	if c.refreshed != nil {
		defer c.refreshed()
	}
	ne := &boardEntry{ready: make(chan struct{}), at: c.now()}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	c.fill(ctx, ne, q)
	cancel()
	close(ne.ready)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries[q] != old {
		return
	}
	if ne.err != nil {
		old.refreshing = false
		return
	}
	c.entries[q] = ne
}

func (c *boardCache) fill(ctx context.Context, e *boardEntry, q ladder.LeaderboardQuery) {
	page, err := c.load(ctx, q)
	if err != nil {
		e.err = err
		return
	}
	body, err := json.Marshal(leaderboardBody(page))
	if err != nil {
		e.err = fmt.Errorf("web: encode leaderboard: %w", err)
		return
	}
	h := fnv.New64a()
	h.Write(body)
	e.page, e.body, e.etag = page, append(body, '\n'), fmt.Sprintf(`"%016x"`, h.Sum64())
}

// evict drops expired entries, and everything if that is not enough; the
// caller holds mu.
func (c *boardCache) evict(now time.Time) {
	for k, e := range c.entries {
		if isDone(e.ready) && now.Sub(e.at) >= c.ttl {
			delete(c.entries, k)
		}
	}
	if len(c.entries) >= c.max {
		clear(c.entries)
	}
}

// invalidate drops every cached page of a guild.
func (c *boardCache) invalidate(guildID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.entries {
		if k.GuildID == guildID {
			delete(c.entries, k)
		}
	}
}

func isDone(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
