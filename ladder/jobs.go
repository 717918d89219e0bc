package ladder

import (
	"context"
	"fmt"
	"time"
)

// ClaimJobLease claims one run of job for period, as ClaimJob does, and
// also takes over a run claimed more than lease ago that never finished:
// its process died, and the period would otherwise be lost (docs/spec.md 4 catches
// up on missed periods).
func (s *Service) ClaimJobLease(ctx context.Context, job, period string, lease time.Duration) (bool, error) {
	now := s.now()
	ok, err := s.store.ClaimJob(ctx, job, period, now)
	if err != nil || ok {
		if err != nil {
			err = fmt.Errorf("ladder: claim job %s/%s: %w", job, period, err)
		}
		return ok, err
	}
	ok, err = s.store.ReclaimJob(ctx, job, period, now.Add(-lease), now)
	if err != nil {
		return false, fmt.Errorf("ladder: reclaim job %s/%s: %w", job, period, err)
	}
	return ok, nil
}

// ClaimJobRetry is ClaimJobLease that also takes over a run that finished
// with an error and started more than retry ago: for a run whose failure
// leaves work undone that no later period does (a season's close, the post
// of its standings), so it is tried again rather than never.
func (s *Service) ClaimJobRetry(ctx context.Context, job, period string, lease, retry time.Duration) (bool, error) {
	ok, err := s.ClaimJobLease(ctx, job, period, lease)
	if err != nil || ok {
		return ok, err
	}
	now := s.now()
	ok, err = s.store.RetryJob(ctx, job, period, now.Add(-retry), now)
	if err != nil {
		return false, fmt.Errorf("ladder: retry job %s/%s: %w", job, period, err)
	}
	return ok, nil
}

// PruneJobRuns deletes the finished runs of jobs started more than keep ago
// and returns how many.
func (s *Service) PruneJobRuns(ctx context.Context, jobs []string, keep time.Duration) (int64, error) {
	n, err := s.store.PruneJobRuns(ctx, jobs, s.now().Add(-keep))
	if err != nil {
		return 0, fmt.Errorf("ladder: prune job runs: %w", err)
	}
	return n, nil
}

// Now returns the Service's clock reading in UTC, so that jobs name their
// periods by the same clock the Service acts on.
func (s *Service) Now() time.Time { return s.now() }

// JobStore claims runs of scheduled jobs once across replicas (docs/spec.md 4), and
// takes over a run whose process died mid-run.
type JobStore interface {
	// ClaimJob inserts job_runs(job, period) and reports whether this caller
	// won it; a second claim of the same period answers false.
	ClaimJob(ctx context.Context, job, period string, at time.Time) (bool, error)
	// FinishJob records the end of a claimed run; errText is "" on success.
	FinishJob(ctx context.Context, job, period, errText string, at time.Time) error
	// ReclaimJob takes over a claimed run of (job, period) that has not
	// finished and was started before staleBefore; one caller wins.
	ReclaimJob(ctx context.Context, job, period string, staleBefore, at time.Time) (bool, error)
	// RetryJob takes over a run of (job, period) that finished with an
	// error and was started before failedBefore; one caller wins.
	RetryJob(ctx context.Context, job, period string, failedBefore, at time.Time) (bool, error)
	// PruneJobRuns deletes finished runs of jobs started before before.
	PruneJobRuns(ctx context.Context, jobs []string, before time.Time) (int64, error)
}
