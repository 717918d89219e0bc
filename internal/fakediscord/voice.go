package fakediscord

import (
	"encoding/json"
	"net/http"
)

// Voice states and member moves: who is in which voice channel (set by
// the test as the members' clients would), Discord's Get User Voice State
// route (10065 when not in voice) and PATCH member channel_id (Move
// Members, 40032 for a member not in voice).

func (s *Server) registerVoiceRoutes() {
	s.mux.HandleFunc("GET /api/{v}/guilds/{guild}/voice-states/{user}", s.serveVoiceState)
	s.mux.HandleFunc("PATCH /api/{v}/guilds/{guild}/members/{user}", s.serveMemberMove)
}

// SetVoice puts a member in a voice channel ("" disconnects), as the
// member's own client would.
func (s *Server) SetVoice(guildID, userID, channelID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.chanState()
	if st.voice[guildID] == nil {
		st.voice[guildID] = map[string]string{}
	}
	if channelID == "" {
		delete(st.voice[guildID], userID)
	} else {
		st.voice[guildID][userID] = channelID
	}
	s.notify()
}

// VoiceChannel returns the voice channel a member is in, "" when none.
func (s *Server) VoiceChannel(guildID, userID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.chanState().voice[guildID][userID]
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
	if s.missing(guildID, PermMoveMembers) {
		discordError(w, http.StatusForbidden, CodeMissingPermissions, "Missing Permissions")
		return
	}
	if _, in := st.voice[guildID][userID]; !in {
		discordError(w, http.StatusBadRequest, CodeNotInVoice, "Target user is not connected to voice.")
		return
	}
	if to == nil {
		delete(st.voice[guildID], userID)
	} else {
		c, ok := st.byID[*to]
		if !ok || c.Deleted || c.Type != ChannelVoice || c.GuildID != guildID {
			discordError(w, http.StatusNotFound, CodeUnknownChannel, "Unknown Channel")
			return
		}
		st.voice[guildID][userID] = *to
	}
	s.notify()
	writeJSON(w, http.StatusOK, map[string]any{"user": map[string]any{"id": userID}, "roles": []string{}})
}
