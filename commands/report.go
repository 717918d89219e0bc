package commands

import (
	"context"

	"github.com/ladderbot/ladderbot/ladder"
)

func (h *handlers) reportCommand() Command {
	return Command{
		Name:        "report",
		Description: "Report the result of your match; the other team confirms, or a Showdown replay does",
		Ephemeral:   true,
		Options: []Option{
			{Type: OptString, Name: "outcome", Description: "how it went for your team", Required: true, Choices: []Choice{
				{Name: "win", Value: string(ladder.Win)}, {Name: "loss", Value: string(ladder.Loss)}, {Name: "draw", Value: string(ladder.Tie)},
			}},
			matchOpt(false),
			replayOpt(),
		},
		Handle: h.report,
	}
}

func (h *handlers) reportComponents() []Component {
	return []Component{
		{Action: actReport, Handle: h.reportButton},
		{Action: actConfirm, Handle: h.confirm},
		// Instant: a modal cannot follow a deferral; the form's submission
		// does the checking.
		{Action: actDispute, Instant: true, Handle: h.disputeForm},
		{Action: actDisputeForm, Handle: h.dispute},
	}
}

func (h *handlers) report(ctx context.Context, req Request) (Reply, error) {
	if _, err := h.ensure(ctx, req); err != nil {
		return Reply{}, err
	}
	outcome, _ := req.String("outcome")
	id, _ := req.Int("match")
	if url, ok := req.String("replay"); ok && url != "" {
		return h.reportReplay(ctx, req, id, ladder.Outcome(outcome), url)
	}
	return h.doReport(ctx, req, id, ladder.Outcome(outcome))
}

func (h *handlers) reportButton(ctx context.Context, req Request) (Reply, error) {
	o := ladder.Outcome(req.CustomID.Arg(0))
	if req.CustomID.ID == 0 || (o != ladder.Win && o != ladder.Loss && o != ladder.Tie) {
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "this button is not valid; use /report")
	}
	return h.doReport(ctx, req, req.CustomID.ID, o)
}

// doReport reports and answers the reporter privately; what the others
// must see (confirm buttons, the result, the dispute) is posted to the
// match's channel.
func (h *handlers) doReport(ctx context.Context, req Request, id int64, o ladder.Outcome) (Reply, error) {
	if r, refused, err := h.refuseSeries(ctx, req, id); refused || err != nil {
		return r, err
	}
	res, err := h.Service.Report(ctx, actor(req), req.GuildID, id, o)
	if err != nil {
		return Reply{}, err
	}
	m := res.Match
	l := userLang(req)
	if res.AlreadyDone {
		return Whisper(l.T("report.already", "ID", m.ID, "State", stateIn(l, m.State))), nil
	}
	r := Reply{Ephemeral: true, Posts: []Post{{ChannelID: matchChannel(m, req), Message: matchReply(h.postLang(ctx, req), res)}}}
	switch m.State {
	case ladder.StateReported:
		r.Posts[0].Sent = h.recordMessage(m.ID, ladder.MessageReport, r.Posts[0].ChannelID)
		r.Content = l.T("report.reported", "ID", m.ID, "Result", winnerIn(l, m.ReportedWinner))
	case ladder.StateConfirmed:
		r.Content = l.T("report.confirmed", "ID", m.ID)
		r.Posts = append(r.Posts, h.rematchOffer(ctx, m, matchChannel(m, req))...)
	case ladder.StateDisputed:
		r.Content = l.T("report.disputed", "ID", m.ID)
	default:
		r.Content = l.T("match.state", "ID", m.ID, "State", stateIn(l, m.State))
	}
	return r, nil
}

func (h *handlers) confirm(ctx context.Context, req Request) (Reply, error) {
	if req.CustomID.ID == 0 {
		// Match 0 would mean "my current match" to the service; a button
		// always names its match, so this one is forged.
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "this button is not valid; use /report")
	}
	res, err := h.confirms.Do(ctx, req.GuildID, ladder.ConfirmInput{Actor: actor(req), GuildID: req.GuildID, MatchID: req.CustomID.ID})
	if err != nil {
		return Reply{}, err
	}
	if res.AlreadyDone {
		l := userLang(req)
		return Whisper(l.T("report.already", "ID", res.Match.ID, "State", stateIn(l, res.Match.State))), nil
	}
	r := matchReply(h.postLang(ctx, req), res)
	r.Update = true
	r.Posts = h.rematchOffer(ctx, res.Match, matchChannel(res.Match, req))
	return r, nil
}

func (h *handlers) disputeForm(ctx context.Context, req Request) (Reply, error) {
	if req.CustomID.ID == 0 {
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "this button is not valid")
	}
	l := userLang(req)
	return Reply{Modal: &Modal{
		CustomID: ID(actDisputeForm, req.CustomID.ID),
		Title:    l.T("dispute.title", "ID", req.CustomID.ID),
		Fields: []TextField{
			{ID: "reason", Label: l.T("dispute.reason"), Long: true, Required: true, MaxLength: 1000},
			{ID: "evidence", Label: l.T("dispute.evidence"), Placeholder: "https://…", MaxLength: 500},
		},
	}}, nil
}

func (h *handlers) dispute(ctx context.Context, req Request) (Reply, error) {
	if req.CustomID.ID == 0 {
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "this form is not valid; use the Dispute button again")
	}
	res, err := h.Service.Dispute(ctx, actor(req), req.GuildID, req.CustomID.ID, req.Values["reason"], req.Values["evidence"])
	if err != nil {
		return Reply{}, err
	}
	if res.AlreadyDone {
		return Whisper(userLang(req).T("dispute.already", "ID", res.Match.ID)), nil
	}
	r := disputedView(h.postLang(ctx, req), res.Match)
	r.Update = true
	return r, nil
}
