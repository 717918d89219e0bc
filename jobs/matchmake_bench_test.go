package jobs_test

import (
	"context"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/ladder"
)

// BenchmarkMatchmakeTick measures one 5 s tick of the matchmaking job as
// every bot process runs it: with every queue empty (the common case: one
// query for the queues holding tickets), and with players waiting whom
// the pass cannot match (q_start = q_floor = 1, out of reach while RD > 0),
// so each tick takes the queue's lock, loads their tickets and ratings and
// runs the pass, forming nothing: the steady cost of a crowded queue.
func BenchmarkMatchmakeTick(b *testing.B) { benchMatchmakeTick(b, false) }

// BenchmarkMatchmakeTickMetrics is BenchmarkMatchmakeTick with Metrics
// set, as under `ladderbot run`: each tick also reads the queue sizes
// (one more transaction) and sets the gauges. The difference between the
// two is the cost of the queue-size metric.
func BenchmarkMatchmakeTickMetrics(b *testing.B) { benchMatchmakeTick(b, true) }

// benchMatchmakeTick runs BenchmarkMatchmakeTick, with Metrics set on the
// scheduler when withMetrics (BenchmarkMatchmakeTickMetrics).
func benchMatchmakeTick(b *testing.B, withMetrics bool) {
	for _, waiting := range []int{0, 40, 200} {
		b.Run(fmt.Sprintf("waiting=%d", waiting), func(b *testing.B) {
			testdb.ForEach(b, func(b *testing.B, be string) {
				ctx := context.Background()
				c := ladder.NewManualClock(mmStart)
				p := newProc(b, testdb.DSN(b, be), c, &poster{})
				var m *recMetrics
				if withMetrics {
					m = newRecMetrics()
					p.sched = jobs.New(p.svc, &poster{}, slog.New(slog.DiscardHandler), jobs.Options{Metrics: m})
				}
				if _, err := p.svc.EnsureGuild(ctx, guild); err != nil {
					b.Fatalf("EnsureGuild() = %v", err)
				}
				q := defaultQueue(b, p.svc, func(q *ladder.Queue) { q.QStart, q.QFloor = 1, 1 })
				for i := range waiting {
					u := user(i + 1)
					if _, err := p.svc.JoinQueue(ctx, ladder.JoinRequest{GuildID: guild, UserID: u, ChannelID: channel}); err != nil {
						b.Fatalf("JoinQueue() = %v", err)
					}
				}
				c.Set(mmStart.Add(10 * time.Minute))
				for b.Loop() {
					if _, err := p.sched.Run(ctx, jobs.JobMatchmake); err != nil {
						b.Fatalf("Run(matchmake) = %v", err)
					}
				}
				b.StopTimer()
				ms, err := p.svc.Matches(ctx, ladder.MatchFilter{GuildID: guild, Limit: 1})
				if err != nil || len(ms) != 0 {
					b.Fatalf("Got(matches) = %d, %v, want none formed", len(ms), err)
				}
				if withMetrics {
					if sizes, _ := m.snapshot(); waiting > 0 && sizes[guild+"/"+q.Name] != waiting {
						b.Fatalf("Got(queue size) = %v, want %d", sizes, waiting)
					}
				}
			})
		})
	}
}
