package web

import (
	"math"
	"strconv"
	"sync"
	"time"
)

// rateLimiter is a token bucket per key (an API token's ID): each key may
// burst up to burst requests and then rate per second. Buckets idle long
// enough to be full again are dropped, so memory follows the active keys.
type rateLimiter struct {
	rate  float64
	burst float64
	now   func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
	sweep   time.Time
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newRateLimiter(rate float64, burst int, now func() time.Time) *rateLimiter {
	return &rateLimiter{rate: rate, burst: float64(burst), now: now, buckets: map[string]*bucket{}}
}

// allow takes one token from key's bucket. When there is none it reports
// false and how long until the bucket holds a whole token again, which is
// what Retry-After says. A limiter with a rate of 0 or less allows
// everything.
func (l *rateLimiter) allow(key string) (bool, time.Duration) {
	return l.use(key, true)
}

// check reports, like allow, whether key's bucket holds a token, without
// taking it: failed authentication is checked before the database lookup
// and charged (allow) only when the lookup fails.
func (l *rateLimiter) check(key string) (bool, time.Duration) {
	return l.use(key, false)
}

func (l *rateLimiter) use(key string, take bool) (bool, time.Duration) {
	if l == nil || l.rate <= 0 {
		return true, 0
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.sweep) > time.Minute {
		l.drop(now)
	}
	b, ok := l.buckets[key]
	if !ok {
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[key] = b
	}
	b.tokens = min(l.burst, b.tokens+now.Sub(b.last).Seconds()*l.rate)
	b.last = now
	if b.tokens < 1 {
		return false, time.Duration((1 - b.tokens) / l.rate * float64(time.Second))
	}
	if take {
		b.tokens--
	}
	return true, 0
}

// retryAfter renders a wait as Retry-After's whole seconds, rounded up and
// at least 1 (0 would invite an immediate retry that fails again).
func retryAfter(d time.Duration) string {
	return strconv.Itoa(max(1, int(math.Ceil(d.Seconds()))))
}

// drop forgets buckets that have refilled completely.
func (l *rateLimiter) drop(now time.Time) {
	full := time.Duration(l.burst / l.rate * float64(time.Second))
	for k, b := range l.buckets {
		if now.Sub(b.last) > full {
			delete(l.buckets, k)
		}
	}
	l.sweep = now
}
