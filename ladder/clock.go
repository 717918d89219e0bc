package ladder

import (
	"sync"
	"time"
)

// Clock tells the Service what time it is, so tests and the simulator can
// run a season in moments.
type Clock interface {
	Now() time.Time
}

// SystemClock is the wall clock in UTC.
type SystemClock struct{}

// Now returns the current time in UTC.
func (SystemClock) Now() time.Time { return time.Now().UTC() }

// ClockFunc adapts a function to the Clock interface.
type ClockFunc func() time.Time

// Now calls f.
func (f ClockFunc) Now() time.Time { return f() }

// ManualClock is a Clock that stands still until it is moved: the simulator
// steps it through simulated days, and tests move it past deadlines. It is
// safe for concurrent use, since several processes of a test may share it.
type ManualClock struct {
	mu sync.Mutex
	t  time.Time
}

// NewManualClock returns a ManualClock reading t.
func NewManualClock(t time.Time) *ManualClock { return &ManualClock{t: t} }

// Now returns the time the clock was last set to.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Set moves the clock to t.
func (c *ManualClock) Set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

// Add moves the clock forward by d.
func (c *ManualClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}
