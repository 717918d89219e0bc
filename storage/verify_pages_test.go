package storage_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/internal/laddertest"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

// TestVerifyReadsTheLogInPages: verify folds a ladder's log a page at a
// time, with a moderator's rating set between two pages and a reset after
// the last match, and still finds the log equal to the stored ratings;
// then a prediction changed deep in the log and a stored rating changed
// are each reported, by their seq and player.
func TestVerifyReadsTheLogInPages(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, be string) {
		db, in := laddertest.OpenDerived(t, be, nil)
		ctx := context.Background()
		svc := ladder.NewService(db, nil)
		mod := ladder.Actor{UserID: "100000000000000099", Moderator: true}
		player := func(i int) string { return fmt.Sprintf("3000000000000000%02d", i) }
		t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
		imp := func(from, n int) {
			t.Helper()
			recs := make([]rating.MatchRecord, n)
			for i := range recs {
				j := from + i
				recs[i] = rating.MatchRecord{Seq: i, Date: t0.Add(time.Duration(j) * time.Minute),
					Team1: []string{player(j % 20), player((j*7 + 1) % 20)}, Team2: []string{player((j*3 + 2) % 20), player((j*11 + 3) % 20)}, Winner: 1 + j%3%2}
				if slicesOverlap(recs[i].Team1, recs[i].Team2) {
					recs[i].Team2 = []string{player(20 + j%5), player(25 + j%5)}
				}
			}
			if _, err := svc.ImportMatches(ctx, guild, "", recs, nil); err != nil {
				t.Fatalf("ImportMatches() = %v", err)
			}
		}
		imp(0, 1500)
		if _, err := svc.SetRating(ctx, mod, guild, "", player(1), 1700, 80, "a correction"); err != nil {
			t.Fatalf("SetRating() = %v", err)
		}
		imp(1500, 1200)
		if _, err := svc.ResetRating(ctx, mod, guild, "", player(2), "a reset"); err != nil {
			t.Fatalf("ResetRating() = %v", err)
		}
		verify := func() ladder.VerifyReport {
			t.Helper()
			rep, err := svc.Verify(ctx, guild)
			if err != nil || rep.Matches != 2700 {
				t.Fatalf("Verify() = %d matches, %v, want 2700", rep.Matches, err)
			}
			return rep
		}
		if rep := verify(); len(rep.Diffs) > 0 {
			t.Fatalf("Verify() = %q, want no differences", problems(rep))
		}
		// The rows derived from the same log, read in pages as well: the
		// integrity counters in passes of 10 pairs' counters, and the
		// seasons' partnerships.
		in.VerifyKeys = 10
		if rep, err := in.Verify(ctx, guild); err != nil || rep.Matches != 2700 || len(rep.Diffs) > 0 {
			t.Fatalf("integrity Verify() = %+v, %v, want 2700 matches and no differences", rep, err)
		}
		g := db.Gorm()
		var last struct{ A, B string }
		if err := g.Raw(`SELECT a, b FROM season_pairs ORDER BY a DESC, b DESC LIMIT 1`).Scan(&last).Error; err != nil {
			t.Fatal(err)
		}
		if res := g.Exec(`UPDATE season_pairs SET wins = wins + 1 WHERE a = ? AND b = ?`, last.A, last.B); res.Error != nil || res.RowsAffected != 1 {
			t.Fatalf("tamper a partnership = %v, %d rows", res.Error, res.RowsAffected)
		}
		if ds, err := community.VerifyCounts(ctx, db, guild); err != nil || len(ds) != 1 || !strings.Contains(ds[0], last.A+"+"+last.B) {
			t.Errorf("VerifyCounts(a partnership changed) = %q, %v, want that partnership", ds, err)
		}
		var seq int64
		if err := g.Raw(`SELECT seq FROM matches ORDER BY seq LIMIT 1 OFFSET 2100`).Scan(&seq).Error; err != nil {
			t.Fatal(err)
		}
		if res := g.Exec(`UPDATE rating_changes SET before_rating = before_rating + 50 WHERE seq = ? AND kind = 'match' AND team = 1`, seq); res.Error != nil || res.RowsAffected == 0 {
			t.Fatalf("tamper the log = %v, %d rows", res.Error, res.RowsAffected)
		}
		// The ladder's prediction at that match, then the queue's
		// calibrator, which a fold of the changed log moves.
		rep := verify()
		if len(rep.Diffs) != 2 || !strings.Contains(rep.Diffs[0].Problem, fmt.Sprintf("calibration: match at seq %d:", seq)) ||
			!strings.HasPrefix(rep.Diffs[1].Problem, "calibration: the stored calibrator (2700 results, up to seq 2701,") {
			t.Errorf("Verify(a prediction changed) = %q, want the match at seq %d and the calibrator", problems(rep), seq)
		}
		g.Exec(`UPDATE rating_changes SET before_rating = before_rating - 50 WHERE seq = ? AND kind = 'match' AND team = 1`, seq)
		if res := g.Exec(`UPDATE ratings SET rating = rating + 1 WHERE user_id = ?`, player(7)); res.Error != nil || res.RowsAffected != 1 {
			t.Fatalf("tamper a rating = %v, %d rows", res.Error, res.RowsAffected)
		}
		rep = verify()
		if len(rep.Diffs) != 1 || rep.Diffs[0].UserID != player(7) {
			t.Errorf("Verify(a rating changed) = %q, want %s's rating", problems(rep), player(7))
		}
	})
}

func slicesOverlap(a, b []string) bool {
	for i, x := range a {
		for _, y := range a[i+1:] {
			if x == y {
				return true
			}
		}
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return b[0] == b[1]
}

func problems(rep ladder.VerifyReport) []string {
	var out []string
	for _, d := range rep.Diffs {
		out = append(out, d.UserID+": "+d.Problem)
	}
	return out
}
