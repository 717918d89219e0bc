package bot

import (
	"context"
	"fmt"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"log/slog"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// seedLadder imports a history in which every one of n players (IDs
// 6000000000000000000+i) plays: matches random 2v2 games over 30 days.
func seedLadder(tb testing.TB, svc *ladder.Service, n, matches int) []string {
	tb.Helper()
	ids := make([]string, n)
	for i := range ids {
		ids[i] = strconv.FormatInt(6_000_000_000_000_000_000+int64(i), 10)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	start := time.Now().Add(-30 * 24 * time.Hour).UTC()
	recs := make([]rating.MatchRecord, matches)
	for i := range recs {
		var p [4]string
		if 4*i+3 < n {
			copy(p[:], ids[4*i:4*i+4]) // everyone plays at least once
		} else {
			perm := rng.Perm(n)[:4]
			for j := range p {
				p[j] = ids[perm[j]]
			}
		}
		recs[i] = rating.MatchRecord{Seq: i, Date: start.Add(time.Duration(i) * 30 * 24 * time.Hour / time.Duration(matches)),
			Team1: p[:2], Team2: p[2:], Winner: 1 + rng.IntN(2)}
	}
	if _, err := svc.ImportMatches(context.Background(), testGuild, "", recs, nil); err != nil {
		tb.Fatalf("ImportMatches: %v", err)
	}
	return ids
}

// quietEnv is an env whose bot logs only warnings, for benchmarks.
func quietEnv(b *testing.B, backend string) *env {
	b.Helper()
	e := &env{t: b, fake: newFake(b)}
	db, err := openDB(freshDSN(b, backend))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	e.db, e.svc = db, ladder.NewService(db, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	b.Cleanup(cancel)
	e.ctx = ctx
	// Warnings and errors only: a burst's info lines would be most of the memory measured.
	logs := &syncBuffer{}
	e.h = startBotLog(b, e.fake, e.set(), slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn})))
	e.h.logs = logs
	return e
}

// BenchmarkAck measures acknowledgement latency (dispatch by the fake
// Discord → interaction callback received) with 200 concurrent interactions:
// /leaderboard, /profile (with its PNG chart) and /queue status in a
// 2:1:1 mix by 200 different players of a 2,000-player ladder. Each
// iteration is one burst of 200. Reported: p50/p99/max acknowledgement and
// p99 of the complete answer, in milliseconds.
func BenchmarkAck(b *testing.B) {
	testdb.ForEach(b, func(b *testing.B, backend string) {
		e := quietEnv(b, backend)
		ids := seedLadder(b, e.svc, 2000, 3000)
		const burst = 200
		var acks, answers []time.Duration
		b.ResetTimer()
		for range b.N {
			a, w := e.burst(b, ids[:burst])
			acks, answers = append(acks, a...), append(answers, w...)
			e.fake.Reset()
		}
		b.StopTimer()
		slices.Sort(acks)
		slices.Sort(answers)
		ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
		b.ReportMetric(ms(quantile(acks, 0.50)), "p50-ack-ms")
		b.ReportMetric(ms(quantile(acks, 0.99)), "p99-ack-ms")
		b.ReportMetric(ms(acks[len(acks)-1]), "max-ack-ms")
		b.ReportMetric(ms(quantile(answers, 0.99)), "p99-answer-ms")
		if late := acks[len(acks)-1]; late > 3*time.Second {
			b.Errorf("an interaction was acknowledged after %v, past Discord's 3 s", late)
		}
	})
}

func quantile(sorted []time.Duration, q float64) time.Duration {
	return sorted[min(len(sorted)-1, int(q*float64(len(sorted))))]
}

// burst sends one interaction per user at once and waits for every answer.
func (e *env) burst(b *testing.B, users []string) (acks, answers []time.Duration) {
	pending := make([]*fakediscord.Pending, len(users))
	for i, u := range users {
		call := fakediscord.Call{GuildID: testGuild, ChannelID: testChannel, User: fakediscord.User{ID: u, Name: "u" + u[len(u)-4:]}}
		var err error
		switch i % 4 {
		case 0, 1:
			pending[i], err = e.fake.Slash(call, "leaderboard", map[string]any{"page": 1 + i%5})
		case 2:
			pending[i], err = e.fake.Slash(call, "profile", nil)
		default:
			pending[i], err = e.fake.Slash(call, "queue status", nil)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	for _, p := range pending {
		ctx, cancel := context.WithTimeout(e.ctx, 30*time.Second)
		r, err := p.Result(ctx)
		cancel()
		if err != nil {
			b.Fatalf("%v\n%+v\nlog:\n%s", err, p.Snapshot(), e.h.logs)
		}
		if strings.Contains(r.Message.Text(), "⚠️") {
			b.Fatalf("Got(answer) = %q, want no error", r.Message.Text())
		}
		s := p.Snapshot()
		acks = append(acks, s.AckLatency())
		answers = append(answers, time.Since(s.SentAt))
	}
	return acks, answers
}

// BenchmarkMemory10k measures the process's resident memory after the bot
// served a guild of 10,000 players: the ladder is imported, then every
// leaderboard page is read through the bot and 200 profiles are drawn.
// Reported: resident set (VmRSS of the whole test process, which also
// holds the fake Discord and the test binary) and live Go heap after a GC,
// in MB. The import that seeds the ladder runs first and its freed memory
// is returned to the OS before the bot serves, so it does not count.
func BenchmarkMemory10k(b *testing.B) {
	testdb.ForEach(b, func(b *testing.B, backend string) {
		e := quietEnv(b, backend)
		ids := seedLadder(b, e.svc, 10000, 6000)
		// The import is set-up, not the bot: hand its garbage back to
		// the OS so the measure is what serving the guild keeps resident.
		runtime.GC()
		debug.FreeOSMemory()
		b.ResetTimer()
		for range b.N {
			var wg sync.WaitGroup
			for page := 1; page <= 10; page++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					e.slash(alice, "leaderboard", map[string]any{"page": page})
				}()
			}
			wg.Wait()
			e.burst(b, ids[:200])
			e.fake.Reset()
		}
		b.StopTimer()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "heap-MB")
		b.ReportMetric(rssMB(b), "rss-MB")
	})
}

// rssMB reads the process's resident set size from /proc (Linux).
func rssMB(b *testing.B) float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skipf("no /proc/self/status: %v", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			var kb float64
			fmt.Sscanf(strings.TrimSpace(rest), "%f", &kb)
			return kb / 1024
		}
	}
	b.Skip("VmRSS not found")
	return 0
}
