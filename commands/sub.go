package commands

import (
	"context"
	"fmt"

	"github.com/ladderbot/ladderbot/ladder"
)

// actSubAccept is the "Take the seat" button of a substitute request; it
// carries the match and the player to replace.
const actSubAccept = "suba"

func (h *handlers) subCommand() Command {
	return Command{
		Name:        "sub",
		Description: "Substitutes: ask to be replaced in your match, or take a free seat",
		Ephemeral:   true,
		Options: []Option{
			sub("request", "Ask for a substitute for you in your open match", matchOpt(false)),
			sub("accept", "Take the oldest free seat of a match", matchOpt(true)),
		},
		Handle: h.sub,
	}
}

func (h *handlers) subComponents() []Component {
	return []Component{{Action: actSubAccept, Handle: h.subAcceptButton}}
}

func (h *handlers) sub(ctx context.Context, req Request) (Reply, error) {
	if _, err := h.ensure(ctx, req); err != nil {
		return Reply{}, err
	}
	id, _ := req.Int("match")
	switch req.Command {
	case "sub request":
		res, err := h.Service.RequestSub(ctx, actor(req), req.GuildID, id)
		if err != nil {
			return Reply{}, err
		}
		if res.AlreadyDone {
			return Whisper(fmt.Sprintf("You already asked for a substitute in match #%d (already done).", res.Match.ID)), nil
		}
		return Reply{Ephemeral: true, Content: fmt.Sprintf("Asked for a substitute in match #%d; you play until someone takes your seat.", res.Match.ID),
			Posts: []Post{{ChannelID: h.askChannel(ctx, res.Match, req), Message: subRequestPost(res)}}}, nil
	case "sub accept":
		return h.doAcceptSub(ctx, req, id, "")
	}
	return Reply{}, unknownSub(req)
}

// subRequestPost asks the queue channel for a substitute. Nobody is
// pinged: anyone eligible may take the seat.
func subRequestPost(res ladder.SubResult) Reply {
	m := res.Match
	return Reply{
		Content: fmt.Sprintf("**Match #%d** needs a substitute for %s (team %d). Not queued and not in a match? Take the seat.",
			m.ID, mention(res.Out), m.Team(res.Out)),
		Mentions: []string{},
		Buttons:  [][]Button{{{Label: "Take the seat", Style: Primary, CustomID: ID(actSubAccept, m.ID, res.Out)}}},
	}
}

func (h *handlers) subAcceptButton(ctx context.Context, req Request) (Reply, error) {
	out := req.CustomID.Arg(0)
	if req.CustomID.ID == 0 || out == "" {
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "this button is not valid; use /sub accept")
	}
	r, err := h.doAcceptSub(ctx, req, req.CustomID.ID, out)
	if err != nil || r.Ephemeral {
		return r, err
	}
	r.Update = true
	return r, nil
}

// doAcceptSub seats the clicker and shows the new teams; a button click
// updates the request in place.
func (h *handlers) doAcceptSub(ctx context.Context, req Request, id int64, out string) (Reply, error) {
	res, err := h.Service.AcceptSub(ctx, actor(req), req.GuildID, id, out, req.UserName)
	if err != nil {
		return Reply{}, err
	}
	if res.AlreadyDone {
		return Whisper(fmt.Sprintf("You already took %s's seat in match #%d (already done).", mention(res.Out), res.Match.ID)), nil
	}
	r := subbedView(res, h.queueName(ctx, req.GuildID, res.Match.QueueID))
	if h.Rooms != nil && h.Rooms.Home(ctx, res.Match.ID) != "" {
		// The request was answered outside the room: the room hears it too,
		// once the substitute can see it.
		r.Posts = []Post{h.roomPost(res.Match, req, subbedView(res, h.queueName(ctx, req.GuildID, res.Match.QueueID)))}
	}
	return r, nil
}

// askChannel is where a match asks for a substitute: the queue's channel
// when the match is played in a room nobody else sees, else the match's
// channel.
func (h *handlers) askChannel(ctx context.Context, m ladder.Match, req Request) string {
	if h.Rooms != nil {
		if home := h.Rooms.Home(ctx, m.ID); home != "" {
			return home
		}
	}
	return matchChannel(m, req)
}

// roomPost is msg posted in the match's channel after its room (if any)
// admitted the match's current players, so a substitute sees it.
func (h *handlers) roomPost(m ladder.Match, req Request, msg Reply) Post {
	p := Post{ChannelID: matchChannel(m, req), Message: msg}
	if h.Rooms != nil {
		ch := p.ChannelID
		p.Open = func(ctx context.Context) string {
			h.Rooms.Admit(ctx, m.GuildID, m.ID)
			return ch
		}
	}
	return p
}

// subbedView is a match after a substitution: who left, who came, the new
// teams with their chances, and the report buttons.
func subbedView(res ladder.SubResult, queue string) Reply {
	r := matchOnView(res.Match, queue)
	r.Content = fmt.Sprintf("**Match #%d**: %s takes %s's seat. %s vs %s", res.Match.ID, mention(res.In), mention(res.Out),
		mentions(res.Match.Teams[0]), mentions(res.Match.Teams[1]))
	r.Mentions = []string{res.In, res.Out}
	return r
}

// modSub is a moderator forcing a substitute.
func (h *handlers) modSub(ctx context.Context, req Request) (Reply, error) {
	id, _ := req.Int("match")
	out, _ := req.String("out")
	in, _ := req.String("in")
	res, err := h.Service.ForceSub(ctx, actor(req), req.GuildID, id, out, in)
	if err != nil {
		return Reply{}, err
	}
	if res.AlreadyDone {
		return Whisper(fmt.Sprintf("%s already plays in %s's place in match #%d (already done).", mention(in), mention(out), id)), nil
	}
	return Reply{Ephemeral: true, Content: fmt.Sprintf("%s now plays in %s's place in match #%d.", mention(in), mention(out), id),
		Posts: []Post{h.roomPost(res.Match, req, subbedView(res, h.queueName(ctx, req.GuildID, res.Match.QueueID)))}}, nil
}
