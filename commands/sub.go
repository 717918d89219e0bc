package commands

import (
	"context"

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
			return Whisper(userLang(req).T("sub.already_asked", "ID", res.Match.ID)), nil
		}
		ch := h.askChannel(ctx, res.Match, req)
		return Reply{Ephemeral: true, Content: userLang(req).T("sub.asked", "ID", res.Match.ID),
			Posts: []Post{{ChannelID: ch, Message: subRequestPost(h.postLang(ctx, req), res), Sent: h.recordMessage(res.Match.ID, ladder.SubMessage(res.Out), ch)}}}, nil
	case "sub accept":
		return h.doAcceptSub(ctx, req, id, "")
	}
	return Reply{}, unknownSub(req)
}

// subRequestPost asks the queue channel for a substitute. Nobody is
// pinged: anyone eligible may take the seat.
func subRequestPost(l *i18n.Lang, res ladder.SubResult) Reply {
	m := res.Match
	return Reply{
		Content:  l.T("sub.post", "ID", m.ID, "Out", mention(res.Out), "Team", m.Team(res.Out)),
		Mentions: []string{},
		Buttons:  [][]Button{{{Label: l.T("sub.take_seat"), Style: Primary, CustomID: ID(actSubAccept, m.ID, res.Out)}}},
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
		return Whisper(userLang(req).T("sub.already_taken", "Out", mention(res.Out), "ID", res.Match.ID)), nil
	}
	posts, err := h.seatTaken(ctx, req, res)
	if err != nil {
		return Reply{}, err
	}
	return Reply{Ephemeral: true, Content: userLang(req).T("sub.taken", "Out", mention(res.Out), "ID", res.Match.ID, "Team", res.Match.Team(res.In)),
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
// admitted the match's current players, so a substitute sees it. When
// the room could not take a player the match moves to the queue's
// channel: msg goes there, followed by the match where it stands, with
// its buttons.
func (h *handlers) roomPost(m ladder.Match, req Request, msg Reply) Post {
	p := Post{ChannelID: matchChannel(m, req), Message: msg}
	if h.Rooms != nil {
		ch := p.ChannelID
		moved := false
		p.Open = func(ctx context.Context) string {
			if home, ok := h.Rooms.Admit(ctx, m.GuildID, m.ID); ok {
				moved = true
				return home
			}
			return ch
		}
		p.Follow = func(ctx context.Context) []Post {
			if !moved {
				return nil
			}
			cur, err := h.Service.Match(ctx, m.GuildID, m.ID)
			if err != nil {
				return nil
			}
			l := h.langOf(ctx, m.GuildID)
			posts := []Post{{Message: Reply{Content: l.T("room_lost.refused", "ID", m.ID), Mentions: cur.Players()}}}
			if v, ok := h.standing(ctx, l, cur, ""); ok {
				posts = append(posts, v)
			}
			return posts
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
	l := h.postLang(ctx, req)
	if ok {
		filled := subFilledView(l, res)
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
	return append(posts, h.roomPost(m, req, subbedView(l, res, h.queueName(ctx, req.GuildID, m.QueueID)))), nil
}

// subFilledView replaces a substitute request once its seat is taken.
func subFilledView(l *i18n.Lang, res ladder.SubResult) Reply {
	return Reply{Content: l.T("sub.filled", "ID", res.Match.ID, "In", mention(res.In), "Out", mention(res.Out), "Team", res.Match.Team(res.In)),
		Mentions: []string{}}
}

// subbedView is a match after a substitution: who left, who came and the
// new teams with their chances. It pings the two players; the report
// buttons stay on the announcement.
func subbedView(l *i18n.Lang, res ladder.SubResult, queue string) Reply {
	r := matchOnView(l, res.Match, queue)
	r.Content = l.T("sub.takes", "ID", res.Match.ID, "In", mention(res.In), "Out", mention(res.Out),
		"Team1", mentions(res.Match.Teams[0]), "Team2", mentions(res.Match.Teams[1]))
	r.Embeds[0].Footer = l.T("sub.footer")
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
		return Whisper(userLang(req).T("sub.mod_already", "In", mention(in), "Out", mention(out), "ID", id)), nil
	}
	posts, err := h.seatTaken(ctx, req, res)
	if err != nil {
		return Reply{}, err
	}
	return Reply{Ephemeral: true, Content: userLang(req).T("sub.mod_done", "In", mention(in), "Out", mention(out), "ID", id), Posts: posts}, nil
}
