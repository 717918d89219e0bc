package panel

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// resultsWindow bounds how far back a sweep looks for results to post or
// corrections to follow up: a correction of a result older than this is
// not posted again.
const resultsWindow = 7 * 24 * time.Hour

// resultsBatch bounds the results one sweep reads per guild.
const resultsBatch = 200

// shownOf is what a result post shows of a match: a correction changes
// the winner or the rating time, a void the state.
func shownOf(r Rated) string {
	return fmt.Sprintf("%s|%d|%d", r.State, r.Winner, r.RatedAt.UnixMilli())
}

// postResults posts each guild's new rated results to its results
// channel once, and a follow-up for each posted result that was corrected
// or voided since; only the guilds in only, when it is not nil. A row
// claim makes it once across processes.
func (s *Service) postResults(ctx context.Context, only map[string]bool) {
	if s.poster == nil || only != nil && len(only) == 0 {
		return
	}
	chans, err := s.store.ResultsChannels(ctx, "")
	if err != nil {
		s.log.Warn("panel: reading results channels", "err", err)
		return
	}
	now := s.opt.Now()
	for _, c := range chans {
		if only != nil && !only[c.GuildID] {
			continue
		}
		rated, err := s.store.RatedSince(ctx, c.GuildID, later(c.Since, now.Add(-resultsWindow)), resultsBatch)
		if err != nil {
			s.log.Warn("panel: reading results", "guild_id", c.GuildID, "err", err)
			continue
		}
		for _, r := range rated {
			if err := s.postResult(ctx, c, r, now); err != nil {
				s.log.Warn("panel: posting a result", "guild_id", c.GuildID, "match_id", r.MatchID, "err", err)
			}
		}
	}
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// postResult posts one result, or its correction, when nobody has.
func (s *Service) postResult(ctx context.Context, c ResultsChannel, r Rated, now time.Time) error {
	shown := shownOf(r)
	switch {
	case r.Posted && r.Shown == shown:
		return nil
	case !r.Posted && r.State == ladder.StateVoided:
		return nil // voided before it was ever posted: nothing to say
	}
	ok, err := s.store.ClaimResult(ctx, c.GuildID, r.MatchID, r.Shown, now, s.opt.Lease)
	if err != nil || !ok {
		return err
	}
	d, err := s.ladder.MatchDetail(ctx, c.GuildID, r.MatchID)
	if err != nil {
		s.store.ReleaseResult(ctx, r.MatchID)
		return err
	}
	l := i18n.English()
	if g, err := s.ladder.Guild(ctx, c.GuildID); err == nil {
		l = commands.GuildLang(g)
	}
	msg := ResultMessage(l, d, r.Posted)
	if s.opt.Joins != nil && !r.Posted {
		if ok, err := s.opt.Joins.Offers(ctx, d.Match, d.Queue, s.ladder.Now()); err == nil && ok {
			msg.Buttons = append(msg.Buttons, commands.RematchButton(d.Match.ID))
		}
	}
	id, err := s.poster.Post(ctx, c.ChannelID, msg)
	if err != nil {
		s.store.ReleaseResult(ctx, r.MatchID)
		return err
	}
	s.results.Add(1)
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if len(msg.Buttons) > 0 {
		// The buttons job takes the Rematch button off once the window
		// ends or the rematch is formed, as it does the match channel's
		// offer. Unrecorded (a failure here), the button stays and a
		// press after the window is refused as expired.
		a := ladder.Announcement{MatchID: r.MatchID, Kind: ladder.MessageResultRematch, ChannelID: c.ChannelID, MessageID: id}
		if err := s.ladder.RecordAnnouncement(rctx, a); err != nil {
			s.log.Warn("panel: recording a result's rematch button", "guild_id", c.GuildID, "match_id", r.MatchID, "err", err)
		}
	}
	return s.store.SaveResult(rctx, r.MatchID, id, shown)
}

// ResultMessage renders a rated result for the results channel: the
// teams with their win chance beforehand, each player's rating and
// change, and the winner, marked as an upset when their chance was below
// even. A correction says so in its title; a voided match says its
// rating changes were undone. It is in language l, the guild's.
func ResultMessage(l *i18n.Lang, d ladder.MatchDetail, correction bool) commands.Reply {
	m := d.Match
	title := l.T("results.title", "ID", m.ID, "Queue", d.Queue.Name, "Result", winnerText(l, m.Winner))
	color := commands.ColorSuccess
	upset := (m.Winner == 1 && m.PTeam1 < 0.5) || (m.Winner == 2 && m.PTeam1 > 0.5)
	if upset {
		title += " " + l.T("results.upset")
		color = commands.ColorWarn
	}
	if m.State == ladder.StateVoided {
		title = l.T("results.voided_title", "ID", m.ID, "Queue", d.Queue.Name)
		color = commands.ColorDanger
	}
	if correction {
		title = l.T("results.correction", "Title", title)
	}
	delta := map[string]ladder.PlayerDelta{}
	for _, c := range d.Changes {
		delta[c.UserID] = c
	}
	var fields []commands.Field
	for t := range 2 {
		p := m.PTeam1
		if t == 1 {
			p = 1 - p
		}
		var b strings.Builder
		for _, u := range m.Teams[t] {
			b.WriteString(commands.Mention(u))
			if c, ok := delta[u]; ok && m.State != ladder.StateVoided {
				fmt.Fprintf(&b, " %s (%s)", l.Rating(c.Rating), l.Signed(c.Delta))
			}
			b.WriteString("\n")
		}
		fields = append(fields, commands.Field{Name: l.T("match.team_chance", "N", t+1, "Chance", l.Percent(p)),
			Value: strings.TrimRight(b.String(), "\n"), Inline: true})
	}
	e := commands.Embed{Title: title, Color: color, Fields: fields}
	if m.State == ladder.StateVoided {
		e.Description = l.T("results.voided")
	}
	return commands.Reply{Embeds: []commands.Embed{e}}
}

func winnerText(l *i18n.Lang, w int) string {
	switch w {
	case 1, 2:
		return l.T("winner.team", "N", w)
	case ladder.Draw:
		return l.T("results.draw")
	}
	return l.T("winner.none")
}
