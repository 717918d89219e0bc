package jobs

import (
	"context"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/ladder"
)

// Job names of the match lobby.
const (
	// JobReady closes ready checks whose deadline passed. Like the
	// matchmaking pass it claims no job_runs row: a 120 s window wants a
	// tick of seconds, not minutes, and every step is safe to repeat
	// across processes (ladder.Service.ExpireReadyChecks locks the match
	// row and moves the check out of pending with a conditional update, so
	// a racing click or another process's run leaves it nothing to do).
	JobReady = "ready-checks"
	// JobAbandon cancels open matches nobody reported within their
	// queue's abandon_after; a claimed run per minute.
	JobAbandon = "abandon"
)

// readySpec is how often ready deadlines are looked at: a player who
// missed the check waits at most this long past the deadline to hear it.
const readySpec = "@every 5s"

// expireReady fails the ready checks that ran out — also those that ran
// out while every process was down, since the checks are rows — and tells
// each match's channel who went back to the queue and who got a cooldown.
func (s *Scheduler) expireReady(ctx context.Context, _ time.Time) error {
	if s.poster == nil {
		// As with the matchmaking pass: a process that cannot tell the
		// players leaves the checks to the bot processes.
		return nil
	}
	rs, err := s.svc.ExpireReadyChecks(ctx)
	for _, r := range rs {
		m := r.Match
		s.log.Info("ready check failed at its deadline", "guild_id", m.GuildID, "match_id", m.ID,
			"requeued", len(r.Requeued), "penalised", len(r.Penalised))
		s.readyFailed(ctx, r)
		s.queueChanged(m.GuildID)
	}
	if err != nil {
		return err
	}
	// Captains' picks that ran out are made for them on the same tick.
	ds, err := s.svc.ExpireDraftPicks(ctx)
	for _, r := range ds {
		m := r.Match
		s.log.Info("draft pick made at its deadline", "guild_id", m.GuildID, "match_id", m.ID,
			"picked", len(r.Picked), "draft", r.Draft.State)
		l := s.lang(ctx, m.GuildID)
		s.showInPlace(ctx, m, commands.DraftProgress(l, r, s.queueName(ctx, m)))
		if ping, ok := commands.TurnPing(l, r); ok && m.ChannelID != "" {
			s.post(ctx, m.GuildID, m.ChannelID, ping)
		}
		if r.Draft.State == ladder.DraftDone {
			s.startMaps(ctx, r.Match, m.ChannelID)
			if ch, p, ok := commands.DraftedPredictionPost(ctx, s.opt.Community, s.svc, l, r.Match, s.svc.Now()); ok {
				s.post(ctx, m.GuildID, ch, p)
			}
		}
	}
	if err != nil {
		return err
	}
	// Map votes and bans whose time ran out, on the same tick.
	if err := s.expireMaps(ctx); err != nil {
		return err
	}
	// No-show reports confirm themselves at their deadline on the same tick.
	ns, err := s.svc.ExpireNoShows(ctx)
	for _, r := range ns {
		m := r.Match
		s.log.Info("no-show confirmed at its deadline", "guild_id", m.GuildID, "match_id", m.ID, "penalised", len(r.Penalised))
		if m.ChannelID != "" {
			s.post(ctx, m.GuildID, m.ChannelID, commands.NoShowConfirmed(s.lang(ctx, m.GuildID), r))
		}
	}
	return err
}

// readyFailed shows a ready check that ran out in place of the match's
// announcement, whose Ready buttons would otherwise stay live, as a Not
// ready click does.
func (s *Scheduler) readyFailed(ctx context.Context, r ladder.ReadyResult) {
	s.showInPlace(ctx, r.Match, commands.ReadyFailed(s.lang(ctx, r.Match.GuildID), r))
}

// queueName is the name of m's queue for a message about it; "" when it
// cannot be read (the message then names no queue).
func (s *Scheduler) queueName(ctx context.Context, m ladder.Match) string {
	qs, err := s.svc.Queues(ctx, m.GuildID)
	if err == nil {
		for _, q := range qs {
			if q.ID == m.QueueID {
				return q.Name
			}
		}
	}
	return ""
}

// showInPlace shows msg as the match's announcement, edited in place as
// a click would; as a new message in the match's channel when the
// announcement is unknown or cannot be edited (deleted by hand).
func (s *Scheduler) showInPlace(ctx context.Context, m ladder.Match, msg commands.Reply) {
	a, ok, err := s.svc.AnnouncementOf(ctx, m.ID)
	if err == nil && ok {
		edit := msg
		edit.Edit = a.MessageID
		if _, err = s.send(ctx, a.ChannelID, edit); err == nil {
			return
		}
	}
	if err != nil {
		s.log.Warn("match announcement not edited", "guild_id", m.GuildID, "match_id", m.ID, "err", err)
	}
	if m.ChannelID != "" {
		s.post(ctx, m.GuildID, m.ChannelID, msg)
	}
}

// abandon cancels the matches nobody reported in time and says so in each
// match's channel.
func (s *Scheduler) abandon(ctx context.Context, _ time.Time) error {
	ms, err := s.svc.AbandonMatches(ctx)
	for _, m := range ms {
		s.log.Info("match abandoned", "guild_id", m.GuildID, "match_id", m.ID)
		if m.ChannelID != "" {
			s.post(ctx, m.GuildID, m.ChannelID, commands.Abandoned(s.lang(ctx, m.GuildID), m))
		}
	}
	return err
}
