package fakediscord

import (
	"encoding/json"
	"net/http"
	"slices"
)

// Voice states and member moves: who is in which voice channel (set by
// the test as the members' clients would), Discord's Get User Voice State
// route (10065 when not in voice) and PATCH member channel_id: a move to
// another voice channel, or null to disconnect, both needing Move Members
// (50013 without), 40032 for a member not in voice, 10007 for a member
// the guild does not have (when the test gave it members, AddMember), and
// 10003 for a target that is no voice channel of the guild. Every change
// of a voice state (SetVoice, a move, a disconnect, a voice channel
// deleted under its members) is dispatched as VOICE_STATE_UPDATE to the
// guild's gateway session when that session identified with the
// GUILD_VOICE_STATES intent, as Discord does.

// IntentGuildVoiceStates is Discord's GUILD_VOICE_STATES gateway intent:
// a session without it gets no VOICE_STATE_UPDATE.
const IntentGuildVoiceStates = 1 << 7

func (s *Server) registerVoiceRoutes() {
	s.mux.HandleFunc("GET /api/{v}/guilds/{guild}/voice-states/{user}", s.serveVoiceState)
	s.mux.HandleFunc("PATCH /api/{v}/guilds/{guild}/members/{user}", s.serveMemberMove)
}

// SetVoice puts a member in a voice channel ("" disconnects), as the
// member's own client would.
func (s *Server) SetVoice(guildID, userID, channelID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.setVoice(guildID, userID, channelID)
	s.notify()
}

// setVoice records a member's voice channel ("" disconnects) and tells
// the guild's gateway session when it changed. Call with mu held.
func (s *Server) setVoice(guildID, userID, channelID string) {
	st := s.chanState()
	if st.voice[guildID] == nil {
		st.voice[guildID] = map[string]string{}
	}
	before, was := st.voice[guildID][userID]
	if channelID == "" {
		delete(st.voice[guildID], userID)
	} else {
		st.voice[guildID][userID] = channelID
	}
	if (was || channelID != "") && before != channelID {
		s.voiceEvent(guildID, userID, channelID)
	}
}

// voiceEvent dispatches VOICE_STATE_UPDATE (channel_id null for a
// disconnect) to the guild's session if it asked for voice states. Call
// with mu held.
func (s *Server) voiceEvent(guildID, userID, channelID string) {
	ss := s.sessionFor(guildID)
	if ss == nil || ss.intents&IntentGuildVoiceStates == 0 {
		return
	}
	var ch any
	if channelID != "" {
		ch = channelID
	}
	ss.send("VOICE_STATE_UPDATE", map[string]any{
		"guild_id": guildID, "channel_id": ch, "user_id": userID, "session_id": "s" + userID,
		"deaf": false, "mute": false, "self_deaf": false, "self_mute": false, "self_video": false, "suppress": false,
		"request_to_speak_timestamp": nil,
	})
}

// VoiceChannel returns the voice channel a member is in, "" when none.
func (s *Server) VoiceChannel(guildID, userID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.chanState().voice[guildID][userID]
}

// VoiceMembers returns the members in a guild's voice channel, sorted.
func (s *Server) VoiceMembers(guildID, channelID string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for u, at := range s.chanState().voice[guildID] {
		if at == channelID {
			out = append(out, u)
		}
	}
	slices.Sort(out)
	return out
}

func (s *Server) serveVoiceState(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	guildID, userID := r.PathValue("guild"), r.PathValue("user")
	if s.limited(w, "voice-states", guildID) {
		return
	}
	at, ok := s.chanState().voice[guildID][userID]
	if !ok {
		discordError(w, http.StatusNotFound, CodeUnknownVoiceState, "Unknown Voice State")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"guild_id": guildID, "channel_id": at, "user_id": userID, "session_id": "s" + userID})
}

// serveMemberMove is PATCH /guilds/{g}/members/{u}; the fake knows its
// channel_id (a move, or null to disconnect).
func (s *Server) serveMemberMove(w http.ResponseWriter, r *http.Request) {
	var body map[string]json.RawMessage
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		discordError(w, http.StatusBadRequest, CodeInvalidForm, "Invalid Form Body")
		return
	}
	raw, ok := body["channel_id"]
	if !ok {
		discordError(w, http.StatusBadRequest, CodeInvalidForm, "Invalid Form Body (the fake edits channel_id only)")
		return
	}
	var to *string
	if err := json.Unmarshal(raw, &to); err != nil {
		discordError(w, http.StatusBadRequest, CodeInvalidForm, "Invalid Form Body (channel_id)")
		return
	}
	guildID, userID := r.PathValue("guild"), r.PathValue("user")
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.limited(w, "member-edit", guildID) {
		return
	}
	st := s.chanState()
	if g := s.roleGuilds[guildID]; g != nil && len(g.members) > 0 {
		if _, member := g.members[userID]; !member {
			discordError(w, http.StatusNotFound, CodeUnknownMember, "Unknown Member")
			return
		}
	}
	if s.missing(guildID, PermMoveMembers) {
		discordError(w, http.StatusForbidden, CodeMissingPermissions, "Missing Permissions")
		return
	}
	if _, in := st.voice[guildID][userID]; !in {
		discordError(w, http.StatusBadRequest, CodeNotInVoice, "Target user is not connected to voice.")
		return
	}
	if to == nil {
		s.setVoice(guildID, userID, "")
	} else {
		c, ok := st.byID[*to]
		if !ok || c.Deleted || c.Type != ChannelVoice || c.GuildID != guildID {
			discordError(w, http.StatusNotFound, CodeUnknownChannel, "Unknown Channel")
			return
		}
		s.setVoice(guildID, userID, *to)
	}
	s.notify()
	writeJSON(w, http.StatusOK, map[string]any{"user": map[string]any{"id": userID}, "roles": []string{}})
}
