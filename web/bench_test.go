package web

import (
	"context"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// benchPlayers is the size of the benchmark guild (100,000 players).
const benchPlayers = 100_000

// benchDSN returns where the benchmark guild lives: LADDERBOT_BENCH_DB
// (sqlite:PATH or postgres://…) when set, so the seeded database can be
// reused and served by `ladderbot serve` for wrk, else a fresh SQLite file.
func benchDSN(b *testing.B) string {
	if dsn := os.Getenv("LADDERBOT_BENCH_DB"); dsn != "" {
		return dsn
	}
	return "sqlite:" + filepath.Join(b.TempDir(), "bench.db")
}

// seedBig fills guild guildG with n listed players straight through the
// store (rating rows as a long season would leave them: 20 games, RD 30 to
// 90), unless it already has them. Replaying n players' worth of matches
// would take far longer and measure the rating code, not the web layer.
func seedBig(tb testing.TB, db *storage.DB, svc *ladder.Service, n int) {
	ctx := context.Background()
	if _, err := svc.EnsureGuild(ctx, guildG); err != nil {
		tb.Fatal(err)
	}
	qs, err := db.Queues(ctx, guildG)
	if err != nil {
		tb.Fatal(err)
	}
	season, err := db.CurrentSeason(ctx, guildG)
	if err != nil {
		tb.Fatal(err)
	}
	key := ladder.Key{QueueID: qs[0].ID, SeasonID: season.ID}
	if last, err := db.Ratings(ctx, key, []string{strconv.Itoa(10_000_000 + n - 1)}); err == nil && len(last) == 1 {
		return // seeded by an earlier run
	}
	rng := rand.New(rand.NewPCG(1, 2))
	now := time.Now().UTC()
	const batch = 2000
	for start := 0; start < n; start += batch {
		var ps []ladder.Player
		var rs []ladder.Rating
		for i := start; i < min(start+batch, n); i++ {
			id := strconv.Itoa(10_000_000 + i)
			r := 1500 + 200*rng.NormFloat64()
			rd := 30 + 60*rng.Float64()
			w, l := rng.IntN(20), 0
			l = 20 - w
			ps = append(ps, ladder.Player{GuildID: guildG, UserID: id, Name: "Player " + id})
			rs = append(rs, ladder.Rating{QueueID: qs[0].ID, SeasonID: season.ID, UserID: id,
				State: rating.State{Rating: r, Dev: rd, Games: 20, Last: now}, Base: rating.State{Rating: 1500, Dev: 130},
				Record: ladder.Record{Wins: w, Losses: l}, Display: r, DisplayDev: rd})
		}
		err := db.InTx(ctx, func(tx ladder.Tx) error {
			if err := tx.UpsertPlayers(ctx, ps); err != nil {
				return err
			}
			return tx.InsertRatings(ctx, guildG, rs)
		})
		if err != nil {
			tb.Fatalf("seed: %v", err)
		}
	}
}

var (
	benchOnce sync.Mutex
	benchEnvs = map[string]*env{}
)

// benchEnv opens (once per DSN and cache setting) the seeded benchmark guild.
func benchEnv(b *testing.B, ttl time.Duration) *env {
	benchOnce.Lock()
	defer benchOnce.Unlock()
	dsn := benchDSN(b)
	key := dsn + "|" + ttl.String()
	if e, ok := benchEnvs[key]; ok {
		return e
	}
	ctx := context.Background()
	db, err := storage.Open(ctx, dsn, nil)
	if err != nil {
		b.Fatal(err)
	}
	svc := ladder.NewService(db, nil)
	start := time.Now()
	seedBig(b, db, svc, benchPlayers)
	b.Logf("benchmark guild of %d players ready in %s (%s)", benchPlayers, time.Since(start).Round(time.Millisecond), db.Dialect())
	e := &env{db: db, svc: svc, srv: New(Options{Service: svc, CacheTTL: ttl, Metrics: NewMetrics()})}
	benchEnvs[key] = e
	return e
}

// deepCursor is the cursor after rank 50,000 of the benchmark guild.
func deepCursor(b *testing.B, e *env) string {
	p, err := e.svc.Leaderboard(context.Background(), ladder.LeaderboardQuery{GuildID: guildG, Limit: 200})
	if err != nil {
		b.Fatal(err)
	}
	for range 50_000/200 - 1 {
		if p, err = e.svc.Leaderboard(context.Background(), ladder.LeaderboardQuery{GuildID: guildG, Limit: 200, After: p.Next}); err != nil {
			b.Fatal(err)
		}
	}
	if p.Standings[len(p.Standings)-1].Rank != 50_000 {
		b.Fatalf("deep cursor at rank %d, want 50000", p.Standings[len(p.Standings)-1].Rank)
	}
	return p.Next
}

// BenchmarkLeaderboardHandler measures GET /api/v1/guilds/{guild}/leaderboard
// in process (no network) on a 100,000-player guild: the first page and a
// page after rank 50,000 (keyset paging costs the same at any depth), with
// the 2 s micro-cache and without it (every request queries the database).
func BenchmarkLeaderboardHandler(b *testing.B) {
	for _, c := range []struct {
		name string
		ttl  time.Duration
	}{{"cached", 2 * time.Second}, {"uncached", -1}} {
		for _, deep := range []bool{false, true} {
			name := c.name + "/first-page"
			if deep {
				name = c.name + "/after-rank-50000"
			}
			b.Run(name, func(b *testing.B) {
				e := benchEnv(b, c.ttl)
				path := "/api/v1/guilds/" + guildG + "/leaderboard"
				if deep {
					path += "?after=" + deepCursor(b, e)
				}
				h := e.srv.Handler()
				b.ReportAllocs()
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						rec := httptest.NewRecorder()
						h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
						if rec.Code != 200 {
							b.Errorf("status %d: %s", rec.Code, rec.Body)
							return
						}
					}
				})
			})
		}
	}
}

// BenchmarkLeaderboardLoopback serves the 100,000-player guild on a real
// 127.0.0.1 listener and hits the leaderboard JSON with 32 keep-alive
// clients in the same process, reporting requests per second and the p50
// and p99 latencies seen by the clients. The clients share the CPU with the
// server, so this understates what an external load generator sees.
func BenchmarkLeaderboardLoopback(b *testing.B) {
	for _, c := range []struct {
		name string
		ttl  time.Duration
	}{{"cached", 2 * time.Second}, {"uncached", -1}} {
		b.Run(c.name, func(b *testing.B) {
			e := benchEnv(b, c.ttl)
			ts := httptest.NewServer(e.srv.Handler())
			defer ts.Close()
			tr := &http.Transport{MaxIdleConnsPerHost: 64, DisableCompression: true}
			defer tr.CloseIdleConnections()
			client := &http.Client{Transport: tr}
			url := ts.URL + "/api/v1/guilds/" + guildG + "/leaderboard"
			var mu sync.Mutex
			var lat []time.Duration
			b.SetParallelism(16) // 16 × GOMAXPROCS clients
			b.ResetTimer()
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				mine := make([]time.Duration, 0, 1024)
				for pb.Next() {
					t0 := time.Now()
					resp, err := client.Get(url)
					if err != nil {
						b.Error(err)
						return
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != 200 {
						b.Errorf("status %d", resp.StatusCode)
						return
					}
					mine = append(mine, time.Since(t0))
				}
				mu.Lock()
				lat = append(lat, mine...)
				mu.Unlock()
			})
			elapsed := time.Since(start)
			b.StopTimer()
			if len(lat) == 0 {
				return
			}
			slices.Sort(lat)
			q := func(p float64) float64 {
				return float64(lat[min(len(lat)-1, int(math.Ceil(p*float64(len(lat))))-1)].Microseconds()) / 1000
			}
			b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "req/s")
			b.ReportMetric(q(0.50), "p50-ms")
			b.ReportMetric(q(0.99), "p99-ms")
		})
	}
}

// TestBenchSeed checks the benchmark's seeding on a small guild: every
// seeded player is listed, in rating order, and a second seed adds nothing.
func TestBenchSeed(t *testing.T) {
	e := newEnv(t, testdb.DSN(t, testdb.SQLite), Options{})
	seedBig(t, e.db, e.svc, 500)
	p, err := e.svc.Leaderboard(context.Background(), ladder.LeaderboardQuery{GuildID: guildG, Limit: 200})
	mustf(t, err, "Leaderboard")
	if len(p.Standings) != 200 || p.Standings[199].Rank != 200 || p.Standings[0].Rating < p.Standings[199].Rating {
		t.Fatalf("Got(first page) = %d rows, want 200 in rating order", len(p.Standings))
	}
	seedBig(t, e.db, e.svc, 500)
	all, err := e.db.Ratings(context.Background(), ladder.Key{QueueID: 1, SeasonID: 1}, nil)
	mustf(t, err, "Ratings")
	if len(all) != 500 {
		t.Errorf("Got(rows after seeding twice) = %d, want 500", len(all))
	}
}

// BenchmarkLeaderboardOpenLoop offers the leaderboard JSON of the
// 100,000-player guild at a fixed 5,000 requests per second over loopback
// (each iteration is one second of load) and reports the p50, p99 and max
// latency measured from each request's scheduled start, so a stall counts
// against every request it delays (no coordinated omission), and the
// rate achieved. Run it with -benchtime=Nx for N seconds.
func BenchmarkLeaderboardOpenLoop(b *testing.B) {
	rate := 5000
	if s := os.Getenv("LADDERBOT_BENCH_RATE"); s != "" {
		var err error
		if rate, err = strconv.Atoi(s); err != nil || rate <= 0 {
			b.Fatalf("LADDERBOT_BENCH_RATE=%q: want a positive number of requests per second", s)
		}
	}
	e := benchEnv(b, 2*time.Second)
	ts := httptest.NewServer(e.srv.Handler())
	defer ts.Close()
	tr := &http.Transport{MaxIdleConnsPerHost: 128, DisableCompression: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	url := ts.URL + "/api/v1/guilds/" + guildG + "/leaderboard"

	total := b.N * rate
	lat := make([]time.Duration, total)
	sched := make(chan int, 1024)
	var wg sync.WaitGroup
	start := time.Now().Add(10 * time.Millisecond)
	interval := time.Second / time.Duration(rate)
	for range 64 {
		wg.Go(func() {
			for i := range sched {
				at := start.Add(time.Duration(i) * interval)
				time.Sleep(time.Until(at))
				resp, err := client.Get(url)
				if err != nil {
					b.Error(err)
					continue
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					b.Errorf("status %d", resp.StatusCode)
				}
				lat[i] = time.Since(at)
			}
		})
	}
	b.ResetTimer()
	for i := range total {
		sched <- i
	}
	close(sched)
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	slices.Sort(lat)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(float64(total)/elapsed.Seconds(), "req/s")
	b.ReportMetric(ms(lat[total/2]), "p50-ms")
	b.ReportMetric(ms(lat[min(total-1, total*99/100)]), "p99-ms")
	b.ReportMetric(ms(lat[total-1]), "max-ms")
}
