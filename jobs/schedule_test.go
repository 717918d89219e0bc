package jobs_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/ladderbot/ladderbot/ladder"
)

// TestScheduleMatchesCron: the season schedule ladder reads (the one that
// is validated, shown and acted on) fires when the cron library the jobs
// run on would, over schedules of every field shape and random start
// times across several years.
func TestScheduleMatchesCron(t *testing.T) {
	parser := cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow)
	schedules := []string{
		"0 0 1 1,4,7,10 *", "0 12 1 * *", "*/15 * * * *", "5/20 3-5 * * *", "0 0 29 2 *",
		"0 0 30 2 1", "0 0 * * MON", "30 23 L * *", "0 0 13 * FRI", "0 0 ? JAN-MAR SUN",
		"59 23 31 12 *", "0 6 1-7 * 1", "0 0 1,15 */2 *", "7 7 7 7 ?", "0 0 31 * *",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, spec := range schedules {
		want, errWant := parser.Parse(spec)
		got, errGot := ladder.ParseSchedule(spec)
		if (errWant != nil) != (errGot != nil) {
			t.Errorf("Got(ParseSchedule(%q) error) = %v, want as cron: %v", spec, errGot, errWant)
			continue
		}
		if errWant != nil {
			continue
		}
		for range 200 {
			at := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(rng.Int64N(int64(5 * 365 * 24 * time.Hour))))
			if w, g := want.Next(at), got.Next(at); !w.Equal(g) {
				t.Errorf("Got(%q next after %s) = %s, want %s as cron", spec, at, g, w)
				break
			}
		}
	}
}
