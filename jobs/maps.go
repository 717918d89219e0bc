package jobs

import (
	"context"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/ladder"
)

// startMaps starts the map pick of a match that is on (formed without a
// ready check, or drafted by the deadline job) and posts it in the
// match's channel (its room, when it has one).
func (s *Scheduler) startMaps(ctx context.Context, m ladder.Match, channel string) {
	if s.opt.Formats == nil || s.poster == nil {
		return
	}
	l := s.lang(ctx, m.GuildID)
	r, ok, err := commands.StartMaps(ctx, l, s.opt.Formats, m)
	if err != nil {
		s.log.Warn("map pick not started", "guild_id", m.GuildID, "match_id", m.ID, "err", err)
	}
	if ok {
		s.postPick(ctx, m, 1, channel, r)
	}
	if sr, ok, err := s.opt.Formats.Series(ctx, m); err == nil && ok {
		if channel == "" {
			channel = m.ChannelID
		}
		s.post(ctx, m.GuildID, channel, commands.SeriesView(l, sr))
	}
}

// postPick posts a pick's message and records it, so later steps are
// shown in place.
func (s *Scheduler) postPick(ctx context.Context, m ladder.Match, game int, channel string, r commands.Reply) {
	if channel == "" {
		channel = m.ChannelID
	}
	id, err := s.send(ctx, channel, r)
	if err == nil {
		err = s.opt.Formats.RecordMessage(ctx, m.ID, game, channel, id)
	}
	if err != nil {
		s.log.Warn("map pick not posted", "guild_id", m.GuildID, "match_id", m.ID, "channel_id", channel, "err", err)
	}
}

// expireMaps closes the votes and makes the bans whose time ran out,
// showing each in place of the pick's message, and starts the picks a
// crash left unstarted.
func (s *Scheduler) expireMaps(ctx context.Context) error {
	if s.opt.Formats == nil || s.poster == nil {
		return nil
	}
	rs, err := s.opt.Formats.Expire(ctx)
	for _, r := range rs {
		m := r.Match
		s.log.Info("map pick step made at its deadline", "guild_id", m.GuildID, "match_id", m.ID, "chosen", r.Pick.Chosen, "bans", len(r.Banned))
		s.showPick(ctx, r)
	}
	if err != nil {
		return err
	}
	started, err := s.opt.Formats.StartMissed(ctx)
	for _, r := range started {
		pool, perr := s.opt.Formats.Maps(ctx, r.Match.QueueID)
		if perr != nil {
			return perr
		}
		s.postPick(ctx, r.Match, r.Pick.Game, "", commands.MapPickView(s.lang(ctx, r.Match.GuildID), r, pool))
	}
	return err
}

// showPick shows a pick's new state in place of its message, or as a new
// message in the match's channel when the message is unknown or gone.
func (s *Scheduler) showPick(ctx context.Context, r formats.Result) {
	pool, err := s.opt.Formats.Maps(ctx, r.Match.QueueID)
	if err != nil {
		s.log.Warn("map pool not read", "guild_id", r.Match.GuildID, "match_id", r.Match.ID, "err", err)
		return
	}
	l := s.lang(ctx, r.Match.GuildID)
	msg := commands.MapPickView(l, r, pool)
	if r.TimedOut && len(r.Banned) > 0 {
		b := r.Banned[0]
		msg.Content += "\n" + l.T("maps.timed_out", "N", b.Turn+1, "Map", b.Map, "Team", b.Team)
	}
	if p := r.Pick; p.MessageID != "" {
		edit := msg
		edit.Edit = p.MessageID
		if _, err := s.send(ctx, p.ChannelID, edit); err == nil {
			if r.Pick.State == formats.StateDone || r.Pick.Mode != formats.ModeBan {
				return
			}
			// A new banner's turn: an edit pings nobody, so say it.
			s.post(ctx, r.Match.GuildID, p.ChannelID, commands.Reply{Content: msg.Content, Mentions: msg.Mentions})
			return
		}
	}
	if r.Match.ChannelID != "" {
		s.postPick(ctx, r.Match, r.Pick.Game, r.Match.ChannelID, msg)
	}
}
