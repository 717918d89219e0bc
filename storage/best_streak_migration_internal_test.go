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
		db := openPlain(t, backend)
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
		remigrate(t, db, 630, 640)
		gotChanges, gotRatings := read()
		if fmt.Sprint(gotChanges) != fmt.Sprint(wantChanges) || fmt.Sprint(gotRatings) != fmt.Sprint(wantRatings) {
			t.Errorf("Got(after the migration) = %v, %v; want %v, %v", gotChanges, gotRatings, wantChanges, wantRatings)
		}
	})
}

// remigrate takes db's schema down to version down and up to version up,
// as an operator's older database meets a newer binary, and brings it to
// the newest version at the test's end.
func remigrate(t *testing.T, db *DB, down, up int64) {
	t.Helper()
	ctx := context.Background()
	p, err := provider(db.sql, db.dialect, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.DownTo(ctx, down); err != nil {
		t.Fatalf("down to %d: %v", down, err)
	}
	if _, err := p.UpTo(ctx, up); err != nil {
		t.Fatalf("up to %d: %v", up, err)
	}
	t.Cleanup(func() {
		if _, err := p.Up(ctx); err != nil {
			t.Error(err)
		}
	})
}

// openPlain opens a database of backend b for a test, with nothing wired.
func openPlain(t *testing.T, b string) *DB {
	t.Helper()
	db, err := Open(context.Background(), testdb.DSN(t, b), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
