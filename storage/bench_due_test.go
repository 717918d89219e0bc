package storage_test

import (
	"context"
	"testing"

	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// BenchmarkMinuteJobs runs the reads of the jobs that sweep every guild
// each minute over a database holding the imported ATP doubles history
// (25,782 rated matches) and nothing for them to do: the auto-confirm
// job's due matches, the abandon job's open matches, and the map picks'
// (the ready-checks job's tick: picks run out, picks a crash left
// unstarted). Their cost must be that of the due and open matches, not of
// the history.
func BenchmarkMinuteJobs(b *testing.B) {
	recs := atpHistory(b)
	testdb.ForEach(b, func(b *testing.B, be string) {
		ctx := context.Background()
		db := importedATP(b, be, recs)
		svc := ladder.NewService(db, nil)
		b.Run("auto-confirm", func(b *testing.B) {
			for range b.N {
				if rs, err := svc.ConfirmExpired(ctx); err != nil || len(rs) != 0 {
					b.Fatalf("Got(ConfirmExpired() = %d results, %v), want none", len(rs), err)
				}
			}
		})
		b.Run("abandon", func(b *testing.B) {
			for range b.N {
				if ms, err := svc.AbandonMatches(ctx); err != nil || len(ms) != 0 {
					b.Fatalf("Got(AbandonMatches() = %d matches, %v), want none", len(ms), err)
				}
			}
		})
		fm := formats.New(db, svc)
		b.Run("map-picks", func(b *testing.B) {
			for range b.N {
				if rs, err := fm.Expire(ctx); err != nil || len(rs) != 0 {
					b.Fatalf("Got(Expire() = %d results, %v), want none", len(rs), err)
				}
				if rs, err := fm.StartMissed(ctx); err != nil || len(rs) != 0 {
					b.Fatalf("Got(StartMissed() = %d results, %v), want none", len(rs), err)
				}
			}
		})
	})
}
