package jobs

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// stale flags the players of every guild who have not played a rated match
// for the guild's stale_days (SPEC 4, daily), and prunes old runs of the
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
	if _, err := s.svc.PruneJobRuns(ctx, []string{JobConfirm, JobQueue, JobSeasons}, s.opt.KeepRuns); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// confirm confirms the reports whose confirm window has passed (SPEC 5)
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
		players := append(append([]string{}, m.Teams[0]...), m.Teams[1]...)
		text := fmt.Sprintf("Match #%d was confirmed automatically: nobody answered the report in time. %s", m.ID, outcome(m.Winner))
		s.notify(ctx, m.GuildID, m.ChannelID, players, text)
	}
	return err
}

func outcome(winner int) string {
	switch winner {
	case 1, 2:
		return fmt.Sprintf("Team %d won.", winner)
	case ladder.Draw:
		return "It was a draw."
	}
	return ""
}

// expireQueue drops queue tickets that waited past the guild's queue
// timeout (SPEC 3) and tells their players where they queued.
func (s *Scheduler) expireQueue(ctx context.Context, _ time.Time) error {
	ts, err := s.svc.ExpireQueue(ctx)
	if err != nil {
		return err
	}
	for _, t := range ts {
		s.log.Info("queue ticket expired", "guild_id", t.GuildID, "queue_id", t.QueueID, "players", len(t.UserIDs))
		if t.ChannelID == "" {
			continue
		}
		waited := t.ExpiresAt.Sub(t.JoinedAt).Round(time.Minute)
		text := fmt.Sprintf("%s: you left the queue after waiting %s without a match. Use /queue join to queue again.",
			mentionList(t.UserIDs), waitText(waited))
		s.notify(ctx, t.GuildID, t.ChannelID, t.UserIDs, text)
	}
	return nil
}

func mentionList(ids []string) string {
	ms := make([]string, len(ids))
	for i, id := range ids {
		ms[i] = "<@" + id + ">"
	}
	return strings.Join(ms, ", ")
}

func waitText(d time.Duration) string {
	if d%time.Hour == 0 && d >= time.Hour {
		return fmt.Sprintf("%d h", int(d/time.Hour))
	}
	return fmt.Sprintf("%d min", int(d/time.Minute))
}

// notify posts a notice; a failure is logged, the action is already stored.
func (s *Scheduler) notify(ctx context.Context, guildID, channelID string, users []string, text string) {
	if s.poster == nil {
		return
	}
	err := s.retry(ctx, func() error { return s.poster.Notify(ctx, channelID, users, text) })
	if err != nil {
		s.log.Warn("notice not posted", "guild_id", guildID, "channel_id", channelID, "err", err)
	}
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
