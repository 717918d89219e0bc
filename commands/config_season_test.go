package commands

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// TestConfigSeasonSchedule: a schedule that never fires (no month it names
// has the day) is refused and the saved one stays; a good one is saved,
// and both the save and /config show say when it next fires.
func TestConfigSeasonSchedule(t *testing.T) {
	for _, backend := range testdb.Backends() {
		t.Run(backend, func(t *testing.T) {
			ctx := context.Background()
			db, err := storage.Open(ctx, testdb.DSN(t, backend), nil)
			if err != nil {
				t.Fatalf("storage.Open: %v", err)
			}
			t.Cleanup(func() { db.Close() })
			clock := ladder.NewManualClock(time.Date(2026, 2, 10, 9, 30, 0, 0, time.UTC))
			svc := ladder.NewService(db, clock)
			f := &fixture{t: t, svc: svc, set: New(Deps{Service: svc})}

			show := func() string {
				r := f.ok(admin("config show", nil))
				for _, fl := range r.Embeds[0].Fields {
					if fl.Name == "Season schedule" {
						return fl.Value
					}
				}
				t.Fatalf("Got(config show) without a Season schedule field: %+v", r.Embeds)
				return ""
			}
			// The default schedule is quarterly: next April 1.
			if got, want := show(), "next season change 2026-04-01 00:00 UTC"; !strings.Contains(got, want) {
				t.Errorf("Got(default schedule shown) = %q, want it to contain %q", got, want)
			}
			for _, never := range []string{"0 0 30 2 *", "0 0 31 4 *", "0 0 31 4,6,9,11 *", "0 12 30-31 FEB *"} {
				_, err := f.call(admin("config season", map[string]any{"schedule": never}))
				if ladder.ErrorCode(err) != ladder.CodeInvalid || !strings.Contains(ladder.ErrorMessage(err), "never fires") {
					t.Errorf("Got(config season %q) error = %v, want invalid: never fires", never, err)
				}
				g, err := svc.Guild(ctx, guild)
				if err != nil {
					t.Fatal(err)
				}
				if g.SeasonSchedule != ladder.DefaultSeasonSchedule {
					t.Errorf("Got(schedule after refusing %q) = %q, want %q kept", never, g.SeasonSchedule, ladder.DefaultSeasonSchedule)
				}
			}
			// February 29 fires in leap years; a weekday makes day 30 of
			// February fire on Mondays too (either field matches).
			for _, tc := range []struct{ schedule, next string }{
				{"0 0 29 2 *", "next season change 2028-02-29 00:00 UTC"},
				{"0 0 30 2 1", "next season change 2026-02-16 00:00 UTC"},
				{"15 6 1 * *", "next season change 2026-03-01 06:15 UTC"},
			} {
				r := f.ok(admin("config season", map[string]any{"schedule": tc.schedule}))
				var saved string
				for _, fl := range r.Embeds[0].Fields {
					if fl.Name == "Season schedule" {
						saved = fl.Value
					}
				}
				if !strings.Contains(saved, tc.next) || !strings.Contains(saved, tc.schedule) {
					t.Errorf("Got(reply to config season %q) = %q, want the schedule and %q", tc.schedule, saved, tc.next)
				}
				if got := show(); got != saved {
					t.Errorf("Got(config show after %q) = %q, want %q as the save said", tc.schedule, got, saved)
				}
			}
		})
	}
}
