package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/ladderbot/ladderbot/i18n"
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
func (h *handlers) announcements(ctx context.Context, l *i18n.Lang, formed []ladder.FormedMatch, fallback string) []Post {
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
		p := Post{ChannelID: ch, Message: announce(l, f), Sent: func(ctx context.Context, channelID, messageID string) error {
			return h.Service.RecordAnnouncement(ctx, ladder.Announcement{MatchID: matchID, ChannelID: channelID, MessageID: messageID})
		}}
		if h.Rooms != nil {
			p.Open = func(ctx context.Context) string { return h.Rooms.Open(ctx, f, ch) }
		}
		if h.Formats != nil && onAtOnce(f) {
			p.Follow = func(ctx context.Context) []Post {
				// In the room the announcement went to: ChannelID is
				// ignored.
				return h.formatPosts(ctx, f.Match, "")
			}
		}
		out = append(out, p)
		if h.Community != nil && !Drafting(f) {
			if st, err := h.Community.SettingsOf(ctx, f.Queue.ID); err == nil && st.Predictions {
				out = append(out, Post{ChannelID: ch, Message: PredictionPost(l, f.Match, f.Queue.Name)})
			}
		}
	}
	return out
}

// onAtOnce reports whether a formed match is on as it forms: no ready
// check runs and no captains pick, so its map pick starts with it.
func onAtOnce(f ladder.FormedMatch) bool {
	return !(f.Ready.MatchID != 0 && f.Ready.State == ladder.ReadyPending) && !(f.Draft.MatchID != 0 && f.Draft.State != ladder.DraftDone)
}

// announce is a formed match's message: players mentioned, teams, quality,
// win probability and the report buttons.
func announce(l *i18n.Lang, f ladder.FormedMatch) Reply {
	m := f.Match
	if f.Ready.MatchID != 0 && f.Ready.State == ladder.ReadyPending {
		return readyAnnouncement(l, m, f.Ready, f.Draft, f.Queue.Name)
	}
	if f.Draft.MatchID != 0 && f.Draft.State == ladder.DraftPicking {
		r := DraftView(l, m, f.Draft, f.Queue.Name)
		r.Mentions = m.Players()
		return r
	}
	return Reply{
		Content:  l.T("match.ready", "ID", m.ID, "Team1", mentions(m.Teams[0]), "Team2", mentions(m.Teams[1])),
		Mentions: m.Players(),
		Embeds: []Embed{{
			Title:  l.T("match.title", "ID", m.ID, "Queue", f.Queue.Name),
			Color:  ColorInfo,
			Fields: append(teamFields(l, m), Field{Name: l.T("match.quality"), Value: l.Number(f.Proposal.Quality, 2)}),
			Footer: l.T("match.footer"),
		}},
		Buttons: [][]Button{reportButtons(l, m.ID)},
	}
}

func reportButtons(l *i18n.Lang, id int64) []Button {
	return []Button{
		{Label: l.T("button.won"), Style: Success, CustomID: ID(actReport, id, string(ladder.Win))},
		{Label: l.T("button.lost"), Style: Danger, CustomID: ID(actReport, id, string(ladder.Loss))},
		{Label: l.T("button.draw"), Style: Secondary, CustomID: ID(actReport, id, string(ladder.Tie))},
	}
}

// reportedView asks the other side to confirm or dispute.
func reportedView(l *i18n.Lang, m ladder.Match) Reply {
	team := m.Team(m.ReportedBy)
	other := m.Teams[2-team]
	if team == 0 {
		other = m.Players()
	}
	return Reply{
		Content: l.T("report.ask", "Reporter", mention(m.ReportedBy), "ID", m.ID, "Result", winnerIn(l, m.ReportedWinner),
			"Others", mentions(other), "Deadline", fmt.Sprintf("<t:%d:R>", m.Deadline.Unix())),
		Mentions: other,
		Buttons: [][]Button{{
			{Label: l.T("button.confirm"), Style: Success, CustomID: ID(actConfirm, m.ID)},
			{Label: l.T("button.dispute"), Style: Danger, CustomID: ID(actDispute, m.ID)},
		}},
	}
}

// resultView shows a rated match and what it did to every player.
func resultView(l *i18n.Lang, m ladder.Match, changes []ladder.PlayerDelta, how string) Reply {
	var teams [2]strings.Builder
	for _, c := range changes {
		if c.Team == 1 || c.Team == 2 {
			fmt.Fprintf(&teams[c.Team-1], "%s %s ± %s (%s)\n", mention(c.UserID), l.Rating(c.Rating), l.Rating(c.RD), l.Signed(c.Delta))
		}
	}
	e := Embed{Title: l.T("result."+how+"_title", "ID", m.ID, "Result", winnerIn(l, m.Winner)), Color: ColorSuccess}
	for t := range 2 {
		v := teams[t].String()
		if v == "" {
			v = mentions(m.Teams[t])
		}
		e.Fields = append(e.Fields, Field{Name: l.T("match.team", "N", t+1), Value: v, Inline: true})
	}
	return Reply{Content: l.T("result."+how, "ID", m.ID, "Result", winnerIn(l, m.Winner)), Embeds: []Embed{e}}
}

// disputedView says a moderator must settle the match.
func disputedView(l *i18n.Lang, m ladder.Match) Reply {
	text := l.T("dispute.posted", "ID", m.ID, "User", mention(m.DisputedBy), "Reason", ReasonText(l, m.DisputeReason, m.DisputeReasonCode, mention))
	if m.Evidence != "" {
		text += "\n" + l.T("dispute.evidence_line", "Link", m.Evidence)
	}
	text += "\n" + l.T("dispute.settle")
	return Reply{Content: text, Embeds: nil}
}

// matchReply picks the view for a match after a player's action.
func matchReply(l *i18n.Lang, res ladder.MatchResult) Reply {
	m := res.Match
	switch m.State {
	case ladder.StateReported:
		return reportedView(l, m)
	case ladder.StateConfirmed:
		return resultView(l, m, res.Changes, "confirmed")
	case ladder.StateResolved:
		return resultView(l, m, res.Changes, "resolved")
	case ladder.StateDisputed:
		return disputedView(l, m)
	}
	return Reply{Content: l.T("match.state", "ID", m.ID, "State", stateIn(l, m.State))}
}

// winnerIn is winnerText in language l.
func winnerIn(l *i18n.Lang, w int) string {
	switch w {
	case 1, 2:
		return l.T("winner.team", "N", w)
	case ladder.Draw:
		return l.T("winner.draw")
	}
	return l.T("winner.none")
}

// stateIn names a match state in language l.
func stateIn(l *i18n.Lang, s ladder.MatchState) string {
	id := "state." + string(s)
	if t := l.T(id); t != id {
		return t
	}
	return string(s)
}

// matchChannel is where follow-ups of a match go.
func matchChannel(m ladder.Match, req Request) string {
	if m.ChannelID != "" {
		return m.ChannelID
	}
	return req.ChannelID
}
