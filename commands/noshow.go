package commands

import (
	"context"

	"github.com/ladderbot/ladderbot/i18n"
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
		return Whisper(userLang(req).T("noshow.already", "ID", m.ID)), nil
	}
	other := m.Teams[2-m.Team(req.UserID)]
	ch := matchChannel(m, req)
	l := h.postLang(ctx, req)
	return Reply{Ephemeral: true, Content: userLang(req).T("noshow.reported", "ID", m.ID),
		Posts: []Post{{ChannelID: ch, Sent: h.recordMessage(m.ID, ladder.MessageNoShow, ch), Message: Reply{
			Content: l.T("noshow.post", "User", mention(req.UserID), "ID", m.ID, "Absent", mentions(res.NoShow.Absent),
				"Other", mentions(other), "Deadline", res.NoShow.Deadline.Unix()),
			Mentions: other,
			Buttons: [][]Button{{
				{Label: l.T("noshow.confirm"), Style: Success, CustomID: ID(actNoShowConfirm, m.ID)},
				{Label: l.T("button.dispute"), Style: Danger, CustomID: ID(actDispute, m.ID)},
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
		u := userLang(req)
		return Whisper(u.T("noshow.already_state", "ID", res.Match.ID, "State", stateIn(u, res.Match.State))), nil
	}
	r := NoShowConfirmed(h.postLang(ctx, req), res)
	r.Update = true
	return r, nil
}

// NoShowConfirmed says a no-show was confirmed: the match is cancelled and
// the absent players' cooldowns. The no-show job posts it for reports that
// confirmed themselves.
func NoShowConfirmed(l *i18n.Lang, res ladder.NoShowResult) Reply {
	m := res.Match
	text := l.T("noshow.confirmed", "ID", m.ID, "Absent", mentions(res.NoShow.Absent))
	for _, c := range res.Penalised {
		text += "\n" + l.T("noshow.cooldown", "User", mention(c.UserID), "Duration", l.Duration(c.Until.Sub(c.CreatedAt)))
	}
	return Reply{Content: text, Mentions: m.Players()}
}
