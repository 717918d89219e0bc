package panel_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/panel"
)

// BenchmarkPanelRush is TestPanelRush measured: each round, 200 new
// players press Join on a 4v4 queue's panel at once, through the real
// bot and the fake Discord. It reports the panel edits per second of
// queue changes (the coalescing caps it at 0.5 per panel), the queue
// changes per second, the p99 and max time from a click to its
// acknowledgement, and the 429s Discord answered (want 0).
func BenchmarkPanelRush(b *testing.B) {
	const players = 200
	for _, backend := range testdb.Backends() {
		b.Run(backend, func(b *testing.B) {
			e := newEnv(b, backend, panel.Options{})
			q, pm := e.addQueue("4v4", 4)
			var acks []time.Duration
			var edits int64
			var busy time.Duration
			b.ResetTimer()
			for round := range b.N {
				before := e.panels.Stats().Edits + e.panels.Stats().Posts
				start := time.Now()
				var pending []*fakediscord.Pending
				for i := range players {
					p, err := e.fake.Click(at(player(10000+round*players+i)), pm.ID, "pjoin:"+fmt.Sprint(q.ID))
					if err != nil {
						b.Fatal(err)
					}
					pending = append(pending, p)
				}
				for _, p := range pending {
					r, err := p.Result(e.ctx)
					if err != nil || !strings.Contains(r.Message.Text(), "You joined") {
						b.Fatalf("click not answered as a join: %q, %v", r.Message.Text(), err)
					}
					acks = append(acks, p.Snapshot().AckLatency())
				}
				// The queue's changes are over; the panel catches up.
				waiting, err := e.db.Waiting(e.ctx, q.ID)
				if err != nil {
					b.Fatal(err)
				}
				waits, err := e.db.RecentWaits(e.ctx, q.ID, 50)
				if err != nil {
					b.Fatal(err)
				}
				want := panel.Message(i18n.English(), q, waiting, waits).Embeds[0].Description
				e.panelIn(testChannel, "4v4", func(m fakediscord.Message) bool { return m.Embeds[0].Description == want })
				busy += time.Since(start)
				edits += e.panels.Stats().Edits + e.panels.Stats().Posts - before
			}
			b.StopTimer()
			slices.Sort(acks)
			b.ReportMetric(float64(edits)/busy.Seconds(), "edits/s")
			b.ReportMetric(float64(b.N*players)/busy.Seconds(), "changes/s")
			b.ReportMetric(float64(acks[len(acks)*99/100].Microseconds())/1000, "p99-ack-ms")
			b.ReportMetric(float64(acks[len(acks)-1].Microseconds())/1000, "max-ack-ms")
			b.ReportMetric(float64(e.fake.Edit429s()), "429s")
		})
	}
}
