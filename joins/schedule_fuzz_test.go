package joins_test

import (
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/joins"
)

// FuzzParseHours: any text either is refused or reads back to itself, and
// the state at any time is consistent: the next change lies ahead, and
// just before it the state is still the same.
func FuzzParseHours(f *testing.F) {
	for _, s := range []string{"mon-fri 18:00-23:00; sat,sun 12:00-02:00", "22:00-02:00", "sun-sat 00:00-24:00", "fri-mon 23:59-00:01", "off"} {
		f.Add(s, "Europe/Berlin", int64(1772380800))
	}
	f.Fuzz(func(t *testing.T, text, tz string, unix int64) {
		h, err := joins.ParseHours(text, tz)
		if err != nil {
			return
		}
		again, err := joins.ParseHours(h.String(), tz)
		if err != nil || again.String() != h.String() {
			t.Fatalf("Got(reparse of %q) = %q, %v, want %q", text, again.String(), err, h.String())
		}
		at := time.Unix(unix%(1<<34), 0).UTC()
		st := h.At(at)
		if st.Next.IsZero() {
			return
		}
		if !st.Next.After(at) {
			t.Fatalf("Got(At(%v).Next) = %v, want after it", at, st.Next)
		}
		if before := h.At(st.Next.Add(-time.Second)); before.Open != st.Open {
			t.Fatalf("Got(open just before the change at %v) = %v, want %v as at %v", st.Next, before.Open, st.Open, at)
		}
		if after := h.At(st.Next); after.Open == st.Open {
			t.Fatalf("Got(open at the change %v) = %v, want it changed from %v", st.Next, after.Open, st.Open)
		}
	})
}
