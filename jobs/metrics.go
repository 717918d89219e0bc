package jobs

import (
	"context"
	"fmt"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// Metrics receives what the scheduler observes; *web.Metrics implements it.
// A nil Metrics in Options records nothing.
type Metrics interface {
	// ObserveJob counts one run of job with its outcome (ok, skipped,
	// error, panic) and duration.
	ObserveJob(job, outcome string, d time.Duration)
	// MatchesFormed counts n matches formed in a guild's queue.
	MatchesFormed(guildID, queue string, n int)
	// SetQueueSize records how many players wait in a guild's queue.
	SetQueueSize(guildID, queue string, n int)
}

// Job run outcomes reported to Metrics.ObserveJob.
const (
	// OutcomeOK is a run that finished without error.
	OutcomeOK = "ok"
	// OutcomeSkipped is a run that did nothing: another run, here or in
	// another process, had claimed the period.
	OutcomeSkipped = "skipped"
	// OutcomeError is a run that returned an error.
	OutcomeError = "error"
	// OutcomePanic is a run that panicked (the cron chain recovers it).
	OutcomePanic = "panic"
)

// runOnce runs j once, claimed or not, and reports the run to the metrics.
// It is the one place every run goes through: the cron entries, the
// catch-up at Start, Run and RunAll. A panic is reported and re-raised for
// the cron chain's Recover.
func (s *Scheduler) runOnce(ctx context.Context, j job) (ran bool, err error) {
	start := time.Now()
	defer func() {
		if s.opt.Metrics == nil {
			return
		}
		if r := recover(); r != nil {
			s.opt.Metrics.ObserveJob(j.name, OutcomePanic, time.Since(start))
			panic(r)
		}
		outcome := OutcomeOK
		switch {
		case err != nil:
			outcome = OutcomeError
		case !ran:
			outcome = OutcomeSkipped
		}
		s.opt.Metrics.ObserveJob(j.name, outcome, time.Since(start))
	}()
	return s.runJob(ctx, j)
}

// queueKey names one queue's gauge.
type queueKey struct{ guild, queue string }

// refreshQueueSizes sets the queue-size gauge of every queue with tickets,
// and zero for the queues that had tickets at the last refresh and have
// none now, so an emptied queue does not keep its last size. The
// matchmaking tick calls it after its pass.
func (s *Scheduler) refreshQueueSizes(ctx context.Context) error {
	if s.opt.Metrics == nil {
		return nil
	}
	sizes, err := s.svc.QueueSizes(ctx)
	if err != nil {
		return fmt.Errorf("jobs: queue sizes: %w", err)
	}
	now := make(map[queueKey]bool, len(sizes))
	for _, q := range sizes {
		k := queueKey{q.GuildID, q.Queue}
		now[k] = true
		s.opt.Metrics.SetQueueSize(k.guild, k.queue, q.Players)
	}
	s.sizesMu.Lock()
	defer s.sizesMu.Unlock()
	for k := range s.sized {
		if !now[k] {
			s.opt.Metrics.SetQueueSize(k.guild, k.queue, 0)
		}
	}
	s.sized = now
	return nil
}

// matchesFormed counts formed matches per guild and queue.
func (s *Scheduler) matchesFormed(formed []ladder.FormedMatch) {
	if s.opt.Metrics == nil {
		return
	}
	for _, f := range formed {
		s.opt.Metrics.MatchesFormed(f.Match.GuildID, f.Queue.Name, 1)
	}
}

// resultChanged tells Options.OnResult that a guild's leaderboard changed.
func (s *Scheduler) resultChanged(guildID string) {
	if s.opt.OnResult != nil {
		s.opt.OnResult(guildID)
	}
}
