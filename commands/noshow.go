package commands

import (
	"context"
	"fmt"

	"github.com/ladderbot/ladderbot/ladder"
)

// actNoShowConfirm is the Confirm no-show button; Dispute is the report's
// (actDispute), since a disputed no-show is a disputed match.
const actNoShowConfirm = "nsc"

func (h *handlers) noShowCommand() Command {
	return Command{
		Name:        "noshow",
		Description: "Report players of your match who never showed up; the other team confirms",
		Ephemeral:   true,
		Options: []Option{
			opt(OptUser, "absent", "a player who did not show up", true),
			opt(OptUser, "absent2", "another one", false),
			matchOpt(false),
		},
		Handle: h.noShow,
	}
}

func (h *handlers) noShowComponents() []Component {
	return []Component{{Action: actNoShowConfirm, Handle: h.noShowConfirm}}
}

func (h *handlers) noShow(ctx context.Context, req Request) (Reply, error) {
	if _, err := h.ensure(ctx, req); err != nil {
		return Reply{}, err
	}
	var absent []string
	for _, name := range []string{"absent", "absent2"} {
		if u, ok := req.String(name); ok {
			absent = append(absent, u)
		}
	}
	id, _ := req.Int("match")
	res, err := h.Service.ReportNoShow(ctx, actor(req), req.GuildID, id, absent)
	if err != nil {
		return Reply{}, err
	}
	m := res.Match
	if res.AlreadyDone {
		return Whisper(fmt.Sprintf("You already reported this no-show in match #%d (already done).", m.ID)), nil
	}
	other := m.Teams[2-m.Team(req.UserID)]
	ch := matchChannel(m, req)
	return Reply{Ephemeral: true, Content: fmt.Sprintf("No-show reported in match #%d; the other team has been asked to confirm.", m.ID),
		Posts: []Post{{ChannelID: ch, Sent: h.recordMessage(m.ID, ladder.MessageNoShow, ch), Message: Reply{
			Content: fmt.Sprintf("%s reports a **no-show** in match #%d: %s never showed up. %s, please confirm or dispute; it confirms itself <t:%d:R>.",
				mention(req.UserID), m.ID, mentions(res.NoShow.Absent), mentions(other), res.NoShow.Deadline.Unix()),
			Mentions: other,
			Buttons: [][]Button{{
				{Label: "Confirm no-show", Style: Success, CustomID: ID(actNoShowConfirm, m.ID)},
				{Label: "Dispute", Style: Danger, CustomID: ID(actDispute, m.ID)},
			}},
		}}}}, nil
}

func (h *handlers) noShowConfirm(ctx context.Context, req Request) (Reply, error) {
	if req.CustomID.ID == 0 {
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "this button is not valid")
	}
	res, err := h.Service.ConfirmNoShow(ctx, actor(req), req.GuildID, req.CustomID.ID)
	if err != nil {
		return Reply{}, err
	}
	if res.AlreadyDone {
		return Whisper(fmt.Sprintf("Match #%d is already %s (already done).", res.Match.ID, res.Match.State)), nil
	}
	r := NoShowConfirmed(res)
	r.Update = true
	return r, nil
}

// NoShowConfirmed says a no-show was confirmed: the match is cancelled and
// the absent players' cooldowns. The no-show job posts it for reports that
// confirmed themselves.
func NoShowConfirmed(res ladder.NoShowResult) Reply {
	m := res.Match
	text := fmt.Sprintf("**Match #%d** is cancelled: the no-show of %s is confirmed. It is not rated.", m.ID, mentions(res.NoShow.Absent))
	for _, c := range res.Penalised {
		text += fmt.Sprintf("\n%s: queue cooldown of %s.", mention(c.UserID), ladder.TimeLeft(c.Until.Sub(c.CreatedAt)))
	}
	return Reply{Content: text, Mentions: m.Players()}
}
