package e2e

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// BenchmarkHotGuild measures one hot guild: two `ladderbot serve`
// processes on one PostgreSQL, 32 game-server clients reporting results of
// one guild of 100 players through the HTTP API (each result four distinct
// random players, an idempotency key, the API rate limit off), 800 results
// an iteration. Results of one queue are applied in log order, so the
// guild is a hot row; the reference is the same shape written as a pgbench
// script (scripts/hotguild.pgbench.sql: lock the guild's sequence row,
// update 4 rating rows, insert the match and 4 log rows) with 8 clients,
// run beside it in every iteration. It reports results/s, the p99 of a
// result's round trip, pgbench's TPS, the ratio of the two rates, and the
// last iteration's results/s over the first's.
func BenchmarkHotGuild(b *testing.B) {
	base := testdb.PostgresURL(b)
	if _, err := exec.LookPath("pgbench"); err != nil {
		b.Skip("pgbench is not installed (apt-get install postgresql-client); it is the reference of this benchmark")
	}
	ctx := context.Background()
	dsn := freshDSN(b, testdb.Postgres)
	db, err := storage.Open(ctx, dsn, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	svc := ladder.NewService(db, nil)
	const guild = "900000000000000001"
	if _, err := svc.EnsureGuild(ctx, guild); err != nil {
		b.Fatal(err)
	}
	token, _, err := svc.CreateToken(ctx, ladder.System, guild, "bench")
	if err != nil {
		b.Fatal(err)
	}
	var addrs []string
	for i := range 2 {
		addr := freeAddr(b)
		startServe(b, dsn, addr, fmt.Sprintf("serve%d", i))
		addrs = append(addrs, addr)
	}
	players := make([]string, 100)
	for i := range players {
		players[i] = fmt.Sprintf("7%017d", i+1)
	}
	h := &hotGuild{token: token, guild: guild, addrs: addrs, players: players,
		client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}, Timeout: 30 * time.Second}}
	// Every player gets a rating row first, as in a guild that has played.
	if _, _, errs := h.fire(ctx, 8, 200, 0); errs > 0 {
		b.Fatalf("warm-up: %d results failed; the first: %s", errs, h.first)
	}
	pg := newPgbenchShape(b, base)
	var rates, refs, p99s []float64
	key := 200
	for b.Loop() {
		rate, p99, errs := h.fire(ctx, 32, 800, key)
		key += 800
		if errs > 0 {
			b.Fatalf("%d results failed; the first: %s", errs, h.first)
		}
		rates, p99s = append(rates, rate), append(p99s, p99)
		refs = append(refs, pg.run(b, 8, 5*time.Second))
		b.Logf("history %5d results: %6.1f results/s, p99 %5.1f ms; the shape %6.1f TPS", key, rate, p99, refs[len(refs)-1])
	}
	rate, ref := mean(rates), mean(refs)
	b.ReportMetric(rate, "results/s")
	// The guild's history grows by 800 results an iteration: with
	// -benchtime=10x the last iteration runs on 8,000 results more than
	// the first, and a cost that grew with history would show here.
	b.ReportMetric(rates[len(rates)-1]/rates[0], "last/first")
	b.ReportMetric(slices.Max(p99s), "p99-ms")
	b.ReportMetric(ref, "pgbench-tps")
	b.ReportMetric(rate/ref, "ratio")
	if rep, err := svc.Verify(ctx, guild); err != nil || len(rep.Diffs) > 0 {
		b.Fatalf("Verify() after the benchmark = %+v, %v", rep.Diffs, err)
	}
}

// hotGuild is the game servers of BenchmarkHotGuild.
type hotGuild struct {
	token, guild string
	addrs        []string
	players      []string
	client       *http.Client
	mu           sync.Mutex
	first        string
}

// fire posts n results from c concurrent clients, keys from first on, and
// returns the rate, the p99 latency in milliseconds and the failures.
func (h *hotGuild) fire(ctx context.Context, c, n, first int) (float64, float64, int) {
	var next atomic.Int64
	var failed atomic.Int64
	lat := make([]float64, n)
	var wg sync.WaitGroup
	start := time.Now()
	for w := range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(first), uint64(w)))
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				p := rng.Perm(len(h.players))
				body := fmt.Sprintf(`{"team1":[%q,%q],"team2":[%q,%q],"winner":%d}`,
					h.players[p[0]], h.players[p[1]], h.players[p[2]], h.players[p[3]], 1+rng.IntN(2))
				t0 := time.Now()
				if !h.post(ctx, h.addrs[i%len(h.addrs)], "hot-"+strconv.Itoa(first+i), body) {
					failed.Add(1)
				}
				lat[i] = float64(time.Since(t0).Microseconds()) / 1000
			}
		}()
	}
	wg.Wait()
	el := time.Since(start).Seconds()
	slices.Sort(lat)
	return float64(n) / el, lat[len(lat)*99/100], int(failed.Load())
}

func (h *hotGuild) post(ctx context.Context, addr, key, body string) bool {
	req, _ := http.NewRequestWithContext(ctx, "POST", "http://"+addr+"/api/v1/guilds/"+h.guild+"/matches", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+h.token)
	req.Header.Set("Idempotency-Key", key)
	resp, err := h.client.Do(req)
	if err != nil {
		h.failure(err.Error())
		return false
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusCreated || resp.StatusCode == http.StatusOK {
		return true
	}
	b, _ := io.ReadAll(resp.Body)
	h.failure(fmt.Sprintf("%d %s", resp.StatusCode, b))
	return false
}

// failure keeps the first failure's text for the report.
func (h *hotGuild) failure(s string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.first == "" {
		h.first = s
	}
}

// startServe runs `ladderbot serve` on addr until the benchmark ends.
func startServe(b *testing.B, dsn, addr, name string) {
	b.Helper()
	logf, err := os.Create(filepath.Join(b.TempDir(), name+".log"))
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(binary, "serve")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "DATABASE_URL=" + dsn,
		"HTTP_ADDR=" + addr, "API_RATE_LIMIT=0", "LOG_LEVEL=error"}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait(); logf.Close() })
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			b.Fatalf("%s not ready", name)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// pgbenchShape is the reference shape's tables in a scratch schema.
type pgbenchShape struct {
	uri, script string
}

func newPgbenchShape(b *testing.B, base string) *pgbenchShape {
	b.Helper()
	schema := fmt.Sprintf("hg_%d", time.Now().UnixNano())
	u, err := url.Parse(base)
	if err != nil {
		b.Fatal(err)
	}
	q := u.Query()
	q.Del("search_path")
	q.Set("options", "-csearch_path="+schema)
	u.RawQuery = q.Encode()
	uri := u.String()
	setup := fmt.Sprintf(`CREATE SCHEMA %[1]s;
CREATE TABLE %[1]s.hg_guilds (id int PRIMARY KEY, seq bigint NOT NULL);
INSERT INTO %[1]s.hg_guilds VALUES (1, 0);
CREATE TABLE %[1]s.hg_ratings (id int PRIMARY KEY, rating float8 NOT NULL, games int NOT NULL);
INSERT INTO %[1]s.hg_ratings SELECT g, 1500, 0 FROM generate_series(1, 100) g;
CREATE TABLE %[1]s.hg_matches (id bigserial PRIMARY KEY, guild_id int NOT NULL, team1 text, team2 text, played_at timestamptz);
CREATE TABLE %[1]s.hg_log (id bigserial PRIMARY KEY, player int NOT NULL, delta float8, at timestamptz);`, schema)
	if out, err := exec.Command("psql", uri, "-qc", setup).CombinedOutput(); err != nil {
		b.Fatalf("psql setup: %v: %s", err, out)
	}
	b.Cleanup(func() { exec.Command("psql", uri, "-qc", "DROP SCHEMA "+schema+" CASCADE").Run() })
	root, err := moduleRoot()
	if err != nil {
		b.Fatal(err)
	}
	return &pgbenchShape{uri: uri, script: filepath.Join(root, "scripts", "hotguild.pgbench.sql")}
}

var tpsLine = regexp.MustCompile(`tps = ([0-9.]+)`)

// run runs the shape with c clients for d and returns its TPS.
func (p *pgbenchShape) run(b *testing.B, c int, d time.Duration) float64 {
	out, err := exec.Command("pgbench", "-n", "-f", p.script, "-c", strconv.Itoa(c), "-j", "2",
		"-T", strconv.Itoa(int(d.Seconds())), p.uri).CombinedOutput()
	if err != nil {
		b.Fatalf("pgbench: %v: %s", err, out)
	}
	m := tpsLine.FindSubmatch(out)
	if m == nil {
		b.Fatalf("pgbench printed no tps: %s", out)
	}
	tps, _ := strconv.ParseFloat(string(m[1]), 64)
	return tps
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
