package storage_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/internal/groupcommit"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// confirmPlayers is the size of BenchmarkConfirm's ladder; a player is in
// one open match at a time, so one run confirms at most confirmPlayers/4
// matches (run it with -benchtime=Nx, N ≤ 10000).
const confirmPlayers = 40000

// BenchmarkConfirm is a Discord confirm of a reported 2v2 on PostgreSQL:
// 8 concurrent writers each confirm a distinct match that the
// other side reported, through the Service as the Confirm button does
// (commands' group commit: the confirms of one guild that arrive while
// its batch is written go together in the next, Service.Confirms). Only
// the confirms are timed; the matches are created and reported first.
// confirms/s is meant to be compared with pgbench -c 8 TPS run beside it
// in one session (docs/spec.md 5's write path against the server's own transaction
// rate). Run it with -benchtime=Nx, N ≤ confirmPlayers/4.
func BenchmarkConfirm(b *testing.B) {
	svc, ms, db := reportedMatches(b, true)
	var batches atomic.Int64
	g := groupcommit.New[string](commands.ConfirmBatch, func(ctx context.Context, ins []ladder.ConfirmInput) ([]ladder.MatchResult, []error) {
		batches.Add(1)
		return svc.Confirms(ctx, ins)
	}).Linger(commands.ConfirmLinger)
	from := walLSN(b, db)
	b.ResetTimer()
	parallel(b, b.N, func(i int) error {
		res, err := g.Do(context.Background(), guild, ladder.ConfirmInput{Actor: ladder.Actor{UserID: ms[i].Teams[1][0]}, GuildID: guild, MatchID: ms[i].ID})
		return checkConfirmed(b, ms[i], res, err)
	})
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "confirms/s")
	b.ReportMetric(float64(b.N)/float64(batches.Load()), "confirms/batch")
	b.ReportMetric(walSince(b, db, from)/float64(b.N), "WAL-B/confirm")
	// The timed confirms' log range, for pg_walinspect's
	// pg_get_wal_records_info(from, to): which tables and indexes the
	// bytes went to.
	b.Logf("write-ahead log of the confirms: %s to %s", from, walLSN(b, db))
}

// walLSN is the server's current write-ahead log position.
func walLSN(b *testing.B, db *storage.DB) string {
	b.Helper()
	var lsn string
	if err := db.Gorm().Raw("SELECT pg_current_wal_lsn()::text").Scan(&lsn).Error; err != nil {
		b.Fatal(err)
	}
	return lsn
}

// walSince is how many bytes of write-ahead log the server wrote since
// position from: the confirms' own, and any other client's of the same
// server (run the benchmark alone to read it as the confirms'). A page's
// first change after a checkpoint is logged whole, so the figure is
// highest right after one (CHECKPOINT before a run to compare two).
func walSince(b *testing.B, db *storage.DB, from string) float64 {
	b.Helper()
	var n float64
	if err := db.Gorm().Raw("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), ?::pg_lsn)::float8", from).Scan(&n).Error; err != nil {
		b.Fatal(err)
	}
	return n
}

// BenchmarkConfirmAlone is BenchmarkConfirm with each confirm in a
// transaction of its own (Service.Confirm), as the group commit runs a
// confirm that arrives while nothing else of its guild is written.
func BenchmarkConfirmAlone(b *testing.B) {
	svc, ms, _ := reportedMatches(b, true)
	b.ResetTimer()
	parallel(b, b.N, func(i int) error { return confirm(b, svc, ms[i]) })
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "confirms/s")
}

// BenchmarkReportConfirm is BenchmarkConfirm with the report timed too:
// each of the 8 writers reports a distinct open match and has the other
// side confirm it, two transactions a match; tx/s counts both.
func BenchmarkReportConfirm(b *testing.B) {
	svc, ms, _ := reportedMatches(b, false)
	b.ResetTimer()
	parallel(b, b.N, func(i int) error {
		if err := report(svc, ms[i]); err != nil {
			return err
		}
		return confirm(b, svc, ms[i])
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "matches/s")
	b.ReportMetric(float64(2*b.N)/b.Elapsed().Seconds(), "tx/s")
}

// reportedMatches returns b.N open matches of distinct players, reported
// by team 1 when reported, in a ladder whose players all have rating rows,
// kept in a schema that survives the run. Matches a failed run left active
// are cancelled first, so that their players are free again.
func reportedMatches(b *testing.B, reported bool) (*ladder.Service, []ladder.Match, *storage.DB) {
	b.Helper()
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
	for _, q := range []string{
		"UPDATE matches SET state = 'cancelled' WHERE state IN ('open', 'reported')",
		"UPDATE match_players SET active = false WHERE active",
	} {
		if err := db.Gorm().Exec(q).Error; err != nil {
			b.Fatal(err)
		}
	}
	qs, err := svc.Queues(ctx, guild)
	if err != nil {
		b.Fatal(err)
	}
	// Each match pairs four players of one block of four, mixed across
	// blocks so that teams differ from the setup's.
	ms := make([]ladder.Match, b.N)
	parallel(b, b.N, func(i int) error {
		p := 4 * i
		var err error
		ms[i], err = svc.CreateMatch(ctx, ladder.NewMatch{GuildID: guild, QueueID: qs[0].ID,
			Teams: [2][]string{{user(p), user(p + 2)}, {user(p + 1), user(p + 3)}}})
		if err == nil && reported {
			err = report(svc, ms[i])
		}
		return err
	})
	for _, t := range []string{"ratings", "matches", "match_players", "rating_changes", "players"} {
		if err := db.Gorm().Exec("VACUUM ANALYZE " + t).Error; err != nil {
			b.Fatal(err)
		}
	}
	return svc, ms, db
}

// report reports m won by team 1, as its first player.
func report(svc *ladder.Service, m ladder.Match) error {
	_, err := svc.Report(context.Background(), ladder.Actor{UserID: m.Teams[0][0]}, guild, m.ID, ladder.Win)
	return err
}

// confirm confirms m's report as the first player of team 2 and checks
// that this confirm rated it.
func confirm(b *testing.B, svc *ladder.Service, m ladder.Match) error {
	res, err := svc.Confirm(context.Background(), ladder.Actor{UserID: m.Teams[1][0]}, guild, m.ID)
	return checkConfirmed(b, m, res, err)
}

// checkConfirmed fails b unless res newly confirmed m.
func checkConfirmed(b *testing.B, m ladder.Match, res ladder.MatchResult, err error) error {
	if err == nil && (res.AlreadyDone || res.Match.State != ladder.StateConfirmed || len(res.Changes) != 4) {
		b.Errorf("Confirm(%d) = %s, AlreadyDone %v, %d changes, want newly confirmed with 4 changes",
			m.ID, res.Match.State, res.AlreadyDone, len(res.Changes))
	}
	return err
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
