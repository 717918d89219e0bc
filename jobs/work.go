package jobs

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/commands"
)

// stale flags the players of every guild who have not played a rated match
// for the guild's stale_days (docs/spec.md 4, daily), and prunes old runs of the
// every-minute jobs.
func (s *Scheduler) stale(ctx context.Context, _ time.Time) error {
	gs, err := s.svc.AllGuilds(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, g := range gs {
		n, err := s.svc.MarkStale(ctx, g.ID)
		if err != nil {
			errs = append(errs, fmt.Errorf("guild %s: %w", g.ID, err))
			continue
		}
		if n > 0 {
			s.log.Info("players flagged stale", "guild_id", g.ID, "players", n, "stale_days", g.StaleDays)
			s.resultChanged(g.ID)
		}
	}
	if _, err := s.svc.PruneJobRuns(ctx, s.prunable(), s.opt.KeepRuns); err != nil {
		errs = append(errs, err)
	}
	if _, err := s.svc.PruneEvents(ctx); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// prunable names the claimed jobs whose periods are shorter than KeepRuns
// (every minute, or an interval): their finished runs are deleted once
// older than KeepRuns, when their periods are long past. A hand-kept list
// left out the jobs added since (abandon, integrity), whose rows grew by
// 1,440 a day each. Daily and weekly claims stay: a restart later in the
// week must find the week's weekly top claimed.
func (s *Scheduler) prunable() []string {
	var out []string
	for _, j := range s.jobs {
		if j.period == nil {
			continue
		}
		var every time.Duration
		switch {
		case j.spec == "* * * * *":
			every = time.Minute
		case strings.HasPrefix(j.spec, "@every "):
			every, _ = time.ParseDuration(strings.TrimPrefix(j.spec, "@every "))
		}
		if every > 0 && every < s.opt.KeepRuns {
			out = append(out, j.name)
		}
	}
	return out
}

// confirm confirms the reports whose confirm window has passed (docs/spec.md 5)
// and tells the match's channel.
func (s *Scheduler) confirm(ctx context.Context, _ time.Time) error {
	rs, err := s.svc.ConfirmExpired(ctx)
	for _, r := range rs {
		m := r.Match
		s.log.Info("report auto-confirmed", "guild_id", m.GuildID, "match_id", m.ID)
		s.resultChanged(m.GuildID)
		if m.ChannelID == "" {
			continue
		}
		s.post(ctx, m.GuildID, m.ChannelID, commands.AutoConfirmed(s.lang(ctx, m.GuildID), m))
	}
	return err
}

// expireQueue drops queue tickets that waited past the guild's queue
// timeout (docs/spec.md 3) and tells their players where they queued.
func (s *Scheduler) expireQueue(ctx context.Context, _ time.Time) error {
	ts, err := s.svc.ExpireQueue(ctx)
	if err != nil {
		return err
	}
	for _, t := range ts {
		s.log.Info("queue ticket expired", "guild_id", t.GuildID, "queue_id", t.QueueID, "players", len(t.UserIDs))
		s.queueChanged(t.GuildID)
		if t.ChannelID == "" {
			continue
		}
		s.post(ctx, t.GuildID, t.ChannelID, commands.QueueExpired(s.lang(ctx, t.GuildID), t))
	}
	return nil
}

// post posts a notice; a failure is logged, the action is already stored.
func (s *Scheduler) post(ctx context.Context, guildID, channelID string, msg commands.Reply) {
	if s.poster == nil {
		return
	}
	if _, err := s.send(ctx, channelID, msg); err != nil {
		s.log.Warn("notice not posted", "guild_id", guildID, "channel_id", channelID, "err", err)
	}
}

// send posts msg (retried) and returns the message's ID.
func (s *Scheduler) send(ctx context.Context, channelID string, msg commands.Reply) (string, error) {
	var id string
	err := s.retry(ctx, func() (err error) {
		id, err = s.poster.Post(ctx, channelID, msg)
		return err
	})
	return id, err
}

// retry calls f up to PostAttempts times with doubling backoff.
func (s *Scheduler) retry(ctx context.Context, f func() error) error {
	wait := s.opt.PostBackoff
	var err error
	for attempt := range s.opt.PostAttempts {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return errors.Join(err, ctx.Err())
			case <-time.After(wait):
			}
			wait *= 2
		}
		if err = f(); err == nil {
			return nil
		}
	}
	return err
}
