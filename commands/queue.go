package commands

import (
	"context"
	"fmt"
	"strings"
	"time"

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
	if _, err := h.ensure(ctx, req); err != nil {
		return Reply{}, err
	}
	switch req.Command {
	case "queue join":
		return h.queueJoin(ctx, req)
	case "queue leave":
		t, already, err := h.Service.LeaveQueue(ctx, req.GuildID, req.UserID)
		if err != nil {
			return Reply{}, err
		}
		if already {
			return Whisper("You were not in a queue (already done)."), nil
		}
		if len(t.UserIDs) > 1 {
			return Whisper("Your party left the queue: " + mentions(t.UserIDs) + "."), nil
		}
		return Whisper("You left the queue."), nil
	case "queue status":
		return h.queueStatus(ctx, req)
	}
	return Reply{}, unknownSub(req)
}

func (h *handlers) queueJoin(ctx context.Context, req Request) (Reply, error) {
	partner, _ := req.String("partner")
	queue, _ := req.String("queue")
	res, err := h.Service.JoinQueue(ctx, ladder.JoinRequest{
		GuildID: req.GuildID, Queue: queue, UserID: req.UserID, Name: req.UserName,
		PartnerID: partner, ChannelID: req.ChannelID,
	})
	if err != nil {
		return Reply{}, err
	}
	r := Reply{Ephemeral: true}
	switch {
	case res.Invite.ID != 0 && res.AlreadyDone:
		r.Content = fmt.Sprintf("Your invitation to %s is still waiting (already done).", mention(partner))
	case res.Invite.ID != 0:
		r.Content = fmt.Sprintf("Invitation sent to %s; you queue together once they accept.", mention(partner))
		r.Posts = append(r.Posts, Post{ChannelID: req.ChannelID, Message: inviteMessage(res.Invite, res.Queue)})
	case res.AlreadyDone:
		r.Content = fmt.Sprintf("You are already in queue **%s** (already done).", res.Queue.Name)
	default:
		r.Content = fmt.Sprintf("You joined queue **%s** (%dv%d).", res.Queue.Name, res.Queue.TeamSize, res.Queue.TeamSize)
	}
	h.countFormed(res.Formed)
	r.Posts = append(r.Posts, h.announcements(ctx, res.Formed, req.ChannelID)...)
	if inMatch(res.Formed, req.UserID) {
		r.Content += " A match formed: see the announcement."
	}
	return r, nil
}

func inMatch(formed []ladder.FormedMatch, userID string) bool {
	for _, f := range formed {
		if f.Match.Team(userID) != 0 {
			return true
		}
	}
	return false
}

func inviteMessage(in ladder.Invite, q ladder.Queue) Reply {
	return Reply{
		Content: fmt.Sprintf("%s, %s invites you to queue **%s** together. The invitation expires <t:%d:R>.",
			mention(in.To), mention(in.From), q.Name, in.ExpiresAt.Unix()),
		Mentions: []string{in.To},
		Buttons: [][]Button{{
			{Label: "Accept", Style: Success, CustomID: ID(actPartyAccept, in.ID)},
			{Label: "Decline", Style: Secondary, CustomID: ID(actPartyDecline, in.ID)},
		}},
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
	res, err := h.Service.AcceptParty(ctx, req.GuildID, req.UserID, req.UserName)
	if err != nil {
		return Reply{}, err
	}
	if res.AlreadyDone {
		return Whisper("You are already queued with your party (already done)."), nil
	}
	r := Reply{Update: true, Content: fmt.Sprintf("%s accepted: %s queue **%s** together.", mention(req.UserID), mentions(res.Ticket.UserIDs), res.Queue.Name)}
	h.countFormed(res.Formed)
	r.Posts = h.announcements(ctx, res.Formed, req.ChannelID)
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
	return Reply{Update: true, Content: fmt.Sprintf("%s declined %s's invitation.", mention(in.To), mention(in.From))}, nil
}

func (h *handlers) queueStatus(ctx context.Context, req Request) (Reply, error) {
	st, err := h.Service.QueueStatus(ctx, req.GuildID, req.UserID)
	if err != nil {
		return Reply{}, err
	}
	var b strings.Builder
	for _, q := range st.Queues {
		state := ""
		if q.Queue.Disabled {
			state = " (closed)"
		}
		fmt.Fprintf(&b, "**%s** (%dv%d)%s: %d waiting\n", q.Queue.Name, q.Queue.TeamSize, q.Queue.TeamSize, state, q.Players)
	}
	switch {
	case st.Ticket.ID != 0:
		name := ""
		for _, q := range st.Queues {
			if q.Queue.ID == st.Ticket.QueueID {
				name = q.Queue.Name
			}
		}
		fmt.Fprintf(&b, "You are in **%s**, waiting %s", name, st.Wait.Round(time.Second))
		if len(st.Ticket.UserIDs) > 1 {
			fmt.Fprintf(&b, " with %s", mentions(st.Ticket.UserIDs))
		}
		b.WriteString(".")
	default:
		b.WriteString("You are not queued.")
	}
	if st.Invite.ID != 0 {
		fmt.Fprintf(&b, "\n%s invited you to queue together.", mention(st.Invite.From))
	}
	r := Reply{Ephemeral: true, Embeds: []Embed{{Title: "Queues", Description: b.String(), Color: ColorInfo}}}
	if st.Invite.ID != 0 {
		r.Buttons = [][]Button{{
			{Label: "Accept", Style: Success, CustomID: ID(actPartyAccept, st.Invite.ID)},
			{Label: "Decline", Style: Secondary, CustomID: ID(actPartyDecline, st.Invite.ID)},
		}}
	}
	return r, nil
}
