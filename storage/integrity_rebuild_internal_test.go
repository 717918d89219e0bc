package storage

import (
	"context"
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestRebuildMigrationsResetIntegrity: each migration that changes what
// the integrity counters hold hands every ladder's counters back to the
// integrity job to rebuild from the log's start (progress at zero, not
// live, counters to clear), on both backends; without it a stored counter
// would keep what the old fold left and verify would find it different.
func TestRebuildMigrationsResetIntegrity(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		ctx := context.Background()
		db, err := Open(ctx, testdb.DSN(t, backend), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		p, err := provider(db.sql, db.dialect, "")
		if err != nil {
			t.Fatal(err)
		}
		// The migrations that rebuild, each with the one before it.
		for _, v := range [][2]int64{{421, 440}, {460, 580}, {600, 610}, {660, 670}} {
			if _, err := p.DownTo(ctx, v[0]); err != nil {
				t.Fatalf("down to %d: %v", v[0], err)
			}
			if err := db.db.Exec("DELETE FROM integrity_progress").Error; err != nil {
				t.Fatal(err)
			}
			for q := range int64(3) {
				row := integrityProgressRow{QueueID: q + 1, SeasonID: 1, GuildID: "1", Seq: 900 + q, Folded: 40, Live: true}
				if err := db.db.Create(&row).Error; err != nil {
					t.Fatal(err)
				}
			}
			if _, err := p.UpTo(ctx, v[1]); err != nil {
				t.Fatalf("up to %d: %v", v[1], err)
			}
			var rows []integrityProgressRow
			if err := db.db.Order("queue_id").Find(&rows).Error; err != nil {
				t.Fatal(err)
			}
			if len(rows) != 3 {
				t.Fatalf("migration %d: %d progress rows, want 3", v[1], len(rows))
			}
			for _, r := range rows {
				if r.Seq != 0 || r.Folded != 0 || r.Live || !r.Clear {
					t.Errorf("migration %d: Got(progress of queue %d) = %+v, want seq 0, folded 0, not live, clear", v[1], r.QueueID, r)
				}
			}
		}
		if _, err := p.Up(ctx); err != nil {
			t.Fatal(err)
		}
	})
}
