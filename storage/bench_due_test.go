package storage_test

import (
	"context"
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// BenchmarkConfirmExpired is one run of the auto-confirm job over a
// database holding the imported ATP doubles history (25,782 rated
// matches) and no reported match: what every guild's database pays each
// minute when nothing is due. Its cost must be that of the due matches,
// not of the history.
func BenchmarkConfirmExpired(b *testing.B) {
	recs := atpHistory(b)
	testdb.ForEach(b, func(b *testing.B, be string) {
		ctx := context.Background()
		svc := ladder.NewService(importedATP(b, be, recs), nil)
		b.ResetTimer()
		for range b.N {
			if rs, err := svc.ConfirmExpired(ctx); err != nil || len(rs) != 0 {
				b.Fatalf("Got(ConfirmExpired() = %d results, %v), want none", len(rs), err)
			}
		}
	})
}
