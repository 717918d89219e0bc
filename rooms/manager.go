package rooms

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// Ladder is what the rooms read of the ladder: guild settings (moderator
// role, log channel), matches and the clock.
type Ladder interface {
	Guild(ctx context.Context, id string) (ladder.Guild, error)
	Match(ctx context.Context, guildID string, id int64) (ladder.Match, error)
	Now() time.Time
}

// Manager opens and closes match rooms. Create it with New; it keeps no
// state of its own between calls: everything is in the Store.
type Manager struct {
	store Store
	dc    Discord
	lad   Ladder
	log   *slog.Logger
}

// New returns a Manager over store, calling Discord through dc; with a
// nil dc it only keeps settings (a process without the bot) and opens no
// rooms.
func New(store Store, dc Discord, lad Ladder, log *slog.Logger) *Manager {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Manager{store: store, dc: dc, lad: lad, log: log}
}

// Settings returns a queue's room settings.
func (m *Manager) Settings(ctx context.Context, queueID int64) (Settings, error) {
	s, err := m.store.RoomSettings(ctx, queueID)
	if err != nil {
		return Settings{}, fmt.Errorf("rooms: settings of queue %d: %w", queueID, err)
	}
	return s, nil
}

// SaveSettings validates and stores a queue's room settings, with an
// audit entry "queue.room" of actor holding the settings before and after
// (by their field names) in the same transaction. s.QueueID must be q's.
func (m *Manager) SaveSettings(ctx context.Context, actor ladder.Actor, q ladder.Queue, s Settings) error {
	if !actor.Moderator {
		return ladder.Errorf(ladder.CodeForbidden, "only moderators can change queues")
	}
	if s.QueueID != q.ID {
		return fmt.Errorf("rooms: settings of queue %d saved as queue %d's", s.QueueID, q.ID)
	}
	if err := s.Validate(); err != nil {
		return err
	}
	old, err := m.Settings(ctx, q.ID)
	if err != nil {
		return err
	}
	if old == s {
		return nil
	}
	before, _ := json.Marshal(old.Values())
	after, _ := json.Marshal(s.Values())
	entry := ladder.AuditEntry{GuildID: q.GuildID, ActorID: actor.UserID, Action: "queue.room", Target: q.Name,
		Before: string(before), After: string(after), At: m.lad.Now()}
	if err := m.store.SaveRoomSettings(ctx, s, &entry); err != nil {
		return fmt.Errorf("rooms: save settings of queue %d: %w", s.QueueID, err)
	}
	return nil
}

// Problems told to the moderators' log channel once per guild.
const (
	problemThreads = "create_private_threads"
	problemManage  = "manage_channels"
	problemMove    = "move_members"
	problemLimit   = "max_channels"
	problemForm    = "channel_refused"
	problemCleanup = "cleanup"
	// problemEject: a former player could not be taken out of the room's
	// voice channel (no Move Members).
	problemEject = "disconnect_members"
	// problemOverwrites: a player could not be let into a channel that
	// holds Discord's 1000 permission overwrites.
	problemOverwrites = "max_overwrites"
)

// problemOf names the problem behind a failed room call on a room of mode
// (voice for a voice channel), "" for errors that are not a lasting
// problem of the guild's set-up.
func problemOf(err error, mode Mode, voice bool) string {
	switch DiscordCode(err) {
	case CodeMissingPermissions:
		if mode == ModeThread && !voice {
			return problemThreads
		}
		return problemManage
	case CodeMaxChannels:
		return problemLimit
	case CodeInvalidForm:
		if mode == ModeChannel || voice {
			return problemForm
		}
	}
	return ""
}

// problemText is what the moderators are told about a problem, in the
// guild's language l: the catalogs' room.problem.* messages. where is the
// channel a room was to be made in, or the member a problem is about.
func problemText(l *i18n.Lang, problem string, matchID int64, where string) string {
	return l.T("room.problem."+problem, "ID", matchID, "Where", where)
}

// warn tells the guild's log channel about problem unless it was told
// already; without a log channel it is only logged.
func (m *Manager) warn(ctx context.Context, guildID, problem string, matchID int64, where string, cause error) {
	m.log.Warn("match room problem", "guild_id", guildID, "match_id", matchID, "problem", problem, "err", cause)
	first, err := m.store.AddRoomWarning(ctx, guildID, problem, m.lad.Now())
	if err != nil || !first {
		return
	}
	g, err := m.lad.Guild(ctx, guildID)
	if err != nil || g.LogChannelID == "" {
		return
	}
	l := i18n.ForServer(g.Language, g.PreferredLocale)
	if err := m.dc.Send(ctx, g.LogChannelID, problemText(l, problem, matchID, where), nil); err != nil {
		m.log.Warn("room problem not told to the log channel", "guild_id", guildID, "err", err)
	}
}

// solved forgets a problem once a room of its kind was made again.
func (m *Manager) solved(ctx context.Context, guildID string, problems ...string) {
	for _, p := range problems {
		if err := m.store.ClearRoomWarning(ctx, guildID, p); err != nil {
			m.log.Warn("room warning not cleared", "guild_id", guildID, "problem", p, "err", err)
		}
	}
}
