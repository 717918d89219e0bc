package rooms

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// State is where a room is in its life.
type State string

// Room states. A room moves creating → open → closing → closed, or from
// creating to fallback when it could not be made.
const (
	StateCreating State = "creating"
	StateOpen     State = "open"
	StateClosing  State = "closing"
	StateClosed   State = "closed"
	StateFallback State = "fallback"
)

// Room is one match's room as stored.
type Room struct {
	MatchID int64
	GuildID string
	QueueID int64
	Mode    Mode
	// HomeChannelID is the queue's channel the match would be announced in
	// without a room: the thread's parent, where the link goes, and the
	// match's channel again once the room closes.
	HomeChannelID string
	// ChannelID is the thread or text channel; "" until created.
	ChannelID string
	// VoiceIDs are the teams' voice channels; "" when none (or deleted).
	VoiceIDs     [2]string
	LobbyVoiceID string
	// Moved are the players moved out of the lobby voice channel.
	Moved []string
	// Members are the players given access to the room so far.
	Members   []string
	State     State
	CreatedAt time.Time
	// EndedAt is when the rooms job saw the match end; CloseAt when the
	// room is archived or deleted. Zero until then.
	EndedAt time.Time
	CloseAt time.Time
}

// Store is the rooms' persistence.
type Store interface {
	// RoomSettings returns a queue's room settings, DefaultSettings when
	// none are stored.
	RoomSettings(ctx context.Context, queueID int64) (Settings, error)
	// SaveRoomSettings inserts or replaces a queue's room settings and,
	// when audit is not nil, adds that audit entry in the same transaction.
	SaveRoomSettings(ctx context.Context, s Settings, audit *ladder.AuditEntry) error
	// BeginRoom inserts r and answers false when the match already has a
	// room row (another process, or a repeated call, got there first).
	BeginRoom(ctx context.Context, r Room) (bool, error)
	// UpdateRoom writes every column of r's row if the row is still in
	// state from, and answers false when it was not (another process moved
	// the room on: its write stands).
	UpdateRoom(ctx context.Context, r Room, from State) (bool, error)
	// MoveRoomState moves a room from one state to another and answers
	// false when it was not in from (a conditional update: one winner).
	MoveRoomState(ctx context.Context, matchID int64, from, to State) (bool, error)
	// Room returns a match's room; ladder.CodeNotFound when it has none.
	Room(ctx context.Context, matchID int64) (Room, error)
	// LiveRooms returns up to limit rooms in state creating, open or
	// closing whose match ID is above after, by match ID.
	LiveRooms(ctx context.Context, after int64, limit int) ([]Room, error)
	// SetMatchChannel points a match's channel at channelID, where the
	// match's later messages are posted.
	SetMatchChannel(ctx context.Context, matchID int64, channelID string) error
	// MoveMatchChannel points a match's channel at to if it is from, and
	// answers false when it was not (another process moved it first).
	MoveMatchChannel(ctx context.Context, matchID int64, from, to string) (bool, error)
	// OpenRoomByChannel returns the open room whose thread or text
	// channel is channelID; ladder.CodeNotFound when there is none.
	OpenRoomByChannel(ctx context.Context, channelID string) (Room, error)
	// AddRoomWarning records that a guild was told about problem and
	// answers false when it had been told already.
	AddRoomWarning(ctx context.Context, guildID, problem string, at time.Time) (bool, error)
	// ClearRoomWarning forgets a problem, so the next occurrence is told.
	ClearRoomWarning(ctx context.Context, guildID, problem string) error
}

// names are a room's channel names in the guild's language: what the
// rooms job looks for when a process died between creating a channel and
// storing its ID.
func textName(l *i18n.Lang, matchID int64) string { return l.T("room.name_text", "ID", matchID) }

func voiceName(l *i18n.Lang, matchID int64, team int) string {
	return l.T("room.name_voice", "ID", matchID, "Team", team)
}

// allNames are the names a room's channels may have, in every language
// (the guild's language may have changed since they were made); text
// reports which are the text channel's.
func allNames(matchID int64) (names []string, text map[string]bool) {
	text = map[string]bool{}
	cat := i18n.Default()
	for _, code := range cat.Languages() {
		l, _ := cat.Lang(code)
		for _, n := range []string{textName(l, matchID), voiceName(l, matchID, 1), voiceName(l, matchID, 2)} {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
		text[textName(l, matchID)] = true
	}
	return names, text
}

// JoinIDs writes a list of IDs as stored.
func JoinIDs(ids []string) string { return strings.Join(ids, ",") }

// SplitIDs reads a list written by JoinIDs.
func SplitIDs(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// hasVoice reports whether the room still has a voice channel.
func (r Room) hasVoice() bool { return r.VoiceIDs[0] != "" || r.VoiceIDs[1] != "" }

// removeMember records userID as no longer given access.
func (r *Room) removeMember(userID string) {
	r.Members = slices.DeleteFunc(r.Members, func(u string) bool { return u == userID })
}

// addMember records userID as given access.
func (r *Room) addMember(userID string) {
	if !slices.Contains(r.Members, userID) {
		r.Members = append(r.Members, userID)
	}
}
