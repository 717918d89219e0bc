package rooms

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// CreatingLease is how long a room may stay in state creating before the
// rooms job takes it for one whose process died mid-way and cleans it up.
const CreatingLease = 2 * time.Minute

// liveBatch is how many rooms Tick reads at a time.
const liveBatch = 200

// TickStats counts what one Tick did.
type TickStats struct {
	Reconciled int // rooms a dead process left half made, cleaned up
	Ended      int // rooms whose match was seen ending
	Closed     int // rooms archived or deleted
	VoiceGone  int // voice channels deleted
	Added      int // players given access after the room opened (subs)
	Removed    int // former players' access taken (subbed out)
}

// Tick is the rooms job: it cleans up rooms a crashed process left in
// creating, gives substitutes access to their match's room, moves the
// players of ended matches back to the lobby voice channel, archives or
// deletes rooms whose linger ran out and deletes voice channels once no
// player is in them. Every step is safe to repeat and to run in two
// processes at once: the close is claimed by a conditional state change,
// and deleting a channel that is gone already counts as done.
func (m *Manager) Tick(ctx context.Context) (TickStats, error) {
	var st TickStats
	if m.dc == nil {
		return st, nil
	}
	var errs []error
	for after := int64(0); ; {
		rs, err := m.store.LiveRooms(ctx, after, liveBatch)
		if err != nil {
			return st, errors.Join(append(errs, fmt.Errorf("rooms: live rooms: %w", err))...)
		}
		for _, r := range rs {
			if err := m.tickRoom(ctx, r, &st); err != nil && !errors.Is(err, errMoved) {
				errs = append(errs, fmt.Errorf("rooms: match %d: %w", r.MatchID, err))
			}
			after = r.MatchID
		}
		if len(rs) < liveBatch {
			break
		}
	}
	return st, errors.Join(errs...)
}

// tickRoom is one room's step of Tick.
func (m *Manager) tickRoom(ctx context.Context, r Room, st *TickStats) error {
	switch r.State {
	case StateCreating:
		if m.lad.Now().Sub(r.CreatedAt) >= CreatingLease {
			return m.reconcile(ctx, r, st)
		}
	case StateOpen:
		return m.tickOpen(ctx, r, st)
	case StateClosing:
		return m.tickClosing(ctx, r, st)
	}
	return nil
}

// reconcile removes whatever a dead process made of a room: the IDs it
// stored, and channels by the room's names in case it died between
// creating one and storing its ID. The match goes on in its channel,
// which was never pointed at the room.
func (m *Manager) reconcile(ctx context.Context, r Room, st *TickStats) error {
	found := map[string]bool{}
	names, text := allNames(r.MatchID)
	chans, err := m.dc.FindChannels(ctx, r.GuildID, names...)
	if err != nil {
		return err
	}
	for _, c := range chans {
		found[c.ID] = text[c.Name]
	}
	if r.ChannelID != "" {
		found[r.ChannelID] = true
	}
	for _, id := range r.VoiceIDs {
		if id != "" {
			found[id] = false
		}
	}
	for id, text := range found {
		var err error
		if text && r.Mode == ModeThread {
			err = m.dc.ArchiveThread(ctx, id)
		} else {
			err = m.dc.DeleteChannel(ctx, id)
		}
		if err := m.tidy(ctx, r, err); err != nil && DiscordCode(err) != CodeUnknownChannel {
			return err
		}
	}
	ok, err := m.store.MoveRoomState(ctx, r.MatchID, StateCreating, StateClosed)
	if err == nil && ok {
		st.Reconciled++
		m.log.Info("half-made match room cleaned up", "guild_id", r.GuildID, "match_id", r.MatchID, "channels", len(found))
	}
	return err
}

// errMoved is a room write that found the room moved on by another
// process (or a repeated run): that process's state stands.
var errMoved = errors.New("rooms: the room moved on in another process")

// save writes r over its row if the row is still in state from.
func (m *Manager) save(ctx context.Context, r Room, from State) error {
	ok, err := m.store.UpdateRoom(ctx, r, from)
	if err == nil && !ok {
		return errMoved
	}
	return err
}

// ended reports whether a match in state s is over for its room: rated,
// cancelled or voided. A disputed match keeps its room for the dispute.
func ended(s ladder.MatchState) bool {
	return !s.Active() && s != ladder.StateDisputed
}

func (m *Manager) tickOpen(ctx context.Context, r Room, st *TickStats) error {
	match, err := m.lad.Match(ctx, r.GuildID, r.MatchID)
	if err != nil {
		return err
	}
	now := m.lad.Now()
	if !ended(match.State) {
		shut, err := m.syncMembers(ctx, r, match, st)
		if shut {
			// A player the room cannot take: the match's later messages
			// go to its home channel, where every player can see them.
			if _, merr := m.store.MoveMatchChannel(ctx, r.MatchID, r.ChannelID, r.HomeChannelID); merr != nil {
				err = errors.Join(err, merr)
			}
		}
		return err
	}
	if r.EndedAt.IsZero() {
		set, err := m.store.RoomSettings(ctx, r.QueueID)
		if err != nil {
			return err
		}
		r.EndedAt, r.CloseAt = now, now.Add(set.Linger)
		m.moveBack(ctx, r, match)
		r.Moved = nil
		if err := m.save(ctx, r, StateOpen); err != nil {
			return err
		}
		st.Ended++
	}
	if now.Before(r.CloseAt) {
		return m.tickVoice(ctx, &r, match, st, false)
	}
	won, err := m.store.MoveRoomState(ctx, r.MatchID, StateOpen, StateClosing)
	if err != nil || !won {
		return err
	}
	if err := m.tidy(ctx, r, m.removeText(ctx, r)); err != nil {
		// Back to open: the next tick tries again.
		if _, serr := m.store.MoveRoomState(ctx, r.MatchID, StateClosing, StateOpen); serr != nil {
			err = errors.Join(err, serr)
		}
		return err
	}
	if err := m.store.SetMatchChannel(ctx, r.MatchID, r.HomeChannelID); err != nil {
		return err
	}
	st.Closed++
	m.log.Info("match room closed", "guild_id", r.GuildID, "match_id", r.MatchID, "mode", r.Mode)
	r.State = StateClosing
	return m.tickClosing(ctx, r, st)
}

func (m *Manager) tickClosing(ctx context.Context, r Room, st *TickStats) error {
	match, err := m.lad.Match(ctx, r.GuildID, r.MatchID)
	if err != nil {
		return err
	}
	return m.tickVoice(ctx, &r, match, st, true)
}

// tickVoice deletes the room's voice channels that none of the match's
// players is in, and when closing and none is left, closes the room.
func (m *Manager) tickVoice(ctx context.Context, r *Room, match ladder.Match, st *TickStats, closing bool) error {
	from := r.State
	changed := false
	for t, id := range r.VoiceIDs {
		if id == "" {
			continue
		}
		busy, err := m.occupied(ctx, r.GuildID, id, match.Players())
		if err != nil {
			return err
		}
		if busy {
			continue
		}
		if err := m.tidy(ctx, *r, m.dc.DeleteChannel(ctx, id)); err != nil && DiscordCode(err) != CodeUnknownChannel {
			return err
		}
		r.VoiceIDs[t] = ""
		changed = true
		st.VoiceGone++
	}
	if closing && !r.hasVoice() {
		r.State = StateClosed
		changed = true
	}
	if !changed {
		return nil
	}
	return m.save(ctx, *r, from)
}

// tidy turns a refusal to archive or delete a room's channel (50013: the
// bot lost the permission) into a warning to the moderators and success,
// so a room never stays open for want of a permission; the channel is
// theirs to remove. Other errors pass.
func (m *Manager) tidy(ctx context.Context, r Room, err error) error {
	if DiscordCode(err) != CodeMissingPermissions {
		return err
	}
	m.warn(ctx, r.GuildID, problemCleanup, r.MatchID, "", err)
	return nil
}

// occupied reports whether any of players is in voice channel id. Only
// the team may join a room's voice channel, so its players are who
// matters.
func (m *Manager) occupied(ctx context.Context, guildID, id string, players []string) (bool, error) {
	for _, u := range players {
		at, err := m.dc.VoiceChannelOf(ctx, guildID, u)
		if err != nil {
			return false, err
		}
		if at == id {
			return true, nil
		}
	}
	return false, nil
}

// moveBack moves the players who came from the lobby voice channel, and
// are still in their team's channel, back to the lobby.
func (m *Manager) moveBack(ctx context.Context, r Room, match ladder.Match) {
	if r.LobbyVoiceID == "" {
		return
	}
	for _, u := range r.Moved {
		team := match.Team(u)
		if team == 0 || r.VoiceIDs[team-1] == "" {
			continue
		}
		at, err := m.dc.VoiceChannelOf(ctx, r.GuildID, u)
		if err != nil || at != r.VoiceIDs[team-1] {
			continue
		}
		if err := m.dc.MoveMember(ctx, r.GuildID, u, r.LobbyVoiceID); err != nil {
			m.log.Warn("player not moved back to the lobby voice channel", "guild_id", r.GuildID, "match_id", r.MatchID, "user_id", u, "err", err)
		}
	}
}

// syncMembers gives the players who joined the match after its room
// opened (substitutes) access to the room and their team's voice channel,
// and takes it from those who left the match (subbed out, or removed by a
// moderator): they no longer see the room nor may join its voice
// channels, so they cannot read or press what is the others' now. shut
// reports a current player Discord refused to let in for good (the room
// deleted or locked by hand, a permission gone).
func (m *Manager) syncMembers(ctx context.Context, r Room, match ladder.Match, st *TickStats) (shut bool, err error) {
	changed := false
	var transient error
	players := match.Players()
	for _, u := range players {
		if slices.Contains(r.Members, u) {
			continue
		}
		var err error
		if r.Mode == ModeThread {
			err = m.dc.AddThreadMember(ctx, r.ChannelID, u)
		} else {
			err = m.dc.AllowMember(ctx, r.ChannelID, u, false)
		}
		if err == nil {
			if v := r.VoiceIDs[match.Team(u)-1]; v != "" {
				err = m.dc.AllowMember(ctx, v, u, true)
			}
		}
		if err != nil && DiscordCode(err) == 0 {
			transient = err // the next tick retries
			break
		}
		switch code := DiscordCode(err); {
		case err == nil:
			m.solved(ctx, r.GuildID, problemOverwrites)
		case code == CodeMaxOverwrites:
			// The channel holds Discord's 1000 overwrites (set by hand:
			// a room needs one per player): the moderators hear why, and
			// the match goes on where every player sees it.
			m.warn(ctx, r.GuildID, problemOverwrites, r.MatchID, "<@"+u+">", err)
			shut = true
		case code != CodeUnknownMember:
			// Refused for good (the room deleted or archived by hand, a
			// permission gone): asking every tick would not help.
			m.log.Warn("substitute not admitted to the room", "guild_id", r.GuildID, "match_id", r.MatchID, "user_id", u, "err", err)
			shut = true
		}
		r.addMember(u)
		changed = true
		st.Added++
	}
	for _, u := range slices.Clone(r.Members) {
		if transient != nil || slices.Contains(players, u) {
			continue
		}
		if err := m.revoke(ctx, r, u); err != nil {
			transient = err
			break
		}
		r.removeMember(u)
		changed = true
		st.Removed++
	}
	if changed {
		if err := m.save(ctx, r, StateOpen); err != nil {
			return shut, errors.Join(transient, err)
		}
	}
	return shut, transient
}

// revoke takes a former player's access to the room and its voice
// channels, then takes them out of the voice channel they are in (eject).
// A room or member Discord no longer knows, or an archived thread, counts
// as done; another refusal (a permission gone) is logged and counts as
// done too. Only an error without Discord's answer is returned, for the
// next tick.
func (m *Manager) revoke(ctx context.Context, r Room, userID string) error {
	var err error
	if r.Mode == ModeThread {
		err = m.dc.RemoveThreadMember(ctx, r.ChannelID, userID)
	} else {
		err = m.dc.DisallowMember(ctx, r.ChannelID, userID)
	}
	errs := []error{err}
	for _, v := range r.VoiceIDs {
		if v != "" {
			errs = append(errs, m.dc.DisallowMember(ctx, v, userID))
		}
	}
	for _, err := range errs {
		switch DiscordCode(err) {
		case 0:
			if err != nil {
				return err
			}
		case CodeUnknownChannel, CodeUnknownMember, CodeThreadArchived:
		default:
			// Refused for good (a permission gone): asking every tick
			// would not help.
			m.log.Warn("former player's room access not removed", "guild_id", r.GuildID, "match_id", r.MatchID, "user_id", userID, "err", err)
		}
	}
	return m.eject(ctx, r, userID)
}

// eject takes a former player out of the room's voice channel they are
// still in, so they no longer hear the team they left: moved to the
// lobby voice channel when the queue has one (disconnected when that is
// gone), else disconnected. Both need Move Members: without it the
// moderators are told once, in the log channel, and the player stays
// (they can no longer rejoin once they leave). A player who left voice
// meanwhile (40032) or the guild (10007) counts as done. Only an error
// without Discord's answer is returned, for the next tick.
func (m *Manager) eject(ctx context.Context, r Room, userID string) error {
	if !r.hasVoice() {
		return nil
	}
	at, err := m.dc.VoiceChannelOf(ctx, r.GuildID, userID)
	if err != nil {
		if DiscordCode(err) == 0 {
			return err
		}
		m.log.Warn("former player's voice state not read", "guild_id", r.GuildID, "match_id", r.MatchID, "user_id", userID, "err", err)
		return nil
	}
	if at == "" || (at != r.VoiceIDs[0] && at != r.VoiceIDs[1]) {
		return nil
	}
	if r.LobbyVoiceID != "" {
		err = m.dc.MoveMember(ctx, r.GuildID, userID, r.LobbyVoiceID)
	}
	if r.LobbyVoiceID == "" || DiscordCode(err) == CodeUnknownChannel {
		err = m.dc.DisconnectMember(ctx, r.GuildID, userID)
	}
	switch DiscordCode(err) {
	case 0:
		if err != nil {
			return err
		}
		m.solved(ctx, r.GuildID, problemEject)
		m.log.Info("former player taken out of the room's voice channel", "guild_id", r.GuildID, "match_id", r.MatchID, "user_id", userID)
	case CodeNotInVoice, CodeUnknownMember:
	case CodeMissingPermissions:
		m.warn(ctx, r.GuildID, problemEject, r.MatchID, "<@"+userID+">", err)
	default:
		m.log.Warn("former player not taken out of the room's voice channel", "guild_id", r.GuildID, "match_id", r.MatchID, "user_id", userID, "err", err)
	}
	return nil
}

// Lost handles a room whose thread or channel is gone (deleted by a
// moderator mid-match) or refuses messages (locked by hand): the match is
// pointed back at its home channel, where its later messages go, and the
// room stays open until the match ends so its voice channels live on and
// the rooms job closes it as usual. It returns the open room whose text
// channel is channelID (ok false when there is none) and whether this
// call moved the match, so that the players are told once.
func (m *Manager) Lost(ctx context.Context, channelID string) (r Room, moved, ok bool, err error) {
	r, err = m.store.OpenRoomByChannel(ctx, channelID)
	if ladder.ErrorCode(err) == ladder.CodeNotFound {
		return Room{}, false, false, nil
	}
	if err != nil {
		return Room{}, false, false, fmt.Errorf("rooms: room of channel %s: %w", channelID, err)
	}
	moved, err = m.store.MoveMatchChannel(ctx, r.MatchID, channelID, r.HomeChannelID)
	if err != nil {
		return Room{}, false, false, fmt.Errorf("rooms: match %d back to its channel: %w", r.MatchID, err)
	}
	if moved {
		m.log.Warn("match room gone; the match goes on in the queue's channel", "guild_id", r.GuildID, "match_id", r.MatchID, "channel_id", channelID)
	}
	return r, moved, true, nil
}
