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

// weeklyTopSize is how many players the weekly post lists (docs/spec.md 6).
const weeklyTopSize = 10

// weeklySpec is how often the weekly top looks at its week: the week's
// posts go out at its first run, Monday 00:00 UTC, and a run that failed
// is taken over by a run more than 5 minutes (retryFailed) later.
const weeklySpec = "*/5 * * * *"

// weeklyTop posts each queue's top 10 to the announcement channel of the
// guilds that turned the weekly post on (docs/spec.md 6, Monday 00:00
// UTC). The week is claimed once across processes, so the post goes out
// once a week however many processes run and however often the job looks;
// started later in the week, it posts that week's table late rather than
// not at all, and a guild that turns the post on after the week's run
// gets its first post the next Monday. Each queue's post is claimed on
// its own: when Discord refuses one (an outage, a deleted channel), the
// week's run ends with the error and is taken over by a run more than 5
// minutes later, which posts what failed and not again what went out.
func (s *Scheduler) weeklyTop(ctx context.Context, now time.Time) error {
	if s.poster == nil {
		return nil
	}
	period := week(now)
	ok, err := s.svc.ClaimJobRetry(ctx, JobWeekly, period, s.opt.Lease, retryFailed)
	if err != nil || !ok {
		return err
	}
	err = s.postWeekly(ctx, period)
	s.finish(JobWeekly, period, err)
	return err
}

// postWeekly posts the week's tables not posted yet.
func (s *Scheduler) postWeekly(ctx context.Context, period string) error {
	gs, err := s.svc.AllGuilds(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, g := range gs {
		if !g.WeeklyTop || g.AnnounceChannelID == "" {
			continue
		}
		qs, err := s.svc.Queues(ctx, g.ID)
		if err != nil {
			errs = append(errs, fmt.Errorf("guild %s: %w", g.ID, err))
			continue
		}
		for _, q := range qs {
			if err := s.postQueueWeekly(ctx, g, q, period); err != nil {
				errs = append(errs, fmt.Errorf("guild %s queue %s: %w", g.ID, q.Name, err))
			}
		}
	}
	return errors.Join(errs...)
}

// postQueueWeekly posts one queue's top 10 of the week, once: its claim
// is taken over only when the post failed.
func (s *Scheduler) postQueueWeekly(ctx context.Context, g ladder.Guild, q ladder.Queue, period string) error {
	job := jobWeeklyPost + g.ID + ":" + strconv.FormatInt(q.ID, 10)
	ok, err := s.svc.ClaimJobRetry(ctx, job, period, s.opt.Lease, retryFailed)
	if err != nil || !ok {
		return err
	}
	err = s.postTop(ctx, g, q)
	s.finish(job, period, err)
	return err
}

func (s *Scheduler) postTop(ctx context.Context, g ladder.Guild, q ladder.Queue) error {
	page, err := s.svc.Leaderboard(ctx, ladder.LeaderboardQuery{GuildID: g.ID, Queue: q.Name, Limit: weeklyTopSize})
	if err != nil {
		return err
	}
	if len(page.Standings) == 0 {
		return nil
	}
	page.Next = ""
	if _, err := s.send(ctx, g.AnnounceChannelID, commands.WeeklyTop(commands.GuildLang(g), page)); err != nil {
		return fmt.Errorf("post weekly top: %w", err)
	}
	return nil
}
