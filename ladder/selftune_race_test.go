package ladder_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestAdoptionRacesResults is the self-tuning race: a self-tuning adoption (new
// constants recorded in the log at a seq, then made the queue's) committed
// while results are being recorded in the same queue. A result that read
// the old constants but took its seq after the adoption's would be rated
// with constants the replay does not use there, and verify would report it.
// Two Services on two connection pools to one database play two processes:
// one records results from several goroutines (API results, and opened
// matches reported and confirmed), the other adopts constants back and
// forth; afterwards every stored rating must equal the replay.
func TestAdoptionRacesResults(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		ctx := context.Background()
		svcs, _ := twoProcesses(t, backend)
		recorder, adopter := svcs[0], svcs[1]
		if _, err := recorder.EnsureGuild(ctx, guild); err != nil {
			t.Fatalf("EnsureGuild() = %v", err)
		}
		// Two sets of constants far enough apart that a result rated with
		// the wrong one changes every rating of its players.
		sets := []map[string]float64{
			{"boost": 0.5, "c": 6.6775, "rd0": 130, "scale": 2},
			{"boost": 3, "c": 20, "rd0": 300, "scale": 0.5},
		}
		const writers, perWriter, confirmed, adoptions = 4, 40, 20, 30
		var wg sync.WaitGroup
		errs := make(chan error, writers+1)
		// Each writer plays its own four players, so results never wait
		// on each other's rating rows, only on the constants.
		recordInPairs(ctx, &wg, errs, recorder, writers, perWriter)
		// One more writer rates through the Discord path: open, report, confirm.
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := func(i int) string { return user(100*writers + i + 1) }
			for i := range confirmed {
				qs, err := recorder.Queues(ctx, guild)
				if err != nil {
					errs <- fmt.Errorf("Queues() = %w", err)
					return
				}
				m, err := recorder.CreateMatch(ctx, ladder.NewMatch{GuildID: guild, QueueID: qs[0].ID, Teams: [2][]string{{p(0), p(1)}, {p(2), p(3)}}})
				if err != nil {
					errs <- fmt.Errorf("CreateMatch() = %w", err)
					return
				}
				reporter, confirmer, o := p(0), p(2), ladder.Win
				if i%2 == 1 {
					o = ladder.Loss
				}
				if _, err := recorder.Report(ctx, ladder.Actor{UserID: reporter}, guild, m.ID, o); err != nil {
					errs <- fmt.Errorf("Report() = %w", err)
					return
				}
				if _, err := recorder.Confirm(ctx, ladder.Actor{UserID: confirmer}, guild, m.ID); err != nil {
					errs <- fmt.Errorf("Confirm() = %w", err)
					return
				}
			}
		}()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range adoptions {
				now, err := adopter.Queues(ctx, guild)
				if err != nil {
					errs <- fmt.Errorf("Queues() = %w", err)
					return
				}
				if err := ladder.AdoptForTest(ctx, adopter, now[0], sets[(i+1)%2]); err != nil {
					errs <- fmt.Errorf("adopt %d: %w", i, err)
					return
				}
			}
		}()
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		rep, err := adopter.Verify(ctx, guild)
		if err != nil {
			t.Fatalf("Verify() = %v", err)
		}
		if want := writers*perWriter + confirmed; rep.Matches != want {
			t.Errorf("Got(verified matches) = %d, want %d", rep.Matches, want)
		}
		for _, d := range rep.Diffs {
			t.Errorf("Verify() difference: %s %s", d.UserID, d.Problem)
		}
	})
}
