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
	const guild = "100000000000000640"
	fill := func(t *testing.T, db *DB) {
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
		if _, err := ladder.NewService(db, nil).ImportMatches(context.Background(), guild, "", recs, nil); err != nil {
			t.Fatal(err)
		}
	}
	type best struct {
		UserID string
		Seq    int64
		Best   int `gorm:"column:best_streak"`
	}
	read := func(t *testing.T, db *DB) string {
		t.Helper()
		var changes, ratings []best
		if err := db.db.Raw("SELECT user_id, seq, best_streak FROM rating_changes ORDER BY seq, user_id").Scan(&changes).Error; err != nil {
			t.Fatal(err)
		}
		if err := db.db.Raw("SELECT user_id, 0 AS seq, best_streak FROM ratings WHERE guild_id = ? ORDER BY user_id", guild).Scan(&ratings).Error; err != nil {
			t.Fatal(err)
		}
		if len(changes) != 40 || len(ratings) != 4 || ratings[0].Best != 3 || ratings[1].Best != 5 {
			t.Fatalf("Got(best streaks) = %d log rows, ratings %+v; want 40 rows, the best runs of users 1 and 2 at 3 and 5", len(changes), ratings)
		}
		return fmt.Sprint(changes, ratings)
	}
	refills(t, 630, 640, fill, read)
}

// refills is the shape of a test of a migration that fills derived rows
// from the log: on each backend, write a ladder with fill, read what the
// rated write kept with read (fill's checks of it included), take the
// schema down to version down (the migration's rows dropped) and up to
// version up, and read back the same.
func refills(t *testing.T, down, up int64, fill func(t *testing.T, db *DB), read func(t *testing.T, db *DB) string) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		db := openPlain(t, backend)
		fill(t, db)
		want := read(t, db)
		remigrate(t, db, down, up)
		if got := read(t, db); got != want {
			t.Errorf("Got(after migration %d) = %s;\nwant %s", up, got, want)
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
