package ladder_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestSeasonEndTwiceAtOnce: two moderators (or a moderator and the
// dashboard, each its own process) confirm the close of the same season
// at the same time. One closes it; the other is told the season has
// already ended, and no second season is closed.
func TestSeasonEndTwiceAtOnce(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		ctx := context.Background()
		const closers = 4
		svcs, _, c := processes(t, backend, closers)
		if _, err := svcs[0].EnsureGuild(ctx, guild); err != nil {
			t.Fatalf("EnsureGuild() = %v", err)
		}
		if _, err := svcs[0].RecordResult(ctx, ladder.ResultInput{GuildID: guild, Team1: []string{"1", "2"}, Team2: []string{"3", "4"}, Winner: 1}); err != nil {
			t.Fatal(err)
		}
		for round := 1; round <= 3; round++ {
			var wg sync.WaitGroup
			outs := make([]ladder.SeasonRollover, closers)
			errs := make([]error, closers)
			for i, s := range svcs {
				wg.Go(func() {
					actor := ladder.Actor{UserID: fmt.Sprintf("50000000000000000%d", i), Moderator: true}
					outs[i], errs[i] = s.EndSeason(ctx, actor, guild, round)
				})
			}
			wg.Wait()
			closed := 0
			for i := range outs {
				if errs[i] != nil {
					t.Fatalf("round %d: Got(EndSeason %d) error = %v, want the close or already done", round, i, errs[i])
				}
				if outs[i].Ended.Number != round {
					t.Errorf("round %d: Got(EndSeason %d ended) = season %d, want %d", round, i, outs[i].Ended.Number, round)
				}
				if !outs[i].AlreadyDone {
					closed++
				}
			}
			if closed != 1 {
				t.Errorf("round %d: Got(closes) = %d, want 1", round, closed)
			}
			cur, err := svcs[0].LatestSeason(ctx, guild)
			if err != nil {
				t.Fatal(err)
			}
			if cur.Number != round+1 {
				t.Fatalf("round %d: Got(running season) = %d, want %d", round, cur.Number, round+1)
			}
			c.Add(time.Minute)
		}
	})
}
