package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/ladderbot/ladderbot/ladder"
)

// Component actions of match messages.
const (
	actReport      = "rep"
	actConfirm     = "cf"
	actDispute     = "dp"
	actDisputeForm = "dpf"
)

// announcements are the posts of formed matches, each in its queue's
// channel (docs/spec.md 6), else where the match formed, else fallback.
// Each records its message ID once sent (Service.RecordAnnouncement), so
// that the ready-check job can edit it.
// With predictions on in the match's queue, a prediction post follows in
// the same (public) channel.
func (h *handlers) announcements(ctx context.Context, formed []ladder.FormedMatch, fallback string) []Post {
	var out []Post
	for _, f := range formed {
		ch := f.Match.ChannelID
		if ch == "" {
			ch = f.Queue.ChannelID
		}
		if ch == "" {
			ch = fallback
		}
		matchID := f.Match.ID
		p := Post{ChannelID: ch, Message: announce(f), Sent: func(ctx context.Context, channelID, messageID string) error {
			return h.Service.RecordAnnouncement(ctx, ladder.Announcement{MatchID: matchID, ChannelID: channelID, MessageID: messageID})
		}}
		if h.Rooms != nil {
			p.Open = func(ctx context.Context) string { return h.Rooms.Open(ctx, f, ch) }
		}
		out = append(out, p)
		if h.Community != nil {
			if st, err := h.Community.SettingsOf(ctx, f.Queue.ID); err == nil && st.Predictions {
				out = append(out, Post{ChannelID: ch, Message: PredictionPost(f.Match, f.Queue.Name)})
			}
		}
	}
	return out
}

// announce is a formed match's message: players mentioned, teams, quality,
// win probability and the report buttons.
func announce(f ladder.FormedMatch) Reply {
	m := f.Match
	if f.Ready.MatchID != 0 && f.Ready.State == ladder.ReadyPending {
		return readyAnnouncement(m, f.Ready, f.Draft, f.Queue.Name)
	}
	if f.Draft.MatchID != 0 && f.Draft.State == ladder.DraftPicking {
		r := DraftView(m, f.Draft, f.Queue.Name)
		r.Mentions = m.Players()
		return r
	}
	p := m.PTeam1
	return Reply{
		Content:  fmt.Sprintf("**Match #%d** is ready: %s vs %s", m.ID, mentions(m.Teams[0]), mentions(m.Teams[1])),
		Mentions: m.Players(),
		Embeds: []Embed{{
			Title: fmt.Sprintf("Match #%d · %s", m.ID, f.Queue.Name),
			Color: ColorInfo,
			Fields: []Field{
				{Name: "Team 1 · " + percent(p) + " to win", Value: mentions(m.Teams[0]), Inline: true},
				{Name: "Team 2 · " + percent(1-p) + " to win", Value: mentions(m.Teams[1]), Inline: true},
				{Name: "Match quality", Value: fmt.Sprintf("%.2f", f.Proposal.Quality)},
			},
			Footer: "Once played, report the result with the buttons below or /report.",
		}},
		Buttons: [][]Button{reportButtons(m.ID)},
	}
}

func reportButtons(id int64) []Button {
	return []Button{
		{Label: "We won", Style: Success, CustomID: ID(actReport, id, string(ladder.Win))},
		{Label: "We lost", Style: Danger, CustomID: ID(actReport, id, string(ladder.Loss))},
		{Label: "Draw", Style: Secondary, CustomID: ID(actReport, id, string(ladder.Tie))},
	}
}

// reportedView asks the other side to confirm or dispute.
func reportedView(m ladder.Match) Reply {
	team := m.Team(m.ReportedBy)
	other := m.Teams[2-team]
	if team == 0 {
		other = m.Players()
	}
	return Reply{
		Content: fmt.Sprintf("%s reported match #%d: **%s**. %s, please confirm or dispute; it confirms itself <t:%d:R>.",
			mention(m.ReportedBy), m.ID, winnerText(m.ReportedWinner), mentions(other), m.Deadline.Unix()),
		Mentions: other,
		Buttons: [][]Button{{
			{Label: "Confirm", Style: Success, CustomID: ID(actConfirm, m.ID)},
			{Label: "Dispute", Style: Danger, CustomID: ID(actDispute, m.ID)},
		}},
	}
}

// resultView shows a rated match and what it did to every player.
func resultView(m ladder.Match, changes []ladder.PlayerDelta, how string) Reply {
	var teams [2]strings.Builder
	for _, c := range changes {
		if c.Team == 1 || c.Team == 2 {
			fmt.Fprintf(&teams[c.Team-1], "%s %s (%s)\n", mention(c.UserID), ratingText(c.Rating, c.RD), signed(c.Delta))
		}
	}
	e := Embed{Title: fmt.Sprintf("Match #%d %s: %s", m.ID, how, winnerText(m.Winner)), Color: ColorSuccess}
	for t := range 2 {
		v := teams[t].String()
		if v == "" {
			v = mentions(m.Teams[t])
		}
		e.Fields = append(e.Fields, Field{Name: fmt.Sprintf("Team %d", t+1), Value: v, Inline: true})
	}
	return Reply{Content: fmt.Sprintf("Match #%d %s: **%s**.", m.ID, how, winnerText(m.Winner)), Embeds: []Embed{e}}
}

// disputedView says a moderator must settle the match.
func disputedView(m ladder.Match) Reply {
	text := fmt.Sprintf("Match #%d is **disputed** by %s: %s", m.ID, mention(m.DisputedBy), m.DisputeReason)
	if m.Evidence != "" {
		text += "\nEvidence: " + m.Evidence
	}
	text += "\nA moderator will settle it (`/mod resolve`)."
	return Reply{Content: text, Embeds: nil}
}

// matchReply picks the view for a match after a player's action.
func matchReply(res ladder.MatchResult) Reply {
	m := res.Match
	switch m.State {
	case ladder.StateReported:
		return reportedView(m)
	case ladder.StateConfirmed:
		return resultView(m, res.Changes, "confirmed")
	case ladder.StateResolved:
		return resultView(m, res.Changes, "resolved")
	case ladder.StateDisputed:
		return disputedView(m)
	}
	return Reply{Content: fmt.Sprintf("Match #%d is %s.", m.ID, m.State)}
}

// matchChannel is where follow-ups of a match go.
func matchChannel(m ladder.Match, req Request) string {
	if m.ChannelID != "" {
		return m.ChannelID
	}
	return req.ChannelID
}
