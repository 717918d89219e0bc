package storage

import (
	"context"
	"time"
)

// ReclaimJob takes over a claimed job run that never finished and was
// started before staleBefore: the process that claimed it died (docs/spec.md 4, a
// missed run is caught up). It answers true to one caller only, because the
// update matches the old started_at and sets a new one in one statement.
// It implements ladder.JobLeases.
func (t *tx) ReclaimJob(ctx context.Context, job, period string, staleBefore, at time.Time) (bool, error) {
	res := t.q(ctx).Model(&jobRunRow{}).
		Where("job = ? AND period = ? AND finished_at IS NULL AND started_at < ?", job, period, staleBefore.UTC()).
		Updates(map[string]any{"started_at": at.UTC(), "error": ""})
	if res.Error != nil {
		return false, wrap("reclaim job", res.Error, "")
	}
	return res.RowsAffected == 1, nil
}

// RetryJob takes over a job run that finished with an error and was
// started before failedBefore, so a failed run is tried again; like
// ReclaimJob it answers true to one caller only. It implements
// ladder.JobLeases.
func (t *tx) RetryJob(ctx context.Context, job, period string, failedBefore, at time.Time) (bool, error) {
	res := t.q(ctx).Model(&jobRunRow{}).
		Where("job = ? AND period = ? AND finished_at IS NOT NULL AND error <> '' AND started_at < ?", job, period, failedBefore.UTC()).
		Updates(map[string]any{"started_at": at.UTC(), "finished_at": nil, "error": ""})
	if res.Error != nil {
		return false, wrap("retry job", res.Error, "")
	}
	return res.RowsAffected == 1, nil
}

// PruneJobRuns deletes the finished runs of jobs started before before and
// returns how many it deleted; the every-minute jobs would otherwise add
// 1,440 rows a day. It implements ladder.JobLeases.
func (t *tx) PruneJobRuns(ctx context.Context, jobs []string, before time.Time) (int64, error) {
	if len(jobs) == 0 {
		return 0, nil
	}
	res := t.q(ctx).Where("job IN ? AND started_at < ? AND finished_at IS NOT NULL", jobs, before.UTC()).Delete(&jobRunRow{})
	if res.Error != nil {
		return 0, wrap("prune job runs", res.Error, "")
	}
	return res.RowsAffected, nil
}

// JobRun is one row of job_runs, for tests and operators.
type JobRun struct {
	Job, Period string
	StartedAt   time.Time
	// FinishedAt is the zero time while the run is going (or its process died).
	FinishedAt time.Time
	Error      string
}

// JobRuns lists the runs of job, oldest period first.
func (db *DB) JobRuns(ctx context.Context, job string) ([]JobRun, error) {
	var rows []jobRunRow
	if err := db.q(ctx).Where("job = ?", job).Order("period").Find(&rows).Error; err != nil {
		return nil, wrap("job runs", err, "")
	}
	out := make([]JobRun, len(rows))
	for i, r := range rows {
		out[i] = JobRun{Job: r.Job, Period: r.Period, StartedAt: r.StartedAt.UTC(), FinishedAt: tv(r.FinishedAt), Error: r.Error}
	}
	return out, nil
}
