package commands

import (
	"context"
	"fmt"
	"strings"

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
		return draftDetailReply(d.Match, d.Draft, d.Queue.Name), nil
	}
	return matchDetailReply(d), nil
}

// draftDetailReply is /match show of a match whose captains are still
// picking: the teams so far and who is left, without the captain's menu.
func draftDetailReply(m ladder.Match, d ladder.Draft, queue string) Reply {
	e := Embed{Title: fmt.Sprintf("Match #%d · %s · captains draft", m.ID, queue), Color: ColorInfo, Fields: draftWaitingFields(d)}
	content := fmt.Sprintf("Match #%d waits for its ready check; then the captains pick the teams.", m.ID)
	if d.State == ladder.DraftPicking {
		e = DraftView(m, d, queue).Embeds[0]
		content = fmt.Sprintf("Match #%d: the captains are picking the teams; it is %s's pick for team %d.", m.ID, mention(d.Captain(d.Turn())), d.Turn())
	}
	return Reply{Content: content, Embeds: []Embed{e}, Mentions: []string{}}
}

func matchDetailReply(d ladder.MatchDetail) Reply {
	m := d.Match
	name := func(u string) string {
		if n := d.Names[u]; n != "" {
			return n
		}
		return mention(u)
	}
	e := Embed{Title: fmt.Sprintf("Match #%d · %s · %s", m.ID, d.Queue.Name, m.State), Color: ColorInfo}
	var teams [2]strings.Builder
	for _, c := range d.Changes {
		if c.Team == 1 || c.Team == 2 {
			fmt.Fprintf(&teams[c.Team-1], "%s %s (%s)\n", name(c.UserID), ratingText(c.Rating, c.RD), signed(c.Delta))
		}
	}
	for _, s := range d.Stakes {
		if s.Team == 1 || s.Team == 2 {
			fmt.Fprintf(&teams[s.Team-1], "%s %s · win %s / loss %s\n", name(s.UserID), ratingText(s.Rating, s.RD), signed(s.IfWin), signed(s.IfLoss))
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
		e.Fields = append(e.Fields, Field{Name: fmt.Sprintf("Team %d · %s to win", t+1, percent(chance)), Value: v, Inline: true})
	}
	if m.State.Rated() || m.State == ladder.StateVoided {
		e.Fields = append(e.Fields, Field{Name: "Result", Value: winnerText(m.Winner)})
	}
	if m.State == ladder.StateDisputed {
		e.Fields = append(e.Fields, Field{Name: "Dispute", Value: fmt.Sprintf("%s: %s %s", mention(m.DisputedBy), m.DisputeReason, m.Evidence)})
	}
	if m.Quality > 0 {
		e.Footer = fmt.Sprintf("Match quality %.2f", m.Quality)
	}
	r := Reply{Embeds: []Embed{e}}
	if m.State == ladder.StateOpen {
		r.Buttons = [][]Button{reportButtons(m.ID)}
	}
	return r
}
