package commands

import (
	"context"

	"github.com/ladderbot/ladderbot/ladder"
)

// recordMessage is a Post's Sent hook that records the posted message as
// the match's message of kind, so that it can be edited later: a
// substitute request when its seat is taken, and every message of the
// match when the match ends (ClosedButtons).
func (h *handlers) recordMessage(matchID int64, kind, channelID string) func(ctx context.Context, sentIn, messageID string) error {
	return func(ctx context.Context, sentIn, messageID string) error {
		// The channel it was sent in: a match's room may stand in for the
		// channel the post was addressed to.
		if sentIn == "" {
			sentIn = channelID
		}
		return h.Service.RecordAnnouncement(ctx, ladder.Announcement{MatchID: matchID, Kind: kind, ChannelID: sentIn, MessageID: messageID})
	}
}

// ClosedButtons is the edit of a message of a match that has ended
// (confirmed, resolved, cancelled or voided): its buttons and menus go,
// its text stays, so nothing on it looks like it still works. The
// message-closing job sends it for every recorded message of such a match.
func ClosedButtons(a ladder.Announcement) Reply {
	return Reply{Edit: a.MessageID, ButtonsOnly: true}
}
