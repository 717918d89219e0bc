package ladder_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestSeasonEndRacesResults ends seasons while results are recorded in
// the same queue by another process. Every result lands in one season, and
// a closed season's frozen standings must be its final ratings: a result
// rated in a season after its table was frozen, and committed after the
// close, would be missing from the table (and from the carry-over of the
// players who had entered the next season meanwhile).
func TestSeasonEndRacesResults(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		ctx := context.Background()
		svcs, dbs := twoProcesses(t, backend)
		recorder, ender := svcs[0], svcs[1]
		g, err := recorder.EnsureGuild(ctx, guild)
		if err != nil {
			t.Fatalf("EnsureGuild() = %v", err)
		}
		g.PlacementGames = 0
		if _, err := recorder.UpdateGuild(ctx, mod, g); err != nil {
			t.Fatal(err)
		}
		qs, err := recorder.Queues(ctx, guild)
		if err != nil {
			t.Fatal(err)
		}
		// Elo shows no deviation: every player who played is listed, so
		// every result shows in the frozen table.
		q := qs[0]
		q.Model = "elo"
		if _, err := recorder.UpdateQueue(ctx, mod, q); err != nil {
			t.Fatalf("UpdateQueue(elo) = %v", err)
		}
		const writers, perWriter, ends = 4, 30, 6
		var wg sync.WaitGroup
		errs := make(chan error, writers+1)
		done := make(chan struct{})
		recordInPairs(ctx, &wg, errs, recorder, writers, perWriter)
		go func() { wg.Wait(); close(done) }()
		var ended int
	loop:
		for ended < ends {
			select {
			case <-done:
				break loop
			default:
			}
			if _, err := ender.EndSeason(ctx, mod, guild, 0); err != nil {
				t.Fatalf("EndSeason() = %v", err)
			}
			ended++
			time.Sleep(20 * time.Millisecond)
		}
		<-done
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		if ended == 0 {
			t.Fatal("no season ended while results were recorded")
		}
		seasons, err := ender.Seasons(ctx, guild)
		if err != nil {
			t.Fatal(err)
		}
		for _, se := range seasons {
			if se.Running() {
				continue
			}
			rs, err := dbs[1].Ratings(ctx, ladder.Key{QueueID: q.ID, SeasonID: se.ID}, nil)
			if err != nil {
				t.Fatal(err)
			}
			final := map[string]ladder.Rating{}
			for _, r := range rs {
				final[r.UserID] = r
			}
			frozen, err := dbs[1].SeasonResults(ctx, se.ID, q.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(frozen) != len(rs) {
				t.Errorf("season %d: %d players frozen, %d rated", se.Number, len(frozen), len(rs))
			}
			for _, f := range frozen {
				r := final[f.UserID]
				if f.Rating != r.Display || f.Wins != r.Wins || f.Losses != r.Losses {
					t.Errorf("season %d: %s frozen at %.2f %d-%d, final %.2f %d-%d", se.Number, f.UserID, f.Rating, f.Wins, f.Losses, r.Display, r.Wins, r.Losses)
				}
			}
		}
		mustVerifySvc(t, ender)
	})
}

func mustVerifySvc(t *testing.T, svc *ladder.Service) {
	t.Helper()
	rep, err := svc.Verify(context.Background(), guild)
	if err != nil {
		t.Fatalf("Verify() = %v", err)
	}
	for _, d := range rep.Diffs {
		t.Errorf("Verify() difference: %s %s", d.UserID, d.Problem)
	}
}
