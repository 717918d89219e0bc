package commands

import (
	"context"
	"fmt"

	"github.com/ladderbot/ladderbot/i18n"
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
		ch := h.askChannel(ctx, res.Match, req)
		return Reply{Ephemeral: true, Content: fmt.Sprintf("Asked for a substitute in match #%d; you play until someone takes your seat.", res.Match.ID),
			Posts: []Post{{ChannelID: ch, Message: subRequestPost(res), Sent: h.recordMessage(res.Match.ID, ladder.SubMessage(res.Out), ch)}}}, nil
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
	return h.doAcceptSub(ctx, req, req.CustomID.ID, out)
}

// doAcceptSub seats the clicker or the invoker of /sub accept, one path
// for both: the same service call, the same private answer and the same
// messages (seatTaken).
func (h *handlers) doAcceptSub(ctx context.Context, req Request, id int64, out string) (Reply, error) {
	res, err := h.Service.AcceptSub(ctx, actor(req), req.GuildID, id, out, req.UserName)
	if err != nil {
		return Reply{}, err
	}
	if res.AlreadyDone {
		return Whisper(fmt.Sprintf("You already took %s's seat in match #%d (already done).", mention(res.Out), res.Match.ID)), nil
	}
	posts, err := h.seatTaken(ctx, req, res)
	if err != nil {
		return Reply{}, err
	}
	return Reply{Ephemeral: true, Content: fmt.Sprintf("You now play in %s's seat in match #%d (team %d).", mention(res.Out), res.Match.ID, res.Match.Team(res.In)),
		Posts: posts}, nil
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

// seatTaken are the messages of a substitution, whoever made it: the
// request for the seat, when there was one, edited to say it is filled,
// with no button left; the announcement shown with the new teams; and a
// message to the match's channel naming who came and who left.
func (h *handlers) seatTaken(ctx context.Context, req Request, res ladder.SubResult) ([]Post, error) {
	m := res.Match
	var posts []Post
	a, ok, err := h.Service.MatchMessage(ctx, m.ID, ladder.SubMessage(res.Out))
	if err != nil {
		return nil, err
	}
	if !ok && req.Kind == KindComponent && req.CustomID.Action == actSubAccept && req.MessageID != "" {
		// A request posted before its message was recorded: the one clicked.
		a, ok = ladder.Announcement{MatchID: m.ID, Kind: ladder.SubMessage(res.Out), ChannelID: req.ChannelID, MessageID: req.MessageID}, true
	}
	if ok {
		filled := subFilledView(res)
		filled.Edit = a.MessageID
		posts = append(posts, Post{ChannelID: a.ChannelID, Message: filled, Sent: func(ctx context.Context, _, _ string) error {
			return h.Service.CloseMessage(ctx, a)
		}})
	}
	edit, ok, err := h.announcementEdit(ctx, req.GuildID, m)
	if err != nil {
		return nil, err
	}
	if ok {
		posts = append(posts, edit)
	}
	// The match's channel (its room, once the substitute is admitted)
	// hears who came and who left.
	return append(posts, h.roomPost(m, req, subbedView(res, h.queueName(ctx, req.GuildID, m.QueueID)))), nil
}

// subFilledView replaces a substitute request once its seat is taken.
func subFilledView(res ladder.SubResult) Reply {
	return Reply{Content: fmt.Sprintf("**Match #%d**: %s took %s's seat (team %d). This request is filled.",
		res.Match.ID, mention(res.In), mention(res.Out), res.Match.Team(res.In)), Mentions: []string{}}
}

// subbedView is a match after a substitution: who left, who came and the
// new teams with their chances. It pings the two players; the report
// buttons stay on the announcement.
func subbedView(res ladder.SubResult, queue string) Reply {
	r := matchOnView(i18n.English(), res.Match, queue)
	r.Content = fmt.Sprintf("**Match #%d**: %s takes %s's seat. %s vs %s", res.Match.ID, mention(res.In), mention(res.Out),
		mentions(res.Match.Teams[0]), mentions(res.Match.Teams[1]))
	r.Embeds[0].Footer = "Report the result with the buttons of the match's announcement or /report."
	r.Mentions = []string{res.In, res.Out}
	r.Buttons = nil
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
	posts, err := h.seatTaken(ctx, req, res)
	if err != nil {
		return Reply{}, err
	}
	return Reply{Ephemeral: true, Content: fmt.Sprintf("%s now plays in %s's place in match #%d.", mention(in), mention(out), id), Posts: posts}, nil
}
