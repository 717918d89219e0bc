package storage_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// confirmPlayers is the size of BenchmarkConfirm's ladder; a player is in
// one open match at a time, so one run confirms at most confirmPlayers/4
// matches (run it with -benchtime=Nx, N ≤ 10000).
const confirmPlayers = 40000

// BenchmarkConfirm is the Discord path of a 2v2 result on PostgreSQL: 8
// concurrent writers each report a distinct open match and have the other
// side confirm it through the Service, as the Report and Confirm buttons
// do; confirms/s counts both transactions of each match. It is meant to run
// beside pgbench -c 8 (SPEC 5's write path against the server's own
// transaction rate). The players all have rating rows, in a schema that
// survives the run; the open matches are created before timing starts.
func BenchmarkConfirm(b *testing.B) {
	db := benchDB(b, "bench_confirm_v1")
	svc := ladder.NewService(db, nil)
	ctx := context.Background()
	if _, err := svc.EnsureGuild(ctx, guild); err != nil {
		b.Fatal(err)
	}
	if b.N > confirmPlayers/4 {
		b.Fatalf("b.N = %d matches, want at most %d: use -benchtime=Nx", b.N, confirmPlayers/4)
	}
	var have int64
	if err := db.Gorm().Table("ratings").Count(&have).Error; err != nil {
		b.Fatal(err)
	}
	if have < confirmPlayers {
		parallel(b, confirmPlayers/4, func(i int) error {
			p := 4 * i
			_, err := svc.RecordResult(ctx, result([]string{user(p), user(p + 1)}, []string{user(p + 2), user(p + 3)}, 1))
			return err
		})
	}
	qs, err := svc.Queues(ctx, guild)
	if err != nil {
		b.Fatal(err)
	}
	for _, t := range []string{"ratings", "matches", "match_players", "rating_changes", "players"} {
		if err := db.Gorm().Exec("VACUUM ANALYZE " + t).Error; err != nil {
			b.Fatal(err)
		}
	}
	// Each match pairs four players of one block of four, mixed across
	// blocks so that teams differ from the setup's.
	ms := make([]ladder.Match, b.N)
	parallel(b, b.N, func(i int) error {
		p := 4 * i
		var err error
		ms[i], err = svc.CreateMatch(ctx, ladder.NewMatch{GuildID: guild, QueueID: qs[0].ID,
			Teams: [2][]string{{user(p), user(p + 2)}, {user(p + 1), user(p + 3)}}})
		return err
	})
	b.ResetTimer()
	start := time.Now()
	parallel(b, b.N, func(i int) error {
		m := ms[i]
		reporter := ladder.Actor{UserID: m.Teams[0][0]}
		if _, err := svc.Report(ctx, reporter, guild, m.ID, ladder.Win); err != nil {
			return err
		}
		res, err := svc.Confirm(ctx, ladder.Actor{UserID: m.Teams[1][0]}, guild, m.ID)
		if err == nil && (res.AlreadyDone || res.Match.State != ladder.StateConfirmed) {
			b.Errorf("Confirm(%d) = %+v, want a newly confirmed match", m.ID, res.Match.State)
		}
		return err
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "confirms/s")
}

// parallel runs do(0) … do(n-1) on 8 goroutines, as 8 concurrent writers.
func parallel(b *testing.B, n int, do func(i int) error) {
	b.Helper()
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := w; i < n; i += 8 {
				if err := do(i); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if b.Failed() {
		b.FailNow()
	}
}
