package ladder_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
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
		dsn := testdb.DSN(t, backend)
		c := ladder.NewManualClock(time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC))
		var svcs [2]*ladder.Service
		var dbs [2]*storage.DB
		for i := range svcs {
			db, err := storage.Open(ctx, dsn, nil)
			if err != nil {
				t.Fatalf("Open(%s) = %v", backend, err)
			}
			t.Cleanup(func() { db.Close() })
			svcs[i], dbs[i] = ladder.NewService(db, c), db
		}
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
		for w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p := func(i int) string { return user(100*w + i + 1) }
				for i := range perWriter {
					t1, t2 := []string{p(0), p(1)}, []string{p(2), p(3)}
					if i%2 == 1 {
						t1, t2 = []string{p(0), p(2)}, []string{p(1), p(3)}
					}
					if _, err := recorder.RecordResult(ctx, result(t1, t2, 1+i%2)); err != nil {
						errs <- fmt.Errorf("RecordResult() = %w", err)
						return
					}
				}
			}()
		}
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
