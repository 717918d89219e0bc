package commands

import (
	"context"
	"fmt"
	"strconv"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// Predictions: a post beside a formed match's announcement, in the queue's
// public channel, with a button per side; and /match mvp.

// actPredict is a prediction button: "pred:MATCH:TEAM".
const actPredict = "pred"

func (h *handlers) predictComponents() []Component {
	return []Component{{Action: actPredict, Handle: h.predictButton}}
}

// PredictionPost invites everyone not playing match m to call its winner
// while the prediction window runs. It pings nobody.
func PredictionPost(m ladder.Match, queue string) Reply {
	p := m.PTeam1
	closes := m.CreatedAt.Add(community.PredictWindow)
	return Reply{
		Content:  fmt.Sprintf("**Predictions** for match #%d (%s) are open until <t:%d:t>: who wins? Only players not in the match may call it.", m.ID, queue, closes.Unix()),
		Mentions: []string{},
		Embeds: []Embed{{
			Title: fmt.Sprintf("Match #%d · predictions", m.ID), Color: ColorInfo,
			Fields: teamFields(i18n.English(), m),
			Footer: fmt.Sprintf("A correct call earns 100 × (1 − the chance shown): %d for team 1, %d for team 2. Nothing real is bet.",
				community.Points(p), community.Points(1-p)),
		}},
		Buttons: [][]Button{{
			{Label: "Team 1 wins", Style: Primary, CustomID: ID(actPredict, m.ID, "1")},
			{Label: "Team 2 wins", Style: Primary, CustomID: ID(actPredict, m.ID, "2")},
		}},
	}
}

func (h *handlers) predictButton(ctx context.Context, req Request) (Reply, error) {
	if h.Community == nil {
		return Reply{}, ladder.Errorf(ladder.CodeUnavailable, "predictions are not available on this bot")
	}
	team, err := strconv.Atoi(req.CustomID.Arg(0))
	if req.CustomID.ID == 0 || err != nil {
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "this button is not valid")
	}
	p, err := h.Community.Predict(ctx, req.GuildID, req.UserID, req.CustomID.ID, team)
	if err != nil {
		return Reply{}, err
	}
	return Whisper(fmt.Sprintf("You called **team %d** to win match #%d (shown %s): %d points if right. You may change your call while predictions are open.",
		p.Team, p.MatchID, percent(p.Chance), community.Points(p.Chance))), nil
}

// mvpSub is /match mvp.
func mvpSub() Option {
	return sub("mvp", "Vote the MVP of your rated match (not yourself)", opt(OptUser, "player", "the player you vote", true), matchOpt(false))
}

func (h *handlers) doMVP(ctx context.Context, req Request) (Reply, error) {
	if h.Community == nil {
		return Reply{}, ladder.Errorf(ladder.CodeUnavailable, "the MVP vote is not available on this bot")
	}
	player, _ := req.String("player")
	id, _ := req.Int("match")
	m, err := h.Community.VoteMVP(ctx, req.GuildID, req.UserID, id, player)
	if err != nil {
		return Reply{}, err
	}
	return Whisper(fmt.Sprintf("Your MVP vote for match #%d: %s.", m.ID, mention(player))), nil
}
