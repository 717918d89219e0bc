package jobs

import (
	"context"
	"errors"
	"fmt"
	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/integrity"
	"log/slog"
	"sync"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/rooms"
)

// Job names: the job column of job_runs.
const (
	JobStale   = "stale"
	JobConfirm = "confirm"
	JobQueue   = "queue-expiry"
	JobSeasons = "seasons"
	JobWeekly  = "weekly-top"
	// Per-guild claims of the seasons job: the close of one due time and
	// the post of one season's standings.
	jobSeasonClose = "season-close:"
	jobSeasonPost  = "season-post:"
	// The weekly top's claim of one queue's post in one week.
	jobWeeklyPost = "weekly-top:"
)

// Poster delivers the jobs' messages to Discord; package bot implements
// it. The jobs render every message with package commands, where all the
// bot's Discord text is written, so posting needs one method whatever the
// message is. A nil Poster posts nothing (web-only processes still run the
// jobs).
type Poster interface {
	// Post sends a rendered message to a channel, pinging only msg.Mentions,
	// or edits message msg.Edit there; it returns the message's ID.
	Post(ctx context.Context, channelID string, msg commands.Reply) (string, error)
}

// Options tune a Scheduler; zero values are the defaults.
type Options struct {
	// Lease is how long a claimed run may stay unfinished before another
	// process takes it over as dead (default 10 min).
	Lease time.Duration
	// PostAttempts is how many times a post is tried (default 3), with
	// PostBackoff (default 2 s) doubling between tries.
	PostAttempts int
	PostBackoff  time.Duration
	// KeepRuns is how long finished runs of the every-minute jobs stay in
	// job_runs (default 48 h); the daily job prunes older ones.
	KeepRuns time.Duration
	// Metrics receives job runs, formed matches and queue sizes (nil: none).
	Metrics Metrics
	// OnResult is called with a guild whose ratings or standings a job
	// changed (auto-confirmed results, a season close, stale flags), for
	// example to drop cached leaderboard pages; nil: nobody is told.
	OnResult func(guildID string)
	// OnQueue is called with a guild whose queue a job changed (matches
	// formed, tickets expired, players requeued by a failed ready check),
	// so its queue panels show it at once; nil: nobody is told.
	OnQueue func(guildID string)
	// Roles makes the division-role calls (the bot); nil runs
	// no role jobs.
	Roles RoleClient
	// RoleInterval is how often JobRoles runs (default 1 min); one process
	// claims each interval.
	RoleInterval time.Duration
	// ReconcileInterval is how often JobRoleReconcile runs: 0 or 24 h is
	// daily at 03:30 UTC, anything else every interval; one process claims
	// each.
	ReconcileInterval time.Duration
	// Rooms opens the rooms of the matches the matchmaking pass forms and
	// is JobRooms' work; nil announces matches in the queue's channel and
	// runs no rooms job.
	Rooms *rooms.Manager
	// Formats runs map picks: the ready-checks job closes votes and makes
	// bans whose time ran out, and starts the picks of matches the
	// matchmaking pass forms; nil picks no maps.
	Formats *formats.Service
	// Joins empties queues whose open hours ended (JobQueueClose); nil
	// runs no such job's work.
	Joins Closer
	// Integrity folds the log into integrity flags and lists the flags
	// to post (JobIntegrity); nil runs no integrity job.
	Integrity *integrity.Service
	// Community, when set, posts a prediction invitation beside each
	// formed match of a queue with predictions on.
	Community *community.Service
}

// job is one scheduled job: its cron spec, how its period is named from
// the clock (nil: runs unclaimed, every tick), and its work.
type job struct {
	name   string
	spec   string
	period func(time.Time) string
	run    func(ctx context.Context, now time.Time) error
}

// Scheduler runs the jobs on their schedule. Create it with New, then
// Start and Stop it once.
type Scheduler struct {
	svc    *ladder.Service
	poster Poster
	log    *slog.Logger
	opt    Options
	jobs   []job

	cron    *cron.Cron
	entries []cron.EntryID
	base    context.Context
	cancel  context.CancelFunc
	catchUp sync.WaitGroup
	// stopping is closed when Stop begins: jobs that can leave the rest of
	// their work to the next run (the buttons job) stop at once instead of
	// holding the shutdown.
	stopping     chan struct{}
	stoppingOnce sync.Once

	sizesMu sync.Mutex
	sized   map[queueKey]bool // queues given a size at the last refresh
}

// New returns a scheduler of the ladder's jobs over svc, posting through
// poster (nil: no posts) and logging to log.
func New(svc *ladder.Service, poster Poster, log *slog.Logger, opt Options) *Scheduler {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opt.Lease <= 0 {
		opt.Lease = 10 * time.Minute
	}
	if opt.PostAttempts <= 0 {
		opt.PostAttempts = 3
	}
	if opt.PostBackoff <= 0 {
		opt.PostBackoff = 2 * time.Second
	}
	if opt.KeepRuns <= 0 {
		opt.KeepRuns = 48 * time.Hour
	}
	s := &Scheduler{svc: svc, poster: poster, log: log, opt: opt, stopping: make(chan struct{})}
	s.jobs = []job{
		{JobStale, "0 0 * * *", day, s.stale},
		{JobConfirm, "* * * * *", minute, s.confirm},
		{JobQueue, "* * * * *", minute, s.expireQueue},
		{JobQueueClose, "* * * * *", minute, s.closeQueues},
		{JobSeasons, "* * * * *", minute, s.seasons},
		{JobWeekly, weeklySpec, nil, s.weeklyTop},       // claims its week itself, see weeklyTop
		{JobMatchmake, matchmakeSpec, nil, s.matchmake}, // nil period: unclaimed, see matchmake
		{JobReady, readySpec, nil, s.expireReady},       // unclaimed, see JobReady
		{JobAbandon, "* * * * *", minute, s.abandon},
		{JobButtons, "* * * * *", minute, s.closeButtons},
		everyJob(job{JobRoles, "* * * * *", minute, s.roles}, time.Minute, opt.RoleInterval),
		{JobRooms, roomsSpec, nil, s.rooms}, // unclaimed, see JobRooms
		{JobIntegrity, "* * * * *", minute, s.integrity},
		everyJob(job{JobRoleReconcile, "30 3 * * *", reconcileDay, s.reconcileRoles}, 24*time.Hour, opt.ReconcileInterval),
	}
	return s
}

// queueChanged tells OnQueue that a guild's queue changed.
func (s *Scheduler) queueChanged(guildID string) {
	if s.opt.OnQueue != nil {
		s.opt.OnQueue(guildID)
	}
}

func day(t time.Time) string    { return t.UTC().Format("2006-01-02") }
func minute(t time.Time) string { return t.UTC().Format("2006-01-02T15:04") }

// week names an ISO week, e.g. 2026-W47.
func week(t time.Time) string {
	y, w := t.UTC().ISOWeek()
	return fmt.Sprintf("%d-W%02d", y, w)
}

// Jobs returns the names of the scheduled jobs.
func (s *Scheduler) Jobs() []string {
	out := make([]string, len(s.jobs))
	for i, j := range s.jobs {
		out[i] = j.name
	}
	return out
}

// Start schedules the jobs in UTC and runs each once at once, in the
// background, to catch up on a period missed while down. ctx's values
// reach the jobs; its end does not stop them (Stop does).
func (s *Scheduler) Start(ctx context.Context) error {
	if s.cron != nil {
		return errors.New("jobs: start: already started")
	}
	s.base, s.cancel = context.WithCancel(context.WithoutCancel(ctx))
	logger := cronLogger{s.log}
	c := cron.New(
		cron.WithLocation(time.UTC),
		cron.WithParser(cron.NewParser(cron.Minute|cron.Hour|cron.Dom|cron.Month|cron.Dow|cron.Descriptor)),
		cron.WithLogger(logger),
		cron.WithChain(cron.SkipIfStillRunning(logger), cron.Recover(logger)),
	)
	ids := make([]cron.EntryID, len(s.jobs))
	for i, j := range s.jobs {
		id, err := c.AddFunc(j.spec, func() { s.runLogged(s.base, j) })
		if err != nil {
			return fmt.Errorf("jobs: start: schedule %s: %w", j.name, err)
		}
		ids[i] = id
	}
	s.cron, s.entries = c, ids
	c.Start()
	for _, id := range ids {
		// The wrapped job goes through the chain, so a catch-up run and
		// the first tick never overlap and a panic is recovered.
		w := c.Entry(id).WrappedJob
		s.catchUp.Add(1)
		go func() { defer s.catchUp.Done(); w.Run() }()
	}
	s.log.Info("scheduled jobs started", "jobs", len(s.jobs))
	return nil
}

// Stop stops scheduling and waits for running jobs to finish; when ctx ends
// first it cancels them and returns ctx's error.
func (s *Scheduler) Stop(ctx context.Context) error {
	if s.cron == nil {
		return nil
	}
	s.stoppingOnce.Do(func() { close(s.stopping) })
	stopped := s.cron.Stop()
	done := make(chan struct{})
	go func() { <-stopped.Done(); s.catchUp.Wait(); close(done) }()
	select {
	case <-done:
		s.cancel()
		s.log.Info("scheduled jobs stopped")
		return nil
	case <-ctx.Done():
		s.cancel()
		<-done
		return fmt.Errorf("jobs: stop: %w", ctx.Err())
	}
}

// Run runs the job called name once for the clock's current period, as
// the schedule would: claimed first, so a period another process already
// ran is skipped (ran false). Tests move the clock and call it.
func (s *Scheduler) Run(ctx context.Context, name string) (ran bool, err error) {
	for _, j := range s.jobs {
		if j.name == name {
			return s.runOnce(ctx, j)
		}
	}
	return false, fmt.Errorf("jobs: run: no job %q", name)
}

// RunAll runs every job once for the current period, in schedule order,
// and returns the first error.
func (s *Scheduler) RunAll(ctx context.Context) error {
	var first error
	for _, j := range s.jobs {
		if _, err := s.runOnce(ctx, j); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// runLogged is what the cron entry runs: one claimed run, logged once.
func (s *Scheduler) runLogged(ctx context.Context, j job) {
	start := time.Now()
	ran, err := s.runOnce(ctx, j)
	if err != nil {
		s.log.Error("job failed", "job", j.name, "err", err, "duration_ms", time.Since(start).Milliseconds())
		return
	}
	if ran {
		s.log.Debug("job ran", "job", j.name, "duration_ms", time.Since(start).Milliseconds())
	}
}

// runJob claims the job's current period and runs it; ran is false when
// another run (here or in another process) has the period.
func (s *Scheduler) runJob(ctx context.Context, j job) (ran bool, err error) {
	now := s.svc.Now()
	if j.period == nil {
		return runUnclaimed(ctx, j, now)
	}
	period := j.period(now)
	ok, err := s.svc.ClaimJobLease(ctx, j.name, period, s.opt.Lease)
	if err != nil || !ok {
		return false, err
	}
	defer func() {
		// A panic still marks the run finished, with its message, before
		// Recover logs it.
		if r := recover(); r != nil {
			s.finish(j.name, period, fmt.Errorf("panic: %v", r))
			panic(r)
		}
	}()
	err = j.run(ctx, now)
	s.finish(j.name, period, err)
	if err != nil {
		return true, fmt.Errorf("jobs: %s %s: %w", j.name, period, err)
	}
	return true, nil
}

// finish records the end of a claimed run; it outlives a cancelled run's
// context so the row is not left looking like a dead process's.
func (s *Scheduler) finish(name, period string, err error) {
	text := ""
	if err != nil {
		text = err.Error()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if ferr := s.svc.FinishJob(ctx, name, period, text); ferr != nil {
		s.log.Error("recording job end failed", "job", name, "period", period, "err", ferr)
	}
}

// cronLogger adapts slog to cron's logger: cron's chatty Info lines (every
// wake-up) go to Debug, its errors (recovered panics) to Error.
type cronLogger struct{ l *slog.Logger }

// Info implements cron.Logger.
func (c cronLogger) Info(msg string, keysAndValues ...any) {
	c.l.Debug("cron: "+msg, keysAndValues...)
}

// Error implements cron.Logger.
func (c cronLogger) Error(err error, msg string, keysAndValues ...any) {
	c.l.Error("cron: "+msg, append([]any{"err", err}, keysAndValues...)...)
}
