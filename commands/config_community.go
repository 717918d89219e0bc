package commands

import (
	"context"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// communitySub is /config queue community: predictions and the MVP vote
// of a queue's matches, both off by default.
func communitySub() Option {
	return sub("community", "Predictions by spectators and the MVP vote of a queue's matches",
		Option{Type: OptString, Name: "queue", Description: "queue name", Required: true, Autocomplete: true, MaxLength: 32},
		opt(OptBool, "predictions", "let anyone not playing call the winner of a formed match", false),
		opt(OptBool, "mvp_vote", "let the players of a rated match vote its MVP", false))
}

func (h *handlers) configCommunity(ctx context.Context, req Request) (Reply, error) {
	if h.Community == nil {
		return Reply{}, ladder.Errorf(ladder.CodeUnavailable, "community settings are not available on this bot")
	}
	name, _ := req.String("queue")
	var pred, mvp *bool
	if v, ok := req.Bool("predictions"); ok {
		pred = &v
	}
	if v, ok := req.Bool("mvp_vote"); ok {
		mvp = &v
	}
	st, _, err := h.Community.Settings(ctx, req.GuildID, name)
	if pred != nil || mvp != nil {
		st, err = h.Community.SetSettings(ctx, actor(req), req.GuildID, name, pred, mvp)
	}
	if err != nil {
		return Reply{}, err
	}
	tr := userLang(req)
	return Whisper(tr.T("cfg.community", "Queue", name, "Predictions", onOff(tr, st.Predictions), "MVP", onOff(tr, st.MVPVote))), nil
}

func onOff(tr *i18n.Lang, b bool) string {
	if b {
		return tr.T("cfg.on")
	}
	return tr.T("cfg.off")
}
