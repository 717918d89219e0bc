package storage

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

// TestSeasonCountsMigrationFillsTheRows: migration 00650 fills
// season_pairs and season_hours from the rated matches already stored
// with what the rated write and the corrections keep: a log written with
// the counts wired in (imported seasons of two queues, a draw, user IDs
// of different lengths, a voided match and a corrected one), taken below
// the migration (the tables dropped) and up again, reads back the same
// rows, equal to verify's recount.
func TestSeasonCountsMigrationFillsTheRows(t *testing.T) {
	const guild = "100000000000000650"
	fill := func(t *testing.T, db *DB) {
		ctx := context.Background()
		db.OnRated(func(ctx context.Context, tx DerivedTx, ws []ladder.RatedWrite) error {
			return community.RatedCounts(ctx, tx, ws)
		})
		db.OnMatchUpdate(func(ctx context.Context, tx DerivedTx, old, m ladder.Match) error {
			return community.UpdatedCounts(ctx, tx, old, m)
		})
		svc := ladder.NewService(db, nil)
		mod := ladder.Actor{UserID: "100000000000000099", Moderator: true}
		// Users 1-4 have 17-digit IDs, 5-8 18-digit ones: byte order and
		// numeric order differ.
		u := func(i int) string {
			if i <= 4 {
				return fmt.Sprintf("9000000000000%04d", i)
			}
			return fmt.Sprintf("10000000000000%04d", i)
		}
		start := time.Date(2026, 3, 1, 22, 30, 0, 0, time.UTC)
		var recs []rating.MatchRecord
		for i, w := range []int{1, 2, 0, 1, 1, 2, 1, 1, 2, 1, 0, 1} {
			p := [4]int{1, 5, 2, 6}
			if i%2 == 1 {
				p = [4]int{1, 2, 5, 6}
			}
			if i%3 == 2 {
				p = [4]int{3, 7, 4, 8}
			}
			recs = append(recs, rating.MatchRecord{Date: start.Add(time.Duration(i) * 53 * time.Minute),
				Team1: []string{u(p[0]), u(p[1])}, Team2: []string{u(p[2]), u(p[3])}, Winner: w})
		}
		if _, err := svc.ImportMatches(ctx, guild, "", recs, nil); err != nil {
			t.Fatal(err)
		}
		q, err := svc.CreateQueue(ctx, ladder.System, ladder.NewQueue(guild, "other", 2))
		if err != nil {
			t.Fatalf("CreateQueue() = %v", err)
		}
		more := make([]rating.MatchRecord, 5)
		for i, r := range recs[:5] {
			r.Date = r.Date.Add(50 * time.Hour)
			more[i] = r
		}
		if _, err := svc.ImportMatches(ctx, guild, q.Name, more, nil); err != nil {
			t.Fatal(err)
		}
		hist, err := db.CommunityMatches(ctx, community.MatchFilter{GuildID: guild, Limit: 100})
		if err != nil || len(hist) != 17 {
			t.Fatalf("CommunityMatches() = %d, %v; want 17", len(hist), err)
		}
		if _, err := svc.Void(ctx, mod, guild, hist[3].ID, "never played"); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Correct(ctx, mod, guild, hist[9].ID, ladder.Draw, "a draw"); err != nil {
			t.Fatal(err)
		}
	}
	read := func(t *testing.T, db *DB) string {
		t.Helper()
		ctx := context.Background()
		stored, err := db.SeasonCounts(ctx, guild, false)
		if err != nil {
			t.Fatal(err)
		}
		recount, err := db.SeasonCounts(ctx, guild, true)
		if err != nil {
			t.Fatal(err)
		}
		if len(stored.Pairs) < 8 || len(stored.Hours) < 8 || fmt.Sprint(stored) != fmt.Sprint(recount) {
			t.Fatalf("Got(stored) = %+v, recount %+v; want them equal, 8 or more pairs and hours", stored, recount)
		}
		return fmt.Sprintf("%+v", stored)
	}
	refills(t, 640, 650, fill, read)
}
