package jobs_test

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestQueueExpiry leaves a lone player in the queue: the every-minute job
// keeps the ticket for the guild's 60 min timeout, then drops it and tells
// the player in the channel where they joined.
func TestQueueExpiry(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		start := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
		c := ladder.NewManualClock(start)
		rec := &poster{}
		p := newProc(t, testdb.DSN(t, b), c, rec)
		// The panels hear of the queue the job changed.
		var mu sync.Mutex
		var changed []string
		p.sched = jobs.New(p.svc, rec, slog.New(slog.DiscardHandler), jobs.Options{PostBackoff: time.Millisecond,
			OnQueue: func(g string) { mu.Lock(); changed = append(changed, g); mu.Unlock() }})
		told := func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), changed...) }
		setupGuild(t, p.svc, 5)
		if _, err := p.svc.JoinQueue(ctx, ladder.JoinRequest{GuildID: guild, UserID: user(1), Name: "one", ChannelID: channel}); err != nil {
			t.Fatalf("JoinQueue() = %v", err)
		}
		queued := func() bool {
			st, err := p.svc.QueueStatus(ctx, guild, user(1))
			if err != nil {
				t.Fatalf("QueueStatus() = %v", err)
			}
			return st.Ticket.ID != 0
		}
		c.Set(start.Add(59 * time.Minute))
		run(t, p, jobs.JobQueue)
		if !queued() || len(rec.notes()) != 0 || len(told()) != 0 {
			t.Fatalf("Got(queued at 59 min) = %v with %d notices, queue changes %v, want queued and none", queued(), len(rec.notes()), told())
		}
		c.Set(start.Add(61 * time.Minute))
		run(t, p, jobs.JobQueue)
		if queued() {
			t.Errorf("Got(queued at 61 min) = true, want false")
		}
		if got := told(); len(got) != 1 || got[0] != guild {
			t.Errorf("Got(OnQueue) = %v, want [%s]", got, guild)
		}
		ns := rec.notes()
		if len(ns) != 1 || ns[0].channel != channel || len(ns[0].msg.Mentions) != 1 || ns[0].msg.Mentions[0] != user(1) ||
			!strings.Contains(ns[0].msg.Content, "<@"+user(1)+">") || !strings.Contains(ns[0].msg.Content, "1 h") {
			t.Errorf("Got(notices) = %+v, want one to %s pinging %s after 1 h", ns, channel, user(1))
		}
	})
}
