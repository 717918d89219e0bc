package commands

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// Component actions of /queue.
const (
	actPartyAccept  = "party_ok"
	actPartyDecline = "party_no"
)

func (h *handlers) queueCommand() Command {
	return Command{
		Name:        "queue",
		Description: "Join, leave or look at the matchmaking queue",
		Ephemeral:   true,
		Options: []Option{
			sub("join", "Join a queue, alone or with a partner (they get an invitation)",
				opt(OptUser, "partner", "play together with this player", false), queueOpt()),
			sub("leave", "Leave the queue (your whole party leaves)"),
			sub("status", "Queue sizes and your wait"),
		},
		Handle:       h.queue,
		Autocomplete: h.autocomplete,
	}
}

func (h *handlers) queueComponents() []Component {
	return []Component{
		{Action: actPartyAccept, Handle: h.partyAccept},
		{Action: actPartyDecline, Handle: h.partyDecline},
	}
}

func (h *handlers) queue(ctx context.Context, req Request) (Reply, error) {
	g, err := h.ensure(ctx, req)
	if err != nil {
		return Reply{}, err
	}
	l := userLang(req)
	switch req.Command {
	case "queue join":
		return h.queueJoin(ctx, req, guildLang(g, req))
	case "queue leave":
		t, already, err := h.Service.LeaveQueue(ctx, req.GuildID, req.UserID)
		if err != nil {
			return Reply{}, err
		}
		if already {
			return Whisper(l.T("queue.left_already")), nil
		}
		if len(t.UserIDs) > 1 {
			return Whisper(l.T("queue.party_left", "Players", mentions(t.UserIDs))), nil
		}
		return Whisper(l.T("queue.left")), nil
	case "queue status":
		return h.queueStatus(ctx, req)
	}
	return Reply{}, unknownSub(req)
}

// queueJoin answers in the user's language; the invitation and the
// announcements it posts are in the guild's, posts.
func (h *handlers) queueJoin(ctx context.Context, req Request, posts *i18n.Lang) (Reply, error) {
	l := userLang(req)
	partner, _ := req.String("partner")
	queue, _ := req.String("queue")
	res, err := h.Service.JoinQueue(ctx, ladder.JoinRequest{
		GuildID: req.GuildID, Queue: queue, UserID: req.UserID, Name: req.UserName,
		PartnerID: partner, ChannelID: req.ChannelID, Roles: memberRoles(req), RolesKnown: true,
	})
	if err != nil {
		return Reply{}, err
	}
	r := Reply{Ephemeral: true}
	switch {
	case res.Invite.ID != 0 && res.AlreadyDone:
		r.Content = l.T("queue.invite_waiting", "Partner", mention(partner))
	case res.Invite.ID != 0:
		r.Content = l.T("queue.invite_sent", "Partner", mention(partner))
		r.Posts = append(r.Posts, Post{ChannelID: req.ChannelID, Message: inviteMessage(posts, res.Invite, res.Queue)})
	case res.AlreadyDone:
		r.Content = l.T("queue.already_in", "Queue", res.Queue.Name)
	default:
		r.Content = l.T("queue.joined", "Queue", res.Queue.Name, "Size", res.Queue.TeamSize)
	}
	h.countFormed(res.Formed)
	r.Posts = append(r.Posts, h.announcements(ctx, posts, res.Formed, req.ChannelID)...)
	if inMatch(res.Formed, req.UserID) {
		r.Content += " " + l.T("queue.match_formed")
	}
	return r, nil
}

// memberRoles are the invoking member's roles as the queue's role
// requirements read them: never nil, since an interaction in a guild
// always says which roles its member holds (possibly none).
func memberRoles(req Request) []string {
	if req.Roles == nil {
		return []string{}
	}
	return req.Roles
}

func inMatch(formed []ladder.FormedMatch, userID string) bool {
	for _, f := range formed {
		if f.Match.Team(userID) != 0 {
			return true
		}
	}
	return false
}

func inviteMessage(l *i18n.Lang, in ladder.Invite, q ladder.Queue) Reply {
	return Reply{
		Content: l.T("queue.invite", "To", mention(in.To), "From", mention(in.From), "Queue", q.Name,
			"Expires", fmt.Sprintf("<t:%d:R>", in.ExpiresAt.Unix())),
		Mentions: []string{in.To},
		Buttons:  [][]Button{inviteButtons(l, in.ID)},
	}
}

func inviteButtons(l *i18n.Lang, id int64) []Button {
	return []Button{
		{Label: l.T("button.accept"), Style: Success, CustomID: ID(actPartyAccept, id)},
		{Label: l.T("button.decline"), Style: Secondary, CustomID: ID(actPartyDecline, id)},
	}
}

func (h *handlers) partyAccept(ctx context.Context, req Request) (Reply, error) {
	// The service accepts whatever invitation waits for the clicker; make
	// sure it is the one on this button.
	st, err := h.Service.QueueStatus(ctx, req.GuildID, req.UserID)
	if err != nil {
		return Reply{}, err
	}
	if st.Invite.ID != 0 && st.Invite.ID != req.CustomID.ID {
		return Reply{}, ladder.Errorf(ladder.CodeForbidden, "this invitation is not for you")
	}
	res, err := h.Service.AcceptParty(ctx, req.GuildID, req.UserID, req.UserName, memberRoles(req))
	if err != nil {
		return Reply{}, err
	}
	if res.AlreadyDone {
		return Whisper(userLang(req).T("queue.party_already")), nil
	}
	l := h.postLang(ctx, req)
	r := Reply{Update: true, Content: l.T("queue.party_accepted", "User", mention(req.UserID), "Players", mentions(res.Ticket.UserIDs), "Queue", res.Queue.Name)}
	h.countFormed(res.Formed)
	r.Posts = h.announcements(ctx, l, res.Formed, req.ChannelID)
	return r, nil
}

func (h *handlers) partyDecline(ctx context.Context, req Request) (Reply, error) {
	st, err := h.Service.QueueStatus(ctx, req.GuildID, req.UserID)
	if err != nil {
		return Reply{}, err
	}
	if st.Invite.ID != req.CustomID.ID {
		return Reply{}, ladder.Errorf(ladder.CodeForbidden, "this invitation is not for you, or it has expired")
	}
	in, err := h.Service.DeclineParty(ctx, req.GuildID, req.UserID)
	if err != nil {
		return Reply{}, err
	}
	return Reply{Update: true, Content: h.postLang(ctx, req).T("queue.party_declined", "To", mention(in.To), "From", mention(in.From))}, nil
}

func (h *handlers) queueStatus(ctx context.Context, req Request) (Reply, error) {
	st, err := h.Service.QueueStatus(ctx, req.GuildID, req.UserID)
	if err != nil {
		return Reply{}, err
	}
	l := userLang(req)
	lines := make([]string, 0, len(st.Queues))
	for _, q := range st.Queues {
		key := "queue.status_line"
		if q.Queue.Disabled {
			key = "queue.status_line_closed"
		} else if h.Joins != nil {
			o, err := h.Joins.Opening(ctx, q.Queue, h.Service.Now())
			if err != nil {
				return Reply{}, err
			}
			if o.Scheduled && !o.State.Open && !o.State.Next.IsZero() {
				lines = append(lines, l.T("queue.status_line_opens", "Queue", q.Queue.Name, "Size", q.Queue.TeamSize,
					"Waiting", l.N("queue.waiting", q.Players), "When", o.Hours.Local(o.State.Next)))
				continue
			}
		}
		lines = append(lines, l.T(key, "Queue", q.Queue.Name, "Size", q.Queue.TeamSize, "Waiting", l.N("queue.waiting", q.Players)))
	}
	var you string
	switch {
	case st.Ticket.ID != 0:
		name := ""
		for _, q := range st.Queues {
			if q.Queue.ID == st.Ticket.QueueID {
				name = q.Queue.Name
			}
		}
		if len(st.Ticket.UserIDs) > 1 {
			you = l.T("queue.you_wait_party", "Queue", name, "Players", mentions(st.Ticket.UserIDs), "Wait", l.Duration(st.Wait))
		} else {
			you = l.T("queue.you_wait", "Queue", name, "Wait", l.Duration(st.Wait))
		}
	default:
		you = l.T("queue.not_queued")
	}
	if st.Invite.ID != 0 {
		you += "\n" + l.T("queue.invited_you", "From", mention(st.Invite.From))
	}
	// The player's own state ends the reply and is never cut: a server
	// with a hundred queues sees the queues that fit Discord's 4,096
	// characters and a count of the rest before it.
	var b strings.Builder
	if len(lines) > 0 {
		b.WriteString(fitLines(l, lines, listedChars-utf8.RuneCountInString(you)) + "\n")
	}
	b.WriteString(you)
	r := Reply{Ephemeral: true, Embeds: []Embed{{Title: l.T("queue.title"), Description: b.String(), Color: ColorInfo}}}
	if st.Invite.ID != 0 {
		r.Buttons = [][]Button{inviteButtons(l, st.Invite.ID)}
	}
	return r, nil
}
