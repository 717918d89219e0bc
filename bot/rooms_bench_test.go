package bot

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/rooms"
)

// BenchmarkRoomOpen opens b.N thread rooms of 2v2 matches at once through
// the real bot against the fake Discord (default buckets: 50 requests a
// second per route), on SQLite, and reports rooms a second and the 429s
// discordgo ran into (want 0: it paces itself by the headers).
func BenchmarkRoomOpen(b *testing.B) {
	r := newRoomEnv(b, "sqlite:"+filepath.Join(b.TempDir(), "rooms.db"))
	formed := make([]ladder.FormedMatch, b.N)
	for i := range b.N {
		id := func(k int) string { return fmt.Sprintf("8%017d", 4*i+k+1) }
		formed[i] = r.newMatch([2][]string{{id(0), id(1)}, {id(2), id(3)}}, "bench")
	}
	b.ResetTimer()
	done := make(chan string)
	for _, f := range formed {
		go func() { done <- r.env.rooms.Open(r.ctx, f, r.queueCh) }()
	}
	for range b.N {
		if ch := <-done; ch == r.queueCh {
			b.Error("a room fell back to the queue channel")
		}
	}
	b.StopTimer()
	calls, n429 := r.fake.ChannelRequests()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rooms/s")
	b.ReportMetric(float64(calls)/float64(b.N), "calls/room")
	b.ReportMetric(float64(n429), "429s")
	var open int
	for _, f := range formed {
		if got, err := r.db.Room(r.ctx, f.Match.ID); err == nil && got.State == rooms.StateOpen {
			open++
		}
	}
	if open != b.N {
		b.Errorf("Got(open rooms) = %d, want %d", open, b.N)
	}
}
