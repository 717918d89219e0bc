package commands

import (
	"cmp"
	"context"
	"strconv"
	"time"

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
// while the prediction window runs, in the guild's language l. It pings
// nobody.
func PredictionPost(l *i18n.Lang, m ladder.Match, queue string) Reply {
	p := m.PTeam1
	closes := m.CreatedAt.Add(community.PredictWindow)
	return Reply{
		Content:  l.T("predict.post", "ID", m.ID, "Queue", queue, "Closes", closes.Unix()),
		Mentions: []string{},
		Embeds: []Embed{{
			Title: l.T("predict.title", "ID", m.ID), Color: ColorInfo,
			Fields: teamFields(l, m),
			Footer: l.T("predict.footer", "Points1", l.Int(community.Points(p)), "Points2", l.Int(community.Points(1-p))),
		}},
		Buttons: [][]Button{{
			{Label: l.T("predict.team_wins", "N", 1), Style: Primary, CustomID: ID(actPredict, m.ID, "1")},
			{Label: l.T("predict.team_wins", "N", 2), Style: Primary, CustomID: ID(actPredict, m.ID, "2")},
		}},
	}
}

// Drafting reports whether f's teams are still the captains' to pick.
// Its prediction post waits for them: the teams and the chance it would
// show are the matcher's, which the draft replaces.
func Drafting(f ladder.FormedMatch) bool {
	return f.Draft.MatchID != 0 && f.Draft.State != ladder.DraftDone
}

// DraftedPredictionPost is the prediction post of match m, whose teams
// have just been set (the captains picked them, or a moderator
// rebalanced them), and the queue's public channel it goes to (the
// match's channel, else the queue's). ok is false when the queue takes
// no predictions, has no channel, or the prediction window has closed.
func DraftedPredictionPost(ctx context.Context, com *community.Service, svc *ladder.Service, l *i18n.Lang, m ladder.Match, now time.Time) (string, Reply, bool) {
	return predictionPostIn(ctx, com, svc, l, m, now, "")
}

// predictionPostIn is DraftedPredictionPost with a channel to post in
// when neither the match nor its queue has one: where the match was
// announced.
func predictionPostIn(ctx context.Context, com *community.Service, svc *ladder.Service, l *i18n.Lang, m ladder.Match, now time.Time, fallback string) (string, Reply, bool) {
	if com == nil || now.Sub(m.CreatedAt) > community.PredictWindow {
		return "", Reply{}, false
	}
	st, err := com.SettingsOf(ctx, m.QueueID)
	if err != nil || !st.Predictions {
		return "", Reply{}, false
	}
	qs, err := svc.Queues(ctx, m.GuildID)
	if err != nil {
		return "", Reply{}, false
	}
	for _, q := range qs {
		if q.ID != m.QueueID {
			continue
		}
		channel := cmp.Or(m.ChannelID, q.ChannelID, fallback)
		return channel, PredictionPost(l, m, q.Name), channel != ""
	}
	return "", Reply{}, false
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
	l := userLang(req)
	return Whisper(l.N("reply.predict_called", community.Points(p.Chance), "Team", p.Team, "ID", p.MatchID, "Chance", l.Percent(p.Chance))), nil
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
	return Whisper(userLang(req).T("reply.mvp_voted", "ID", m.ID, "Player", mention(player))), nil
}
