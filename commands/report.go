package commands

import (
	"context"
	"fmt"

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
	if err := h.refuseSeries(ctx, req, id); err != nil {
		return Reply{}, err
	}
	res, err := h.Service.Report(ctx, actor(req), req.GuildID, id, o)
	if err != nil {
		return Reply{}, err
	}
	m := res.Match
	if res.AlreadyDone {
		return Whisper(fmt.Sprintf("Match #%d is already %s (already done).", m.ID, m.State)), nil
	}
	r := Reply{Ephemeral: true, Posts: []Post{{ChannelID: matchChannel(m, req), Message: matchReply(res)}}}
	switch m.State {
	case ladder.StateReported:
		r.Posts[0].Sent = h.recordMessage(m.ID, ladder.MessageReport, r.Posts[0].ChannelID)
		r.Content = fmt.Sprintf("Reported match #%d: %s. The other team has been asked to confirm.", m.ID, winnerText(m.ReportedWinner))
	case ladder.StateConfirmed:
		r.Content = fmt.Sprintf("Both teams agree: match #%d is confirmed and rated.", m.ID)
		r.Posts = append(r.Posts, h.rematchOffer(ctx, m, matchChannel(m, req))...)
	case ladder.StateDisputed:
		r.Content = fmt.Sprintf("Your report conflicts with the other team's: match #%d is disputed and waits for a moderator.", m.ID)
	default:
		r.Content = fmt.Sprintf("Match #%d is %s.", m.ID, m.State)
	}
	return r, nil
}

func (h *handlers) confirm(ctx context.Context, req Request) (Reply, error) {
	if req.CustomID.ID == 0 {
		// Match 0 would mean "my current match" to the service; a button
		// always names its match, so this one is forged.
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "this button is not valid; use /report")
	}
	res, err := h.Service.Confirm(ctx, actor(req), req.GuildID, req.CustomID.ID)
	if err != nil {
		return Reply{}, err
	}
	if res.AlreadyDone {
		return Whisper(fmt.Sprintf("Match #%d is already %s (already done).", res.Match.ID, res.Match.State)), nil
	}
	r := matchReply(res)
	r.Update = true
	r.Posts = h.rematchOffer(ctx, res.Match, matchChannel(res.Match, req))
	return r, nil
}

func (h *handlers) disputeForm(ctx context.Context, req Request) (Reply, error) {
	if req.CustomID.ID == 0 {
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "this button is not valid")
	}
	return Reply{Modal: &Modal{
		CustomID: ID(actDisputeForm, req.CustomID.ID),
		Title:    fmt.Sprintf("Dispute match #%d", req.CustomID.ID),
		Fields: []TextField{
			{ID: "reason", Label: "What is wrong with the report?", Long: true, Required: true, MaxLength: 1000},
			{ID: "evidence", Label: "Evidence link (optional)", Placeholder: "https://…", MaxLength: 500},
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
		return Whisper(fmt.Sprintf("Match #%d is already disputed (already done).", res.Match.ID)), nil
	}
	r := disputedView(res.Match)
	r.Update = true
	return r, nil
}
