// Package row holds the rows of queue panels and result posts as package
// panel reads and writes them, so that storage can implement panel.Store
// without importing panel (which imports commands).
package row

import (
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// Panel is the row of one queue's panel.
type Panel struct {
	QueueID   int64
	GuildID   string
	ChannelID string
	// MessageID is the panel's message; "" until it is posted.
	MessageID string
	// Shown is the digest of what the message shows.
	Shown string
	// EditedAt is the last post or edit.
	EditedAt time.Time
}

// Party is one ticket of a queue: one player, or a party queued together.
type Party struct {
	UserIDs  []string
	JoinedAt time.Time
}

// ResultsChannel is where a guild's rated results are posted, from Since.
type ResultsChannel struct {
	GuildID   string
	ChannelID string
	Since     time.Time
}

// Rated is a rated (or later voided) match and what was posted of it.
type Rated struct {
	MatchID int64
	State   ladder.MatchState
	Winner  int
	RatedAt time.Time
	// Posted says a result post exists; MessageID and Shown describe it.
	Posted    bool
	MessageID string
	Shown     string
}
