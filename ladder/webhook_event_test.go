package ladder_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// TestEventIDs: an event's ID is "evt_" and 32 hex digits, the first 12
// its time in Unix milliseconds, so IDs sort by their events' times (the
// events table's primary key takes each at its right edge); events of the
// same millisecond still get distinct IDs; the body carries the same ID.
func TestEventIDs(t *testing.T) {
	form := regexp.MustCompile(`^evt_[0-9a-f]{32}$`)
	start := time.Date(2026, 3, 2, 12, 31, 4, 500_000_000, time.UTC)
	seen := map[string]bool{}
	var ids []string
	for i := range 2000 {
		at := start.Add(time.Duration(i/4) * time.Millisecond) // four events a millisecond
		e, err := ladder.NewEvent(ladder.EventMatchConfirmed, "100000000000000001", at, map[string]int{"match_id": i})
		if err != nil {
			t.Fatal(err)
		}
		if !form.MatchString(e.ID) {
			t.Fatalf("NewEvent().ID = %q, want evt_ and 32 hex digits", e.ID)
		}
		if want := fmt.Sprintf("%012x", at.UnixMilli()); e.ID[4:16] != want {
			t.Fatalf("NewEvent(at %v).ID = %q, want its first 12 digits %s (Unix ms)", at, e.ID, want)
		}
		if seen[e.ID] {
			t.Fatalf("NewEvent() gave %q twice", e.ID)
		}
		seen[e.ID] = true
		ids = append(ids, e.ID[:16])
		var body struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(e.Body, &body); err != nil || body.ID != e.ID {
			t.Fatalf("NewEvent().Body id = %q (%v), want %q", body.ID, err, e.ID)
		}
	}
	if !slices.IsSorted(ids) {
		t.Errorf("event IDs' time digits are not in the events' order")
	}
}
