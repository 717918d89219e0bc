package commands

import (
	"context"
	"strings"

	"github.com/ladderbot/ladderbot/ladder"
)

// Panels is what the queue panel and the results channel need from
// package panel (which renders and edits the messages); the handlers only
// store where they go.
type Panels interface {
	// Place puts a queue's panel in a channel: posted there at once, then
	// edited in place as the queue changes.
	Place(ctx context.Context, guildID string, queueID int64, channelID string) error
	// PanelChannel is the channel of a queue's panel, "" when it has none.
	PanelChannel(ctx context.Context, guildID string, queueID int64) (string, error)
	// SetResultsChannel sets where rated results are posted.
	SetResultsChannel(ctx context.Context, guildID, channelID string) error
	// ResultsChannel is the guild's results channel, "" when none.
	ResultsChannel(ctx context.Context, guildID string) (string, error)
}

// Component actions of a queue panel's buttons; the ID is the queue's.
// Package panel puts them on the panel.
const (
	ActPanelJoin    = "pjoin"
	ActPanelLeave   = "pleave"
	ActPanelWith    = "pwith"
	ActPanelStatus  = "pstatus"
	actPanelPartner = "ppartner"
)

// panelComponents are the panel's buttons. Each runs the /queue handler
// itself, with the options the slash command would carry, so a click
// follows exactly the command's rules (bans, cooldowns, parties, one
// queue at a time) and answers privately as /queue does.
func (h *handlers) panelComponents() []Component {
	return []Component{
		{Action: ActPanelJoin, Handle: h.panelJoin},
		{Action: ActPanelLeave, Handle: h.panelLeave},
		{Action: ActPanelWith, Handle: h.panelWith},
		{Action: ActPanelStatus, Handle: h.panelStatus},
		{Action: actPanelPartner, Handle: h.panelPartner},
	}
}

// panelQueue is the queue a panel's button is for.
func (h *handlers) panelQueue(ctx context.Context, req Request) (ladder.Queue, error) {
	qs, err := h.Service.Queues(ctx, req.GuildID)
	if err != nil {
		return ladder.Queue{}, err
	}
	for _, q := range qs {
		if q.ID == req.CustomID.ID {
			return q, nil
		}
	}
	return ladder.Queue{}, ladder.Errorf(ladder.CodeNotFound, "this panel's queue no longer exists")
}

// asSlash turns a panel click into the /queue request it stands for.
func asSlash(req Request, command string, options map[string]any) Request {
	req.Command, req.Options = command, options
	return req
}

func (h *handlers) panelJoin(ctx context.Context, req Request) (Reply, error) {
	q, err := h.panelQueue(ctx, req)
	if err != nil {
		return Reply{}, err
	}
	return h.queue(ctx, asSlash(req, "queue join", map[string]any{"queue": q.Name}))
}

func (h *handlers) panelLeave(ctx context.Context, req Request) (Reply, error) {
	return h.queue(ctx, asSlash(req, "queue leave", nil))
}

func (h *handlers) panelStatus(ctx context.Context, req Request) (Reply, error) {
	return h.queue(ctx, asSlash(req, "queue status", nil))
}

// panelWith answers privately with a user menu: the player picked is
// invited as /queue join partner would invite them.
func (h *handlers) panelWith(ctx context.Context, req Request) (Reply, error) {
	q, err := h.panelQueue(ctx, req)
	if err != nil {
		return Reply{}, err
	}
	l := userLang(req)
	return Reply{
		Ephemeral: true,
		Content:   l.T("panel.with_prompt", "Queue", q.Name),
		Menus: []SelectMenu{{Kind: SelectUsers, CustomID: ID(actPanelPartner, q.ID),
			Placeholder: l.T("panel.with_placeholder"), MaxValues: 1}},
	}, nil
}

func (h *handlers) panelPartner(ctx context.Context, req Request) (Reply, error) {
	if len(req.Selected) != 1 || !snowflake(req.Selected[0]) {
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "pick one player to invite")
	}
	q, err := h.panelQueue(ctx, req)
	if err != nil {
		return Reply{}, err
	}
	r, err := h.queue(ctx, asSlash(req, "queue join", map[string]any{"queue": q.Name, "partner": req.Selected[0]}))
	r.Update = true // the answer replaces the menu
	return r, err
}

// configPanel is /config queue panel [queue] [channel]: the queue's panel
// goes to channel, else the queue's announcement channel, else here.
func (h *handlers) configPanel(ctx context.Context, req Request) (Reply, error) {
	if h.Panels == nil {
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "queue panels are not available on this bot")
	}
	q, err := h.namedQueue(ctx, req)
	if err != nil {
		return Reply{}, err
	}
	ch, ok := req.String("channel")
	if !ok {
		ch = q.ChannelID
	}
	if ch == "" {
		ch = req.ChannelID
	}
	if err := h.Panels.Place(ctx, req.GuildID, q.ID, ch); err != nil {
		return Reply{}, err
	}
	return Whisper(userLang(req).T("panel.placed", "Queue", q.Name, "Channel", ch)), nil
}

// namedQueue is the queue option's queue, or the guild's first queue.
func (h *handlers) namedQueue(ctx context.Context, req Request) (ladder.Queue, error) {
	qs, err := h.Service.Queues(ctx, req.GuildID)
	if err != nil {
		return ladder.Queue{}, err
	}
	if len(qs) == 0 {
		return ladder.Queue{}, ladder.Errorf(ladder.CodeNotFound, "this server has no queue yet; add one with /config queue add or /setup")
	}
	name, ok := req.String("queue")
	if !ok {
		return qs[0], nil
	}
	for _, q := range qs {
		if strings.EqualFold(q.Name, strings.TrimSpace(name)) {
			return q, nil
		}
	}
	return ladder.Queue{}, ladder.Errorf(ladder.CodeNotFound, "no queue called %q", name)
}
