package storage

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestSQLiteDueReadsUsePartialIndexes: the jobs that run every few
// seconds over every guild (auto-confirm, rooms, map-pick deadlines) and
// the lookup of a room by its channel read small sets of rows through
// partial indexes that hold only the rows in the state they look for. On
// SQLite such an index is used only when the query's own test implies the
// index's, which a state bound as a parameter cannot: the reads then
// scanned every match, room or pick ever written, a cost growing with
// history on every tick. Each method's statement, as sent, must search
// its partial index.
func TestSQLiteDueReadsUsePartialIndexes(t *testing.T) {
	ctx := context.Background()
	db := sqlitePlanDB(t)
	sent := testdb.CaptureStatements(t, db.db)
	at := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name, index string
		call        func() error
	}{
		{"auto-confirm's due matches", "matches_due", func() error {
			return db.InTx(ctx, func(tx ladder.Tx) error {
				_, err := tx.Matches(ctx, ladder.MatchFilter{States: []ladder.MatchState{ladder.StateReported}, DueBefore: at, Limit: 500})
				return err
			})
		}},
		{"live rooms", "match_rooms_live", func() error {
			_, err := db.LiveRooms(ctx, 0, 100)
			return err
		}},
		{"open room by channel", "match_rooms_channel", func() error {
			_, err := db.OpenRoomByChannel(ctx, "300000000000000001")
			if ladder.ErrorCode(err) == ladder.CodeNotFound {
				return nil
			}
			return err
		}},
		{"due map picks", "map_picks_due", func() error {
			return db.inTx(ctx, func(t *tx) error {
				_, err := t.DuePicks(ctx, at, 50)
				return err
			})
		}},
	} {
		before := len(sent())
		if err := c.call(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		qs := sent()[before:]
		if len(qs) == 0 {
			t.Fatalf("%s: no statement captured", c.name)
		}
		q := qs[len(qs)-1]
		plan := strings.Join(testdb.SQLitePlan(t, db.sql, q.SQL, q.Vars...), "; ")
		if !strings.Contains(plan, "INDEX "+c.index+" ") || strings.Contains(plan, "SCAN ") {
			t.Errorf("Got(plan of the %s) = %q for %s, want a search of %s and no scan", c.name, plan, q.SQL, c.index)
		}
	}
}
