package jobs

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/ladder"
)

// postWindow is how long after a season ends its standings may still be
// posted: a post that failed over a restart still goes out, and a database
// full of old seasons does not flood a channel the first time it runs.
const postWindow = 24 * time.Hour

// retryFailed is how long after a failed season close or standings post
// the seasons job tries it again: a database or Discord outage does not
// leave the season running for good or its table unposted, and a lasting
// failure is tried a few times an hour, not every minute.
const retryFailed = 5 * time.Minute

// SeasonDue returns when the season that started at started is due to
// close under schedule (a 5-field cron expression, UTC): the first
// scheduled time after its start. A season opened by hand a week before a
// scheduled time closes at that time; after a missed close the next season
// starts when the catch-up runs, and the schedule continues from there.
// The seasons job passes the later of the season's start and the time the
// schedule was set (Guild.SeasonScheduleAt): a schedule set mid-season
// first fires after it was set, as /config says, rather than at once for
// a time of it that had passed.
func SeasonDue(schedule string, started time.Time) (time.Time, error) {
	next, err := ladder.NextSeasonClose(schedule, started)
	if err == nil && next.IsZero() {
		err = ladder.Errorf(ladder.CodeInvalid, "the season schedule is off")
	}
	return next, err
}

// seasons closes every guild's season that is due by its schedule and
// posts the standings of seasons that closed (by schedule or by a
// moderator) and have not been posted yet. Each close and each post is
// claimed on its own, so processes racing on it do it once.
func (s *Scheduler) seasons(ctx context.Context, now time.Time) error {
	gs, err := s.svc.AllGuilds(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, g := range gs {
		if err := s.guildSeason(ctx, g, now); err != nil {
			errs = append(errs, fmt.Errorf("guild %s: %w", g.ID, err))
		}
	}
	return errors.Join(errs...)
}

func (s *Scheduler) guildSeason(ctx context.Context, g ladder.Guild, now time.Time) error {
	cur, err := s.svc.LatestSeason(ctx, g.ID)
	if err != nil {
		return err
	}
	if g.SeasonSchedule != "" && cur.Running() {
		from := cur.StartedAt
		if g.SeasonScheduleAt.After(from) {
			from = g.SeasonScheduleAt
		}
		due, err := SeasonDue(g.SeasonSchedule, from)
		if err != nil {
			// A bad schedule stops this guild's rollover only; say so loudly.
			s.log.Error("season schedule unusable", "guild_id", g.ID, "err", err)
		} else if !due.After(now) {
			if cur, err = s.closeDue(ctx, g, cur, due); err != nil {
				return err
			}
		}
	}
	// The season before the current one has just ended when the current
	// one is younger than the post window.
	if cur.Number > 1 && now.Sub(cur.StartedAt) < postWindow {
		return s.postSeason(ctx, g, cur.Number-1)
	}
	return nil
}

// closeDue closes the guild's season due at due, once across processes,
// and returns the season running afterwards.
func (s *Scheduler) closeDue(ctx context.Context, g ladder.Guild, cur ladder.Season, due time.Time) (ladder.Season, error) {
	job, period := jobSeasonClose+g.ID, due.UTC().Format(time.RFC3339)
	ok, err := s.svc.ClaimJobRetry(ctx, job, period, s.opt.Lease, retryFailed)
	if err != nil || !ok {
		return cur, err
	}
	r, err := s.svc.CloseSeasonDue(ctx, g.ID, due)
	s.finish(job, period, err)
	if err != nil {
		return cur, err
	}
	if r.AlreadyDone {
		return r.Started, nil
	}
	listed := 0
	for _, rs := range r.Standings {
		listed += len(rs)
	}
	s.log.Info("season closed", "guild_id", g.ID, "season", r.Ended.Number, "due", period,
		"late_s", int64(r.Ended.EndedAt.Sub(due)/time.Second), "listed", listed, "next", r.Started.Number)
	s.resultChanged(g.ID)
	return r.Started, nil
}

// postSeason posts the final standings of season number to the guild's
// announcement channel, once across processes, when the schedule closed it
// (a moderator's /mod season end posts its own). Checking on every run in
// the day after the close, not only right after it, posts a table whose
// process died between the close and the post.
func (s *Scheduler) postSeason(ctx context.Context, g ladder.Guild, number int) error {
	if s.poster == nil || g.AnnounceChannelID == "" {
		return nil
	}
	// Claim first: later runs stop at the claim, a cheap conflicting
	// insert, instead of reading the audit log every minute all day.
	job, period := jobSeasonPost+g.ID, strconv.Itoa(number)
	ok, err := s.svc.ClaimJobRetry(ctx, job, period, s.opt.Lease, retryFailed)
	if err != nil || !ok {
		return err
	}
	by, err := s.svc.SeasonEndedBy(ctx, g.ID, number)
	posted := 0
	switch {
	case ladder.ErrorCode(err) == ladder.CodeNotFound || (err == nil && by != ladder.SchedulerActor):
		err = nil // a moderator's close: /mod season end posted it
	case err == nil:
		posted, err = s.postStandings(ctx, g, number)
	}
	if posted > 0 {
		// Some queue's table went out: a retry would post it twice. The
		// error is still returned and logged.
		s.finish(job, period, nil)
	} else {
		s.finish(job, period, err)
	}
	return err
}

// postStandings posts the final table of each queue of season number and
// returns how many it posted.
func (s *Scheduler) postStandings(ctx context.Context, g ladder.Guild, number int) (int, error) {
	sts, err := s.svc.SeasonStandingsOf(ctx, g.ID, number)
	if err != nil {
		return 0, err
	}
	var errs []error
	posted := 0
	for _, st := range sts {
		_, err := s.send(ctx, g.AnnounceChannelID, commands.FinalStandings(commands.GuildLang(g), st))
		if err != nil {
			errs = append(errs, fmt.Errorf("post season %d standings of queue %s: %w", number, st.Queue.Name, err))
			continue
		}
		posted++
		s.log.Info("season standings posted", "guild_id", g.ID, "season", number, "queue", st.Queue.Name,
			"channel_id", g.AnnounceChannelID, "rows", len(st.Results))
	}
	return posted, errors.Join(errs...)
}
