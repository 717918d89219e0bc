package commands

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

func (h *handlers) matchCommand() Command {
	return Command{
		Name:        "match",
		Description: "A match's teams, win probability and what each player stands to gain or lose",
		Options: []Option{
			sub("show", "Teams, win probability and stakes of a match (default: your latest)", matchOpt(false)),
			sub("cancel", "Vote to cancel your open match; a majority of its players cancels it", matchOpt(false)),
			flagSub(),
			mvpSub(),
		},
		Handle: h.match,
	}
}

func (h *handlers) match(ctx context.Context, req Request) (Reply, error) {
	if _, err := h.ensure(ctx, req); err != nil {
		return Reply{}, err
	}
	id, ok := req.Int("match")
	if req.Command == "match cancel" {
		return h.doCancelVote(ctx, req, id)
	}
	if req.Command == "match flag" {
		return h.doFlag(ctx, req)
	}
	if req.Command == "match mvp" {
		return h.doMVP(ctx, req)
	}
	if !ok {
		ms, err := h.Service.Matches(ctx, ladder.MatchFilter{GuildID: req.GuildID, UserID: req.UserID, Limit: 1})
		if err != nil {
			return Reply{}, err
		}
		if len(ms) == 0 {
			return Reply{}, ladder.Errorf(ladder.CodeNotFound, "you have not played a match yet; give a match ID")
		}
		id = ms[0].ID
	}
	d, err := h.Service.MatchDetail(ctx, req.GuildID, id)
	if err != nil {
		return Reply{}, err
	}
	if d.Draft.MatchID != 0 {
		return draftDetailReply(userLang(req), d.Match, d.Draft, d.Queue.Name), nil
	}
	return matchDetailReply(userLang(req), d), nil
}

// draftDetailReply is /match show of a match whose captains are still
// picking: the teams so far and who is left, without the captain's menu.
func draftDetailReply(l *i18n.Lang, m ladder.Match, d ladder.Draft, queue string) Reply {
	e := Embed{Title: l.T("draft.title", "ID", m.ID, "Queue", queue), Color: ColorInfo, Fields: draftWaitingFields(l, d)}
	content := l.T("draft.waits", "ID", m.ID)
	if d.State == ladder.DraftPicking {
		e = DraftView(l, m, d, queue).Embeds[0]
		content = l.T("draft.picking", "ID", m.ID, "Captain", mention(d.Captain(d.Turn())), "Team", d.Turn())
	}
	return Reply{Content: content, Embeds: []Embed{e}, Mentions: []string{}}
}

func matchDetailReply(l *i18n.Lang, d ladder.MatchDetail) Reply {
	m := d.Match
	name := func(u string) string {
		if n := d.Names[u]; n != "" {
			return n
		}
		return mention(u)
	}
	e := Embed{Title: l.T("match.title", "ID", m.ID, "Queue", d.Queue.Name) + " · " + stateIn(l, m.State), Color: ColorInfo}
	var teams [2]strings.Builder
	for _, c := range d.Changes {
		if c.Team == 1 || c.Team == 2 {
			fmt.Fprintf(&teams[c.Team-1], "%s %s ± %s (%s)\n", name(c.UserID), l.Rating(c.Rating), l.Rating(c.RD), l.Signed(c.Delta))
		}
	}
	for _, s := range d.Stakes {
		if s.Team == 1 || s.Team == 2 {
			fmt.Fprintf(&teams[s.Team-1], "%s %s ± %s · %s\n", name(s.UserID), l.Rating(s.Rating), l.Rating(s.RD),
				l.T("match.stakes", "Win", l.Signed(s.IfWin), "Loss", l.Signed(s.IfLoss)))
		}
	}
	p := m.PTeam1
	for t := range 2 {
		v := teams[t].String()
		if v == "" {
			v = mentions(m.Teams[t])
		}
		chance := p
		if t == 1 {
			chance = 1 - p
		}
		e.Fields = append(e.Fields, Field{Name: l.T("match.team_chance", "N", t+1, "Chance", l.Percent(chance)), Value: v, Inline: true})
	}
	if m.State.Rated() || m.State == ladder.StateVoided {
		e.Fields = append(e.Fields, Field{Name: l.T("match.result"), Value: winnerIn(l, m.Winner)})
	}
	if m.Map != "" {
		e.Fields = append(e.Fields, Field{Name: l.T("match.map"), Value: m.Map})
	}
	if m.State == ladder.StateDisputed {
		// The evidence link goes whole on a line of its own; the reason
		// (up to 1,000 characters) is cut first should the field pass
		// Discord's 1,024.
		head, ev := mention(m.DisputedBy)+": ", ""
		if m.Evidence != "" {
			ev = "\n" + l.T("dispute.evidence_line", "Link", m.Evidence)
		}
		reason := clipText(ReasonText(l, m.DisputeReason, m.DisputeReasonCode, mention), embedFieldValue-utf8.RuneCountInString(head+ev))
		e.Fields = append(e.Fields, Field{Name: l.T("match.dispute"), Value: head + reason + ev})
	}
	if m.Quality > 0 {
		e.Footer = l.T("match.quality") + " " + l.Number(m.Quality, 2)
	}
	r := Reply{Embeds: []Embed{e}}
	if m.State == ladder.StateOpen {
		r.Buttons = [][]Button{reportButtons(l, m.ID)}
	}
	return r
}
