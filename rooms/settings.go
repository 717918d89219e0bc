package rooms

import (
	"maps"
	"slices"
	"strconv"
	"strings"
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

// Field is one room setting as /config queue room, the dashboard and the
// token API name it.
type Field struct {
	Name    string
	Kind    ladder.SettingKind
	Help    string
	Choices []string
}

// Fields are the room settings in /config queue room's order.
var Fields = []Field{
	{Name: "room", Kind: ladder.KindChoice, Help: "none (the queue's channel), thread (default) or channel", Choices: []string{string(ModeNone), string(ModeThread), string(ModeChannel)}},
	{Name: "room_category", Kind: ladder.KindChannel, Help: "category for match channels and voice channels (empty: none)"},
	{Name: "voice", Kind: ladder.KindBool, Help: "one voice channel per team, joinable by that team only"},
	{Name: "lobby_voice", Kind: ladder.KindChannel, Help: "voice channel whose players are moved to their team's and back (empty: none)"},
	{Name: "room_linger", Kind: ladder.KindInt, Help: "seconds a room stays after its match ends (0-86400)"},
}

// Values returns the settings as text under their field names, as Apply
// reads them back.
func (s Settings) Values() map[string]string {
	return map[string]string{
		"room": string(s.Mode), "room_category": s.CategoryID, "voice": strconv.FormatBool(s.Voice),
		"lobby_voice": s.LobbyVoiceID, "room_linger": strconv.Itoa(int(s.Linger / time.Second)),
	}
}

// Apply sets the fields named in values (text, as Values gives them) and
// checks the result with Validate. Any bad value is an error naming the
// field, and s is then unchanged.
func (s *Settings) Apply(values map[string]string) error {
	next := *s
	for _, name := range slices.Sorted(maps.Keys(values)) {
		if !slices.ContainsFunc(Fields, func(f Field) bool { return f.Name == name }) {
			return ladder.Errorf(ladder.CodeInvalid, "no room setting called %q", name)
		}
	}
	for _, f := range Fields {
		name := f.Name
		v, ok := values[name]
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		switch name {
		case "room":
			m, err := ParseMode(v)
			if err != nil {
				return err
			}
			next.Mode = m
		case "room_category", "lobby_voice":
			if v != "" && !ladder.IsSnowflake(v) {
				return ladder.Errorf(ladder.CodeInvalid, "%s must be a Discord channel, not %q", name, v)
			}
			if name == "room_category" {
				next.CategoryID = v
			} else {
				next.LobbyVoiceID = v
			}
		case "voice":
			on, err := strconv.ParseBool(v)
			if err != nil {
				return ladder.Errorf(ladder.CodeInvalid, "voice must be true or false, not %q", v)
			}
			next.Voice = on
		case "room_linger":
			n, err := strconv.Atoi(v)
			if err != nil {
				return ladder.Errorf(ladder.CodeInvalid, "room_linger must be a whole number of seconds, not %q", v)
			}
			if n < 0 || n > int(MaxLinger/time.Second) {
				return ladder.Errorf(ladder.CodeInvalid, "room_linger must be from 0 to %d seconds", int(MaxLinger/time.Second))
			}
			next.Linger = time.Duration(n) * time.Second
		}
	}
	if err := next.Validate(); err != nil {
		return err
	}
	*s = next
	return nil
}
