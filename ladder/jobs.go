package ladder

import (
	"context"
	"fmt"
	"time"
)

// JobLeases is what a Store offers beyond ClaimJob so that scheduled jobs
// survive a process dying mid-run (package storage implements it).
type JobLeases interface {
	// ReclaimJob takes over a claimed run of (job, period) that has not
	// finished and was started before staleBefore; one caller wins.
	ReclaimJob(ctx context.Context, job, period string, staleBefore, at time.Time) (bool, error)
	// PruneJobRuns deletes finished runs of jobs started before before.
	PruneJobRuns(ctx context.Context, jobs []string, before time.Time) (int64, error)
}

// ClaimJobLease claims one run of job for period, as ClaimJob does, and
// also takes over a run claimed more than lease ago that never finished:
// its process died, and the period would otherwise be lost (SPEC 4 catches
// up on missed periods). A store without JobLeases only claims.
func (s *Service) ClaimJobLease(ctx context.Context, job, period string, lease time.Duration) (bool, error) {
	now := s.now()
	ok, err := s.store.ClaimJob(ctx, job, period, now)
	if err != nil || ok {
		if err != nil {
			err = fmt.Errorf("ladder: claim job %s/%s: %w", job, period, err)
		}
		return ok, err
	}
	l, isLease := s.store.(JobLeases)
	if !isLease {
		return false, nil
	}
	ok, err = l.ReclaimJob(ctx, job, period, now.Add(-lease), now)
	if err != nil {
		return false, fmt.Errorf("ladder: reclaim job %s/%s: %w", job, period, err)
	}
	return ok, nil
}

// PruneJobRuns deletes the finished runs of jobs started more than keep ago
// and returns how many; it does nothing on a store without JobLeases.
func (s *Service) PruneJobRuns(ctx context.Context, jobs []string, keep time.Duration) (int64, error) {
	l, ok := s.store.(JobLeases)
	if !ok {
		return 0, nil
	}
	n, err := l.PruneJobRuns(ctx, jobs, s.now().Add(-keep))
	if err != nil {
		return 0, fmt.Errorf("ladder: prune job runs: %w", err)
	}
	return n, nil
}

// Now returns the Service's clock reading in UTC, so that jobs name their
// periods by the same clock the Service acts on.
func (s *Service) Now() time.Time { return s.now() }
