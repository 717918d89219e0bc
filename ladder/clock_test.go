package ladder

import (
	"testing"
	"time"
)

func TestManualClock(t *testing.T) {
	t0 := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
	c := NewManualClock(t0)
	if got := c.Now(); !got.Equal(t0) {
		t.Errorf("Got(Now) = %v, want %v", got, t0)
	}
	c.Add(90 * time.Second)
	if got, want := c.Now(), t0.Add(90*time.Second); !got.Equal(want) {
		t.Errorf("Got(Now after Add) = %v, want %v", got, want)
	}
	t1 := t0.AddDate(0, 3, 0)
	c.Set(t1)
	if got := c.Now(); !got.Equal(t1) {
		t.Errorf("Got(Now after Set) = %v, want %v", got, t1)
	}
}
