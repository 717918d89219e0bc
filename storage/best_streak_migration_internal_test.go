package storage

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

// TestBestStreakMigrationFillsTheLog: migration 00640 fills best_streak
// on a ladder written before it with what the rated write keeps, on every
// log row and rating row: a log recorded now, taken down below the
// migration (the columns dropped) and up again, reads back the same.
func TestBestStreakMigrationFillsTheLog(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		ctx := context.Background()
		db, err := Open(ctx, testdb.DSN(t, backend), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		svc := ladder.NewService(db, nil)
		u := func(i int) string { return fmt.Sprintf("80000000000000%04d", i) }
		start := time.Date(2026, 3, 1, 18, 0, 0, 0, time.UTC)
		var recs []rating.MatchRecord
		for i, w := range []int{1, 1, 2, 1, 1, 1, 0, 2, 2, 1} {
			t1, t2 := []string{u(1), u(2)}, []string{u(3), u(4)}
			if i%3 == 2 {
				t1, t2 = []string{u(1), u(3)}, []string{u(2), u(4)}
			}
			recs = append(recs, rating.MatchRecord{Date: start.Add(time.Duration(i) * time.Hour), Team1: t1, Team2: t2, Winner: w})
		}
		const guild = "100000000000000640"
		if _, err := svc.ImportMatches(ctx, guild, "", recs, nil); err != nil {
			t.Fatal(err)
		}
		type best struct {
			UserID string
			Seq    int64
			Best   int `gorm:"column:best_streak"`
		}
		read := func() (changes, ratings []best) {
			t.Helper()
			if err := db.db.Raw("SELECT user_id, seq, best_streak FROM rating_changes ORDER BY seq, user_id").Scan(&changes).Error; err != nil {
				t.Fatal(err)
			}
			if err := db.db.Raw("SELECT user_id, 0 AS seq, best_streak FROM ratings WHERE guild_id = ? ORDER BY user_id", guild).Scan(&ratings).Error; err != nil {
				t.Fatal(err)
			}
			return changes, ratings
		}
		wantChanges, wantRatings := read()
		if len(wantChanges) != 40 || len(wantRatings) != 4 || wantRatings[0].Best != 3 || wantRatings[1].Best != 5 {
			t.Fatalf("Got(before) = %d log rows, ratings %+v; want 40 rows, the best runs of users 1 and 2 at 3 and 5", len(wantChanges), wantRatings)
		}
		p, err := provider(db.sql, db.dialect, "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.DownTo(ctx, 630); err != nil {
			t.Fatalf("down to 630: %v", err)
		}
		if _, err := p.UpTo(ctx, 640); err != nil {
			t.Fatalf("up to 640: %v", err)
		}
		gotChanges, gotRatings := read()
		if fmt.Sprint(gotChanges) != fmt.Sprint(wantChanges) || fmt.Sprint(gotRatings) != fmt.Sprint(wantRatings) {
			t.Errorf("Got(after the migration) = %v, %v; want %v, %v", gotChanges, gotRatings, wantChanges, wantRatings)
		}
		if _, err := p.Up(ctx); err != nil {
			t.Fatal(err)
		}
	})
}
