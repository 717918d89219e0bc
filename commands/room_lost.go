package commands

import (
	"context"
	"fmt"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// RoomLost moves a match whose room is gone back to its queue's channel:
// called by the bot when Discord says a channel it posts to is unknown or
// a locked thread, or that a channel was deleted. It returns the channel
// to post to instead, "" when channelID is no open match room's; and, from
// the one call that moved the match, the posts that tell its players
// there: that the room is gone, and the match where it stands — the ready
// check, the captains' menu, the report or confirmation buttons — so the
// match goes on with nothing lost.
func (s *Set) RoomLost(ctx context.Context, channelID string) (home string, posts []Post, err error) {
	if s.lost == nil {
		return "", nil, nil
	}
	return s.lost(ctx, channelID)
}

func (h *handlers) roomLost(ctx context.Context, channelID string) (string, []Post, error) {
	if h.Rooms == nil {
		return "", nil, nil
	}
	r, moved, ok, err := h.Rooms.Lost(ctx, channelID)
	if err != nil || !ok {
		return "", nil, err
	}
	if !moved {
		return r.HomeChannelID, nil, nil
	}
	m, err := h.Service.Match(ctx, r.GuildID, r.MatchID)
	if err != nil {
		return r.HomeChannelID, nil, fmt.Errorf("commands: match of a lost room: %w", err)
	}
	l := h.langOf(ctx, r.GuildID)
	posts := []Post{{ChannelID: r.HomeChannelID, Message: Reply{Content: l.T("room_lost.notice", "ID", m.ID), Mentions: m.Players()}}}
	if v, ok := h.standing(ctx, l, m, r.HomeChannelID); ok {
		posts = append(posts, v)
	}
	return r.HomeChannelID, posts, nil
}

// standing is the post showing match m where it stands, with the buttons
// its players need next, in channel ch; false when it needs none (it
// ended, or a moderator must settle it).
func (h *handlers) standing(ctx context.Context, l *i18n.Lang, m ladder.Match, ch string) (Post, bool) {
	announced := func(ctx context.Context, sentIn, messageID string) error {
		return h.Service.RecordAnnouncement(ctx, ladder.Announcement{MatchID: m.ID, ChannelID: sentIn, MessageID: messageID})
	}
	switch m.State {
	case ladder.StateOpen:
		queue := h.queueName(ctx, m.GuildID, m.QueueID)
		d, err := h.Service.Draft(ctx, m.GuildID, m.ID)
		if err != nil {
			d = ladder.Draft{}
		}
		if rc, err := h.Service.ReadyCheck(ctx, m.GuildID, m.ID); err == nil && rc.State == ladder.ReadyPending {
			return Post{ChannelID: ch, Message: readyAnnouncement(l, m, rc, d, queue), Sent: announced}, true
		}
		if d.MatchID != 0 && d.State == ladder.DraftPicking {
			return Post{ChannelID: ch, Message: DraftView(l, m, d, queue)}, true
		}
		return Post{ChannelID: ch, Message: matchOnView(l, m, queue), Sent: announced}, true
	case ladder.StateReported:
		return Post{ChannelID: ch, Message: reportedView(l, m), Sent: h.recordMessage(m.ID, ladder.MessageReport, ch)}, true
	}
	return Post{}, false
}
