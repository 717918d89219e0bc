package storage_test

import (
	"context"
	"testing"

	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/internal/testdb"
)

// BenchmarkIntegrityRebuild rebuilds the integrity counters of the
// imported ATP doubles history (25,782 matches, one ladder) from its log,
// as the integrity job does after a correction of the ladder's first match
// or a migration that changes what the counters hold: it deletes the
// ladder's counters and refolds its log in steps of 500 matches, each step
// reading the counters of its keys and upserting the ones it moved. The
// ladder is handed back to the job by setting its progress row as a
// correction does; each iteration ends with the ladder live, and the last
// one is verified equal to a replay of the log.
func BenchmarkIntegrityRebuild(b *testing.B) {
	recs := atpHistory(b)
	testdb.ForEach(b, func(b *testing.B, be string) {
		ctx := context.Background()
		db := importedATP(b, be, recs)
		in := integrity.New(db, nil)
		in.Budget = 1 << 30
		b.ResetTimer()
		for range b.N {
			b.StopTimer()
			if _, err := db.SQL().ExecContext(ctx, `UPDATE integrity_progress SET seq = 0, folded = 0, live = false, clear = true`); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			for {
				n, err := in.Rebuild(ctx)
				if err != nil {
					b.Fatal(err)
				}
				if n == 0 {
					break
				}
			}
		}
		b.StopTimer()
		rep, err := in.Verify(ctx, guild)
		if err != nil || len(rep.Diffs) > 0 || rep.Pending > 0 || rep.Matches != len(recs) {
			b.Fatalf("Got(Verify() = %+v, %v), want %d matches refolded equal", rep, err, len(recs))
		}
		b.ReportMetric(float64(b.N*len(recs))/b.Elapsed().Seconds(), "matches/s")
	})
}
