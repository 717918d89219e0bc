package storage

import (
	"context"
	"testing"

	"github.com/pressly/goose/v3"

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
		db, p := migrator(t, backend)
		// The migrations that rebuild, each with the one before it.
		for _, v := range [][2]int64{{421, 440}, {460, 580}, {600, 610}, {660, 670}, {670, 680}, {690, 700}} {
			if _, err := p.DownTo(ctx, v[0]); err != nil {
				t.Fatalf("down to %d: %v", v[0], err)
			}
			if err := db.db.Exec("DELETE FROM integrity_progress").Error; err != nil {
				t.Fatal(err)
			}
			for q := range int64(3) {
				row := integrityProgressRow{QueueID: q + 1, SeasonID: 1, GuildID: "1", Seq: 900 + q, Folded: 40, Live: true}
				// Before 680 the table has no ended column.
				if err := db.db.Omit("Ended").Create(&row).Error; err != nil {
					t.Fatal(err)
				}
			}
			if _, err := p.UpTo(ctx, v[1]); err != nil {
				t.Fatalf("up to %d: %v", v[1], err)
			}
			var rows []integrityProgressRow
			// The columns every version has: a statement prepared on one
			// version must not change its result type on the next.
			if err := db.db.Select("queue_id, season_id, guild_id, seq, folded, live, clear").Order("queue_id").Find(&rows).Error; err != nil {
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

// TestReviewMigrationMarksEndedSeasons: the migration that brings the
// season's-end review marks the progress of every ladder whose season has
// ended as ended, so its rebuild reviews it, and leaves a running
// season's ladders not ended; on both backends.
func TestReviewMigrationMarksEndedSeasons(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		ctx := context.Background()
		db, p := migrator(t, backend)
		if _, err := p.DownTo(ctx, 670); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{
			"DELETE FROM integrity_progress",
			"INSERT INTO guilds (id) VALUES ('100000000000000077')",
			"INSERT INTO seasons (id, guild_id, number, started_at, ended_at) VALUES (901, '100000000000000077', 1, '2026-01-01', '2026-03-01')",
			"INSERT INTO seasons (id, guild_id, number, started_at) VALUES (902, '100000000000000077', 2, '2026-03-01')",
			"INSERT INTO integrity_progress (queue_id, season_id, guild_id, seq, folded, live, clear) VALUES (1, 901, '100000000000000077', 50, 40, true, false)",
			"INSERT INTO integrity_progress (queue_id, season_id, guild_id, seq, folded, live, clear) VALUES (1, 902, '100000000000000077', 90, 30, true, false)",
		} {
			if err := db.db.Exec(q).Error; err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		if _, err := p.UpTo(ctx, 680); err != nil {
			t.Fatal(err)
		}
		var rows []integrityProgressRow
		if err := db.db.Order("season_id").Find(&rows).Error; err != nil {
			t.Fatal(err)
		}
		if len(rows) != 2 || !rows[0].Ended || rows[1].Ended || rows[0].Live || rows[1].Live || !rows[0].Clear {
			t.Errorf("Got(progress) = %+v, want season 901's ended and season 902's not, both to rebuild", rows)
		}
		if _, err := p.Up(ctx); err != nil {
			t.Fatal(err)
		}
	})
}

// migrator opens a database of backend, migrated to the last version,
// with a provider to move it between versions; closed at the test's end.
func migrator(t *testing.T, backend string) (*DB, *goose.Provider) {
	t.Helper()
	db, err := Open(context.Background(), testdb.DSN(t, backend), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	p, err := provider(db.sql, db.dialect, "")
	if err != nil {
		t.Fatal(err)
	}
	return db, p
}
