package storage_test

import (
	"context"
	"fmt"
	"github.com/ladderbot/ladderbot/derived"
	"github.com/ladderbot/ladderbot/integrity"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// benchDB opens a schema of TEST_DATABASE_URL that survives the run, so
// the large fixtures (a million players, a 100,000-match log) are built
// once and reused; the connection closes when b ends.
func benchDB(b *testing.B, schema string) *storage.DB {
	base := testdb.PostgresURL(b)
	if err := testdb.Exec(base, "CREATE SCHEMA IF NOT EXISTS "+schema); err != nil {
		b.Fatal(err)
	}
	db, err := storage.Open(context.Background(), testdb.WithSchema(base, schema), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	// The rows derived from the log are written in every rated write, as
	// `ladderbot serve` and `run` do.
	derived.Wire(db, integrity.New(db, nil))
	return db
}

// BenchmarkRecordResult records confirmed 2v2 results from 8 concurrent
// writers among 10,000 players who all have a rating row already;
// results/s is the throughput. On PostgreSQL the ladder lives in a schema
// that survives the run, so repeated runs (-count) skip building it.
func BenchmarkRecordResult(b *testing.B) {
	testdb.ForEach(b, func(b *testing.B, be string) {
		var db *storage.DB
		if be == "postgres" {
			db = benchDB(b, "bench_record_v1")
		} else {
			db = open(b, be)
		}
		svc := ladder.NewService(db, nil)
		ctx := context.Background()
		if _, err := svc.EnsureGuild(ctx, guild); err != nil {
			b.Fatal(err)
		}
		const players = 10000
		var have int64
		if err := db.Gorm().Table("ratings").Count(&have).Error; err != nil {
			b.Fatal(err)
		}
		if have < players {
			// Every player gets a rating row before timing starts.
			var wg sync.WaitGroup
			for w := range 8 {
				wg.Go(func() {
					for i := w * 4; i < players; i += 8 * 4 {
						if _, err := svc.RecordResult(ctx, result([]string{user(i), user(i + 1)}, []string{user(i + 2), user(i + 3)}, 1)); err != nil {
							b.Error(err)
							return
						}
					}
				})
			}
			wg.Wait()
		}
		if be == "postgres" {
			// The server may not autovacuum: clear the dead row
			// versions of earlier runs, as pgbench does before a run.
			for _, t := range []string{"ratings", "matches", "match_players", "rating_changes", "players"} {
				if err := db.Gorm().Exec("VACUUM ANALYZE " + t).Error; err != nil {
					b.Fatal(err)
				}
			}
		}
		var seed atomic.Uint64
		b.SetParallelism(8 / max(1, runtimeProcs()))
		b.ResetTimer()
		start := time.Now()
		b.RunParallel(func(pb *testing.PB) {
			r := rand.New(rand.NewPCG(seed.Add(1), 7))
			for pb.Next() {
				ps := distinct4(r, players)
				_, err := svc.RecordResult(ctx, result([]string{user(ps[0]), user(ps[1])}, []string{user(ps[2]), user(ps[3])}, 1+r.IntN(2)))
				if err != nil {
					b.Error(err)
					return
				}
			}
		})
		b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "results/s")
	})
}

// distinct4 draws four different players below n (r.Perm(n) would cost
// more than the rest of the benchmark's own work).
func distinct4(r *rand.Rand, n int) [4]int {
	var p [4]int
	for i := 0; i < 4; {
		x := r.IntN(n)
		if !slices.Contains(p[:i], x) {
			p[i] = x
			i++
		}
	}
	return p
}

// BenchmarkLeaderboard reads one page of 50 from a ladder of 1,000,000
// listed players on PostgreSQL: the first page, and a deep page by cursor.
func BenchmarkLeaderboard(b *testing.B) {
	db := benchDB(b, "bench_board_v1")
	ctx := context.Background()
	svc := ladder.NewService(db, nil)
	if _, err := svc.EnsureGuild(ctx, guild); err != nil {
		b.Fatal(err)
	}
	const n = 1_000_000
	var have int64
	db.Gorm().Table("ratings").Count(&have)
	if have < n {
		qs, _ := svc.Queues(ctx, guild)
		page, _ := svc.Leaderboard(ctx, ladder.LeaderboardQuery{GuildID: guild, Limit: 1})
		g := db.Gorm()
		steps := []string{
			fmt.Sprintf(`INSERT INTO players (guild_id, user_id, name) SELECT '%s', 'u' || i, 'Player ' || i FROM generate_series(1, %d) i ON CONFLICT DO NOTHING`, guild, n),
			fmt.Sprintf(`INSERT INTO ratings (queue_id, season_id, user_id, guild_id, rating, dev, games, recent, base_rating, base_dev, display, display_dev, provisional, wins, losses)
				SELECT %d, %d, 'u' || i, '%s', r, 60, 20, 0, 1500, 130, r, 60, false, 10, 10
				FROM (SELECT i, 1000 + random() * 1000 AS r FROM generate_series(1, %d) i) s ON CONFLICT DO NOTHING`, qs[0].ID, page.Season.ID, guild, n),
			"ANALYZE ratings", "ANALYZE players",
		}
		for _, s := range steps {
			if err := g.Exec(s).Error; err != nil {
				b.Fatal(err)
			}
		}
	}
	first, err := svc.Leaderboard(ctx, ladder.LeaderboardQuery{GuildID: guild, Limit: 50})
	if err != nil || len(first.Standings) != 50 {
		b.Fatalf("Leaderboard() = %d rows, %v", len(first.Standings), err)
	}
	// A cursor half-way down: walk there once with big pages.
	deep := first.Next
	for range 25 {
		p, err := svc.Leaderboard(ctx, ladder.LeaderboardQuery{GuildID: guild, Limit: 200, After: deep})
		if err != nil {
			b.Fatal(err)
		}
		deep = p.Next
	}
	for _, c := range []struct{ name, after string }{{"first", ""}, {"deep", deep}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				p, err := svc.Leaderboard(ctx, ladder.LeaderboardQuery{GuildID: guild, Limit: 50, After: c.after})
				if err != nil || len(p.Standings) != 50 {
					b.Fatalf("Leaderboard() = %d rows, %v", len(p.Standings), err)
				}
			}
		})
	}
}

// BenchmarkReplay replays a 100,000-match 2v2 log on PostgreSQL with
// Verify: it reads the log and every rating, folds the model over the log
// and compares.
func BenchmarkReplay(b *testing.B) {
	db := benchDB(b, "bench_replay_v1")
	ctx := context.Background()
	svc := ladder.NewService(db, nil)
	const n = 100_000
	var have int64
	db.Gorm().Table("matches").Count(&have)
	if have < n {
		buildReplayFixture(b, db, svc, n)
	}
	for b.Loop() {
		rep, err := svc.Verify(ctx, guild)
		if err != nil || rep.Matches != n || len(rep.Diffs) != 0 {
			b.Fatalf("Verify() = %d matches, %d diffs, %v", rep.Matches, len(rep.Diffs), err)
		}
	}
}

// buildReplayFixture writes an n-match 2v2 log among 5,000 players straight
// into the tables, then stores the ratings its replay gives, so that the
// benchmark starts from a consistent ladder without n transactions.
func buildReplayFixture(b *testing.B, db *storage.DB, svc *ladder.Service, n int) {
	ctx := context.Background()
	if _, err := svc.EnsureGuild(ctx, guild); err != nil {
		b.Fatal(err)
	}
	page, err := svc.Leaderboard(ctx, ladder.LeaderboardQuery{GuildID: guild, Limit: 1})
	if err != nil {
		b.Fatal(err)
	}
	qid, sid := page.Queue.ID, page.Season.ID
	const players = 5000
	g := db.Gorm()
	steps := []string{
		fmt.Sprintf(`INSERT INTO players (guild_id, user_id, name) SELECT '%s', 'u' || i, 'Player ' || i FROM generate_series(0, %d) i ON CONFLICT DO NOTHING`, guild, players-1),
		fmt.Sprintf(`INSERT INTO ratings (queue_id, season_id, user_id, guild_id, rating, dev, games, recent, base_rating, base_dev, display, display_dev, provisional)
			SELECT %d, %d, 'u' || i, '%s', 1500, 130, 0, 0, 1500, 130, 1500, 130, true FROM generate_series(0, %d) i ON CONFLICT DO NOTHING`, qid, sid, guild, players-1),
		fmt.Sprintf(`INSERT INTO matches (guild_id, queue_id, season_id, team1, team2, state, winner, seq, created_at, played_at, source)
			SELECT '%s', %d, %d, 'u' || a || ',u' || ((a + 1) %% %d), 'u' || ((a + 2) %% %d) || ',u' || ((a + 3) %% %d),
			       'confirmed', 1 + (i * 7 / 3) %% 2, i, now(), timestamptz '2025-01-01' + i * interval '1 minute', 'bench'
			FROM (SELECT i, (i * 7919) %% %d AS a FROM generate_series(1, %d) i) s`, guild, qid, sid, players, players, players, players, n),
		"ANALYZE matches", "ANALYZE ratings",
	}
	for _, s := range steps {
		if err := g.Exec(s).Error; err != nil {
			b.Fatal(err)
		}
	}
	rep, err := svc.Verify(ctx, guild)
	if err != nil {
		b.Fatal(err)
	}
	fixed := make([]ladder.Rating, 0, len(rep.Diffs))
	for _, d := range rep.Diffs {
		fixed = append(fixed, d.Replayed)
	}
	if err := db.InTx(ctx, func(tx ladder.Tx) error { return tx.SaveRatings(ctx, fixed) }); err != nil {
		b.Fatal(err)
	}
}
