package rooms

import (
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// Mode is where a queue's matches are played.
type Mode string

// Room modes (docs/commands.md, /config queue room).
const (
	// ModeNone plays matches in the queue's channel.
	ModeNone Mode = "none"
	// ModeThread opens a private thread in the queue's channel with the
	// players added.
	ModeThread Mode = "thread"
	// ModeChannel opens a text channel in the queue's room category that
	// only the players, the moderators and the bot see.
	ModeChannel Mode = "channel"
)

// Settings are a queue's room settings.
type Settings struct {
	QueueID int64
	Mode    Mode
	// CategoryID is the category channel rooms of ModeChannel (and voice
	// channels) are created in; "" creates them at the top of the guild.
	CategoryID string
	// Voice opens one voice channel per team, joinable by that team only.
	Voice bool
	// LobbyVoiceID is a voice channel whose players are moved into their
	// team's channel when the match starts and back when it ends.
	LobbyVoiceID string
	// Linger is how long a room stays after its match ended before it is
	// archived (thread) or deleted (channel).
	Linger time.Duration
}

// MaxLinger bounds room_linger: a day.
const MaxLinger = 24 * time.Hour

// DefaultSettings are a queue's settings until a moderator changes them.
func DefaultSettings(queueID int64) Settings {
	return Settings{QueueID: queueID, Mode: ModeThread, Linger: 5 * time.Minute}
}

// ParseMode reads a room mode as /config queue room takes it.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case ModeNone, ModeThread, ModeChannel:
		return m, nil
	}
	return "", ladder.Errorf(ladder.CodeInvalid, "room must be none, thread or channel, not %q", s)
}

// Validate checks the settings and names the first bad one.
func (s Settings) Validate() error {
	if _, err := ParseMode(string(s.Mode)); err != nil {
		return err
	}
	if s.Linger < 0 || s.Linger > MaxLinger {
		return ladder.Errorf(ladder.CodeInvalid, "room_linger must be from 0 to %d seconds", int(MaxLinger/time.Second))
	}
	if s.Voice && s.Mode == ModeNone {
		return ladder.Errorf(ladder.CodeInvalid, "voice needs a room: set room to thread or channel first")
	}
	return nil
}
