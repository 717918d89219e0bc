package commands

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// balanceMatch is /balance match:ID [apply]: the autobalance of a formed
// match that has not started (reported) yet. Anyone sees the preview; a
// moderator's apply writes the teams.
func (h *handlers) balanceMatch(ctx context.Context, req Request) (Reply, error) {
	for i := 1; i <= balanceSlots; i++ {
		if req.Has(fmt.Sprintf("p%d", i)) {
			return Reply{}, ladder.Errorf(ladder.CodeInvalid, "give either players or a match, not both")
		}
	}
	if req.Has("team_size") || req.Has("queue") {
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "a match keeps its own queue and team sizes; give only match (and apply)")
	}
	id, _ := req.Int("match")
	apply, _ := req.Bool("apply")
	rb, err := h.Service.RebalanceMatch(ctx, actor(req), req.GuildID, id, apply)
	if err != nil {
		return Reply{}, err
	}
	r := rebalanceReply(userLang(req), rb)
	if rb.Applied {
		edit, ok, err := h.announcementEdit(ctx, req.GuildID, rb.After)
		if err != nil {
			return Reply{}, err
		}
		if ok {
			r.Posts = append(r.Posts, edit)
		}
		// The calls made on the old teams were dropped with them: the
		// prediction post goes out anew with the new teams and points,
		// where the match was announced when neither it nor its queue
		// has a channel.
		l := h.langOf(ctx, req.GuildID)
		if ch, p, ok := predictionPostIn(ctx, h.Community, h.Service, l, rb.After, h.Service.Now(), cmp.Or(edit.ChannelID, req.ChannelID)); ok {
			r.Posts = append(r.Posts, Post{ChannelID: ch, Message: p})
		}
	}
	return r, nil
}

// announcementEdit is the match's announcement shown anew with its current
// teams — the ready check, the match on, or the plain announcement — as an
// edit of the recorded message; false when none was recorded.
func (h *handlers) announcementEdit(ctx context.Context, guildID string, m ladder.Match) (Post, bool, error) {
	a, ok, err := h.Service.AnnouncementOf(ctx, m.ID)
	if err != nil || !ok {
		return Post{}, false, err
	}
	rc, err := h.Service.ReadyCheck(ctx, guildID, m.ID)
	if err != nil && ladder.ErrorCode(err) != ladder.CodeNotFound {
		return Post{}, false, err
	}
	queue := h.queueName(ctx, guildID, m.QueueID)
	var view Reply
	switch {
	case rc.MatchID != 0 && rc.State == ladder.ReadyPassed:
		view = matchOnView(h.langOf(ctx, guildID), m, queue)
	default:
		f := ladder.FormedMatch{Match: m, Queue: ladder.Queue{ID: m.QueueID, Name: queue}, Ready: rc}
		f.Proposal.Quality = m.Quality
		view = announce(h.langOf(ctx, guildID), f)
	}
	view.Edit = a.MessageID
	return Post{ChannelID: a.ChannelID, Message: view}, true, nil
}

func rebalanceReply(tr *i18n.Lang, rb ladder.MatchRebalance) Reply {
	m := rb.After
	title := tr.T("balance.preview", "ID", m.ID)
	switch {
	case rb.Applied:
		title = tr.T("balance.applied", "ID", m.ID)
	case len(rb.Moves) == 0:
		title = tr.T("balance.already", "ID", m.ID)
	}
	e := Embed{Title: title, Color: ColorInfo}
	for t := range 2 {
		var b strings.Builder
		var sum float64
		for _, u := range m.Teams[t] {
			sum += rb.Ratings[u]
			fmt.Fprintf(&b, "%s %s\n", mention(u), tr.Rating(rb.Ratings[u]))
		}
		e.Fields = append(e.Fields, Field{Name: tr.T("balance.team_sum", "Team", t+1, "Sum", tr.Rating(sum)), Value: b.String(), Inline: true})
	}
	if len(rb.Moves) > 0 {
		var b strings.Builder
		for _, mv := range rb.Moves {
			b.WriteString(mention(mv.UserID) + " " + tr.T("balance.move", "From", mv.From, "To", mv.To) + "\n")
		}
		e.Fields = append(e.Fields, Field{Name: tr.T("balance.moves"), Value: b.String()})
	}
	e.Footer = tr.T("balance.gap_change", "Before", tr.Number(rb.GapBefore, 1), "After", tr.Number(rb.GapAfter, 1))
	if rb.Applied {
		e.Footer += " · " + tr.T("balance.now_chance", "Chance", tr.Percent(m.PTeam1))
	} else if len(rb.Moves) > 0 {
		e.Footer += " · " + tr.T("balance.apply_hint")
	}
	if !rb.Exact {
		e.Footer += " " + tr.T("balance.not_exact")
	}
	return Reply{Embeds: []Embed{e}}
}
