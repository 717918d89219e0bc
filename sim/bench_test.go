package sim

import (
	"context"
	"testing"
)

// BenchmarkSimulate plays the season `ladderbot simulate` plays without
// flags (200 players, 30 days, 2v2, seed 1): the whole match path — queue,
// matchmaking, ready, report, confirm, rating — through the real service
// and storage, so a cost that grows with the length of the log shows as a
// slower season. "memory" is the database simulate uses for it; "file"
// is a temporary SQLite file without an fsync per commit, as a larger
// season uses and as simulate used for every season before, so that the
// match path can be compared with code that ran on a file. Run it with
// -benchtime=1x -count=N and compare runs with benchstat.
func BenchmarkSimulate(b *testing.B) {
	if testing.Short() {
		b.Skip("a whole simulated season; without -short")
	}
	for _, bc := range []struct {
		name  string
		limit int
	}{{"memory", memorySeason}, {"file", 0}} {
		b.Run(bc.name, func(b *testing.B) {
			useMemorySeason(b, bc.limit)
			for b.Loop() {
				res, err := Run(context.Background(), Defaults())
				if err != nil {
					b.Fatalf("Run() = %v", err)
				}
				b.ReportMetric(float64(res.Matches), "matches")
			}
		})
	}
}
