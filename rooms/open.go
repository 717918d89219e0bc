package rooms

import (
	"context"
	"time"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// openTimeout bounds the making of one room.
const openTimeout = 30 * time.Second

// Open gives a formed match its room, as its queue's settings say, and
// returns the channel to announce the match in: the room, or home (the
// queue's channel) when the queue has no rooms or the room could not be
// made. It never fails: every problem falls back to home, so a match is
// never held up by its room. Called twice for one match (two processes,
// a retry) it makes one room; the second call gets the first's channel.
func (m *Manager) Open(ctx context.Context, f ladder.FormedMatch, home string) string {
	match := f.Match
	if home == "" || m.dc == nil {
		return home
	}
	// A room takes several calls; the caller's deadline (an interaction's
	// budget) must not cut it in half.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), openTimeout)
	defer cancel()
	set, err := m.store.RoomSettings(ctx, f.Queue.ID)
	if err != nil {
		m.log.Warn("room settings unreadable; match in the queue's channel", "guild_id", match.GuildID, "match_id", match.ID, "err", err)
		return home
	}
	if set.Mode == ModeNone {
		return home
	}
	r := Room{
		MatchID: match.ID, GuildID: match.GuildID, QueueID: f.Queue.ID, Mode: set.Mode,
		HomeChannelID: home, LobbyVoiceID: set.LobbyVoiceID, State: StateCreating, CreatedAt: m.lad.Now(),
	}
	// The row first: a crash after the channel is created leaves a row the
	// rooms job cleans up by the channel's name.
	first, err := m.store.BeginRoom(ctx, r)
	if err != nil {
		m.log.Warn("room not recorded; match in the queue's channel", "guild_id", match.GuildID, "match_id", match.ID, "err", err)
		return home
	}
	if !first {
		if got, err := m.store.Room(ctx, match.ID); err == nil && got.State == StateOpen && got.ChannelID != "" {
			return got.ChannelID
		}
		return home
	}
	g, err := m.lad.Guild(ctx, match.GuildID)
	if err != nil {
		return m.fallback(ctx, r, err)
	}
	l := i18n.ForServer(g.Language, g.PreferredLocale)
	if err := m.create(ctx, &r, set, match, g, l); err != nil {
		return m.fallback(ctx, r, err)
	}
	r.State = StateOpen
	if err := m.save(ctx, r, StateCreating); err != nil {
		m.log.Warn("room not stored as open; the rooms job cleans it up", "guild_id", r.GuildID, "match_id", r.MatchID, "err", err)
		return home
	}
	if err := m.store.SetMatchChannel(ctx, match.ID, r.ChannelID); err != nil {
		m.log.Warn("match not pointed at its room", "guild_id", r.GuildID, "match_id", r.MatchID, "err", err)
	}
	link := l.T("room.link", "ID", match.ID, "Queue", f.Queue.Name, "Channel", r.ChannelID)
	if err := m.dc.Send(ctx, home, link, nil); err != nil {
		m.log.Warn("room link not posted", "guild_id", r.GuildID, "match_id", r.MatchID, "err", err)
	}
	return r.ChannelID
}

// create makes the room's channels, named in the guild's language l, and
// gives the players access, storing each ID as soon as it exists.
func (m *Manager) create(ctx context.Context, r *Room, set Settings, match ladder.Match, g ladder.Guild, l *i18n.Lang) error {
	var mods []string
	if g.ModeratorRoleID != "" {
		mods = []string{g.ModeratorRoleID}
	}
	players := match.Players()
	switch set.Mode {
	case ModeThread:
		id, err := m.dc.CreateThread(ctx, r.HomeChannelID, textName(l, match.ID))
		if err != nil {
			return err
		}
		r.ChannelID = id
		if err := m.save(ctx, *r, StateCreating); err != nil {
			return err
		}
		for _, u := range players {
			if err := m.dc.AddThreadMember(ctx, id, u); err != nil && DiscordCode(err) != CodeUnknownMember {
				return err
			}
			r.addMember(u)
		}
		m.solved(ctx, r.GuildID, problemThreads)
	case ModeChannel:
		id, err := m.dc.CreateChannel(ctx, match.GuildID, Channel{Name: textName(l, match.ID), ParentID: set.CategoryID, Members: players, Roles: mods})
		if err != nil {
			return err
		}
		r.ChannelID = id
		r.Members = append(r.Members[:0], players...)
		if err := m.save(ctx, *r, StateCreating); err != nil {
			return err
		}
		m.solved(ctx, r.GuildID, problemManage, problemLimit, problemForm)
	}
	if set.Voice {
		return m.openVoice(ctx, r, set, match, mods, l)
	}
	return nil
}

// openVoice creates the teams' voice channels and moves the players who
// wait in the lobby voice channel into them. A voice problem leaves the
// room without voice channels rather than failing it.
func (m *Manager) openVoice(ctx context.Context, r *Room, set Settings, match ladder.Match, mods []string, l *i18n.Lang) error {
	for t := range 2 {
		id, err := m.dc.CreateChannel(ctx, match.GuildID, Channel{Name: voiceName(l, match.ID, t+1), Voice: true, ParentID: set.CategoryID, Members: match.Teams[t], Roles: mods})
		if err != nil && DiscordCode(err) == 0 {
			// No answer: the channel may exist unrecorded. The whole room
			// falls back and stays in creating, so the rooms job finds it
			// by name; a room never leaks a channel.
			return err
		}
		if err != nil {
			if p := problemOf(err, r.Mode, true); p != "" {
				m.warn(ctx, r.GuildID, p, r.MatchID, "", err)
			} else {
				m.log.Warn("voice channel not created", "guild_id", r.GuildID, "match_id", r.MatchID, "err", err)
			}
			m.dropVoice(ctx, r)
			return m.save(ctx, *r, StateCreating)
		}
		r.VoiceIDs[t] = id
		if err := m.save(ctx, *r, StateCreating); err != nil {
			return err
		}
	}
	m.solved(ctx, r.GuildID, problemManage, problemLimit, problemForm)
	if set.LobbyVoiceID == "" {
		return nil
	}
	for t := range 2 {
		for _, u := range match.Teams[t] {
			at, err := m.dc.VoiceChannelOf(ctx, match.GuildID, u)
			if err != nil || at != set.LobbyVoiceID {
				continue
			}
			if err := m.dc.MoveMember(ctx, match.GuildID, u, r.VoiceIDs[t]); err != nil {
				if DiscordCode(err) == CodeMissingPermissions {
					m.warn(ctx, r.GuildID, problemMove, r.MatchID, "", err)
					return m.save(ctx, *r, StateCreating)
				}
				continue // left voice meanwhile
			}
			r.Moved = append(r.Moved, u)
		}
	}
	m.solved(ctx, r.GuildID, problemMove)
	return m.save(ctx, *r, StateCreating)
}

// dropVoice deletes the voice channels made so far.
func (m *Manager) dropVoice(ctx context.Context, r *Room) {
	for t, id := range r.VoiceIDs {
		if id == "" {
			continue
		}
		if err := m.dc.DeleteChannel(ctx, id); err != nil && DiscordCode(err) != CodeUnknownChannel {
			m.log.Warn("voice channel not deleted", "guild_id", r.GuildID, "match_id", r.MatchID, "err", err)
			continue
		}
		r.VoiceIDs[t] = ""
	}
}

// fallback undoes what was made of a room that failed, tells the
// moderators when the cause is the guild's set-up, and returns the home
// channel, where the match is then played.
func (m *Manager) fallback(ctx context.Context, r Room, cause error) string {
	if p := problemOf(cause, r.Mode, false); p != "" {
		m.warn(ctx, r.GuildID, p, r.MatchID, "<#"+r.HomeChannelID+">", cause)
	} else {
		m.log.Warn("room not opened; match in the queue's channel", "guild_id", r.GuildID, "match_id", r.MatchID, "err", cause)
	}
	m.dropVoice(ctx, &r)
	if r.ChannelID != "" {
		if err := m.removeText(ctx, r); err == nil {
			r.ChannelID = ""
		}
	}
	if r.ChannelID != "" || r.hasVoice() || DiscordCode(cause) == 0 {
		// Left in creating for the rooms job, which retries the clean-up;
		// without Discord's answer (a timeout, a 5xx) the channel may exist
		// unrecorded, and the job looks for it by name.
		return r.HomeChannelID
	}
	r.State = StateFallback
	if err := m.save(ctx, r, StateCreating); err != nil {
		m.log.Warn("room fallback not stored", "guild_id", r.GuildID, "match_id", r.MatchID, "err", err)
	}
	return r.HomeChannelID
}

// removeText archives a thread room or deletes a channel room; one that
// is gone already counts as removed.
func (m *Manager) removeText(ctx context.Context, r Room) error {
	var err error
	if r.Mode == ModeThread {
		err = m.dc.ArchiveThread(ctx, r.ChannelID)
	} else {
		err = m.dc.DeleteChannel(ctx, r.ChannelID)
	}
	if err != nil && DiscordCode(err) != CodeUnknownChannel {
		return err
	}
	return nil
}

// Home returns the queue's channel of a match played in an open room,
// where what must reach players outside the room goes (a request for a
// substitute); "" when the match has no open room.
func (m *Manager) Home(ctx context.Context, matchID int64) string {
	r, err := m.store.Room(ctx, matchID)
	if err != nil || r.State != StateOpen {
		return ""
	}
	return r.HomeChannelID
}

// Admit gives a match's current players access to its open room and
// their team's voice channel at once (a substitute who just took a seat),
// and takes it from those who left, as the rooms job would within a tick.
// When Discord refuses a current player for good (the room deleted or
// locked by hand, a permission gone) the match is moved back to its home
// channel, which Admit returns with moved true: the caller shows the
// match there, since someone who plays it cannot see the room. Other
// problems are logged; the job retries.
func (m *Manager) Admit(ctx context.Context, guildID string, matchID int64) (home string, moved bool) {
	r, err := m.store.Room(ctx, matchID)
	if err != nil || r.State != StateOpen || r.GuildID != guildID {
		return "", false
	}
	match, err := m.lad.Match(ctx, guildID, matchID)
	shut := false
	if err == nil {
		shut, err = m.syncMembers(ctx, r, match, &TickStats{})
	}
	if err != nil {
		m.log.Warn("substitute not admitted to the room yet", "guild_id", guildID, "match_id", matchID, "err", err)
	}
	if !shut {
		return "", false
	}
	moved, err = m.store.MoveMatchChannel(ctx, matchID, r.ChannelID, r.HomeChannelID)
	if err != nil {
		m.log.Warn("match not moved out of a room a player cannot enter", "guild_id", guildID, "match_id", matchID, "err", err)
		return "", false
	}
	if moved {
		m.log.Warn("a player cannot enter the match room; the match goes on in the queue's channel", "guild_id", guildID, "match_id", matchID)
	}
	return r.HomeChannelID, moved
}
