package fakediscord

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// This file holds guild channels, threads, permission overwrites, voice
// states and member moves, as Discord has them: private threads (type 12)
// that only their members see, channels whose overwrites decide who sees
// them, Discord's error codes (50013 Missing Permissions, 10003 Unknown
// Channel, 30013 Maximum number of guild channels, 30060 Maximum number of
// channel permission overwrites, 50035 for a body of more than 100
// overwrites, 40032 Target user is not connected to voice, 10065 Unknown
// Voice State) and per-route rate-limit buckets with Discord's headers.

// Channel types as Discord numbers them.
const (
	ChannelText          = 0
	ChannelVoice         = 2
	ChannelCategory      = 4
	ChannelPublicThread  = 11
	ChannelPrivateThread = 12
)

// Discord's JSON error codes of the channel routes.
const (
	CodeUnknownChannel    = 10003
	CodeUnknownVoiceState = 10065
	CodeMaxChannels       = 30013
	CodeNotInVoice        = 40032
	CodeInvalidForm       = 50035
)

// MaxGuildChannels is Discord's limit of channels per guild (threads do
// not count).
const MaxGuildChannels = 500

// Discord's limits on permission overwrites: a channel holds at most
// MaxChannelOverwrites (one more through Edit Channel Permissions answers
// 30060), and one request body carries at most MaxBodyOverwrites (a
// longer permission_overwrites array answers 50035 Invalid Form Body,
// BASE_TYPE_MAX_LENGTH).
const (
	MaxChannelOverwrites = 1000
	MaxBodyOverwrites    = 100
	CodeMaxOverwrites    = 30060
)

// Permission bits of overwrites the fake reads.
const (
	PermViewChannel = 1 << 10
	PermConnect     = 1 << 20
)

// Bot permissions the channel routes check (SetChannelPermission).
const (
	PermManageChannels       = "manage_channels"
	PermCreatePrivateThreads = "create_private_threads"
	PermMoveMembers          = "move_members"
)

// PermOverwrite is one permission overwrite of a channel.
type PermOverwrite struct {
	ID    string `json:"id"`
	Type  int    `json:"type"` // 0 role, 1 member
	Allow string `json:"allow"`
	Deny  string `json:"deny"`
}

// GuildChannel is a channel or thread as the fake keeps it.
type GuildChannel struct {
	ID         string
	GuildID    string
	Type       int
	Name       string
	ParentID   string
	Overwrites []PermOverwrite
	Members    []string // thread members
	Archived   bool
	Locked     bool
	Deleted    bool
}

// channelState is kept in Server.chans; created lazily.
type channelState struct {
	byID   map[string]*GuildChannel
	voice  map[string]map[string]string // guild → user → voice channel
	denied map[string]map[string]bool   // guild → permission → missing
	limit  int                          // requests per second per route bucket
	calls  int
	r429   int
}

func (s *Server) chanState() *channelState {
	if s.chans == nil {
		s.chans = &channelState{byID: map[string]*GuildChannel{}, voice: map[string]map[string]string{}, denied: map[string]map[string]bool{}}
	}
	return s.chans
}

func (s *Server) registerChannelRoutes() {
	s.mux.HandleFunc("POST /api/{v}/guilds/{guild}/channels", s.serveCreateChannel)
	s.mux.HandleFunc("GET /api/{v}/guilds/{guild}/channels", s.serveGuildChannels)
	s.mux.HandleFunc("GET /api/{v}/channels/{channel}", s.serveChannel)
	s.mux.HandleFunc("PATCH /api/{v}/channels/{channel}", s.serveChannel)
	s.mux.HandleFunc("DELETE /api/{v}/channels/{channel}", s.serveChannel)
	s.mux.HandleFunc("PUT /api/{v}/channels/{channel}/permissions/{target}", s.servePermission)
	s.mux.HandleFunc("DELETE /api/{v}/channels/{channel}/permissions/{target}", s.serveDeletePermission)
}

// DeleteChannel deletes a channel or thread as a moderator would by hand:
// its voice members are disconnected, the bot's later calls on it answer
// 10003 Unknown Channel, and the bot's gateway session gets CHANNEL_DELETE
// (THREAD_DELETE for a thread), as Discord sends them to a bot with the
// Guilds intent.
func (s *Server) DeleteChannel(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.chanState().byID[id]; ok && !c.Deleted {
		s.deleteChannel(c)
	}
	s.notify()
}

// deleteChannel marks c deleted, disconnects its voice members and tells
// the guild's gateway session (VOICE_STATE_UPDATE for each disconnected
// member when it asked for voice states). Call with mu held.
func (s *Server) deleteChannel(c *GuildChannel) {
	c.Deleted = true
	for u, at := range s.chanState().voice[c.GuildID] {
		if at == c.ID {
			s.setVoice(c.GuildID, u, "") // deleting a voice channel disconnects its members
		}
	}
	event, d := "CHANNEL_DELETE", c.wire()
	if c.Type == ChannelPrivateThread || c.Type == ChannelPublicThread {
		event = "THREAD_DELETE"
		d = map[string]any{"id": c.ID, "guild_id": c.GuildID, "parent_id": c.ParentID, "type": c.Type}
	}
	if ss := s.sessionFor(c.GuildID); ss != nil {
		ss.send(event, d)
	}
}

// AddChannel creates a channel as an admin would (a text channel to be a
// queue's, a category, a lobby voice channel) and returns its ID.
func (s *Server) AddChannel(guildID, name string, typ int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := &GuildChannel{ID: s.newID(), GuildID: guildID, Type: typ, Name: name}
	s.chanState().byID[c.ID] = c
	s.notify()
	return c.ID
}

// Channel returns a copy of the channel or thread with that ID.
func (s *Server) Channel(id string) (GuildChannel, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.chanState().byID[id]
	if !ok {
		return GuildChannel{}, false
	}
	out := *c
	out.Overwrites, out.Members = slices.Clone(c.Overwrites), slices.Clone(c.Members)
	return out, true
}

// GuildChannels returns the guild's channels and threads that are not
// deleted, oldest first.
func (s *Server) GuildChannels(guildID string) []GuildChannel {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []GuildChannel
	for _, c := range s.chanState().byID {
		if c.GuildID == guildID && !c.Deleted {
			out = append(out, *c)
		}
	}
	slices.SortFunc(out, func(a, b GuildChannel) int { return cmpID(a.ID, b.ID) })
	return out
}

func cmpID(a, b string) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// SetChannelPermission grants or takes one of the bot's permissions
// (PermManageChannels, PermCreatePrivateThreads, PermMoveMembers) in a
// guild; the routes that need it answer 50013 without it.
func (s *Server) SetChannelPermission(guildID, perm string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.chanState()
	if st.denied[guildID] == nil {
		st.denied[guildID] = map[string]bool{}
	}
	st.denied[guildID][perm] = !ok
	s.notify()
}

// SetChannelRateLimit sets the channel routes' buckets: limit requests
// per second per route and guild (default 50).
func (s *Server) SetChannelRateLimit(limit int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.chanState().limit = limit
}

// ChannelRequests counts the calls of the channel, thread, voice and move
// routes, and how many of them were answered 429.
func (s *Server) ChannelRequests() (calls, rateLimited int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.chanState().calls, s.chanState().r429
}

// CanSee reports whether userID sees channel id: a private thread's
// members, a channel whose overwrites allow them (or deny @everyone
// nothing). Channels the fake does not know are public.
func (s *Server) CanSee(id, userID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.canSee(id, userID)
}

// canSee is CanSee with mu held.
func (s *Server) canSee(id, userID string) bool {
	c, ok := s.chanState().byID[id]
	if !ok {
		return true
	}
	if c.Deleted {
		return false
	}
	if c.Type == ChannelPrivateThread {
		return slices.Contains(c.Members, userID) || userID == s.BotUserID
	}
	hidden := false
	for _, o := range c.Overwrites {
		deny, _ := strconv.ParseInt(o.Deny, 10, 64)
		allow, _ := strconv.ParseInt(o.Allow, 10, 64)
		switch {
		case o.Type == 0 && o.ID == c.GuildID && deny&PermViewChannel != 0:
			hidden = true
		case o.Type == 1 && o.ID == userID && allow&PermViewChannel != 0:
			return true
		}
	}
	return !hidden
}

// missing reports whether the bot lacks perm in guildID. Call with mu held.
func (s *Server) missing(guildID, perm string) bool {
	return s.chanState().denied[guildID][perm]
}

func (c *GuildChannel) wire() map[string]any {
	out := map[string]any{"id": c.ID, "type": c.Type, "name": c.Name, "guild_id": c.GuildID, "permission_overwrites": c.Overwrites}
	if c.ParentID != "" {
		out["parent_id"] = c.ParentID
	}
	if c.Type == ChannelPrivateThread || c.Type == ChannelPublicThread {
		out["thread_metadata"] = map[string]any{"archived": c.Archived, "locked": c.Locked, "auto_archive_duration": 1440, "invitable": false}
		out["member_count"] = len(c.Members)
	}
	return out
}

func (s *Server) serveCreateChannel(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Name       string          `json:"name"`
		Type       int             `json:"type"`
		ParentID   string          `json:"parent_id"`
		Overwrites []PermOverwrite `json:"permission_overwrites"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		discordError(w, http.StatusBadRequest, CodeInvalidForm, "Invalid Form Body")
		return
	}
	guildID := r.PathValue("guild")
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.limited(w, "channel-create", guildID) {
		return
	}
	st := s.chanState()
	switch {
	case s.missing(guildID, PermManageChannels):
		discordError(w, http.StatusForbidden, CodeMissingPermissions, "Missing Permissions")
		return
	case len(body.Name) < 1 || len(body.Name) > 100 || (body.Type != ChannelText && body.Type != ChannelVoice && body.Type != ChannelCategory):
		discordError(w, http.StatusBadRequest, CodeInvalidForm, "Invalid Form Body")
		return
	case len(body.Overwrites) > MaxBodyOverwrites:
		writeJSON(w, http.StatusBadRequest, map[string]any{"code": CodeInvalidForm, "message": "Invalid Form Body",
			"errors": map[string]any{"permission_overwrites": map[string]any{"_errors": []map[string]any{
				{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 100 or fewer in length."}}}}})
		return
	}
	if body.ParentID != "" {
		if p, ok := st.byID[body.ParentID]; !ok || p.Deleted || p.Type != ChannelCategory || p.GuildID != guildID {
			discordError(w, http.StatusBadRequest, CodeInvalidForm, "Invalid Form Body (parent_id: not a category)")
			return
		}
	}
	n := 0
	for _, c := range st.byID {
		if c.GuildID == guildID && !c.Deleted && c.Type != ChannelPrivateThread && c.Type != ChannelPublicThread {
			n++
		}
	}
	if n >= MaxGuildChannels {
		discordError(w, http.StatusBadRequest, CodeMaxChannels, "Maximum number of guild channels reached (500)")
		return
	}
	name := body.Name
	if body.Type == ChannelText {
		// Discord lowercases text channel names and turns spaces into dashes.
		name = strings.ReplaceAll(strings.ToLower(name), " ", "-")
	}
	c := &GuildChannel{ID: s.newID(), GuildID: guildID, Type: body.Type, Name: name, ParentID: body.ParentID, Overwrites: body.Overwrites}
	st.byID[c.ID] = c
	s.notify()
	writeJSON(w, http.StatusCreated, c.wire())
}

func (s *Server) serveGuildChannels(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.limited(w, "guild-channels", r.PathValue("guild")) {
		return
	}
	out := []map[string]any{}
	for _, c := range s.sortedChannels(r.PathValue("guild")) {
		if c.Type != ChannelPrivateThread && c.Type != ChannelPublicThread {
			out = append(out, c.wire())
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// sortedChannels returns a guild's live channels by ID. Call with mu held.
func (s *Server) sortedChannels(guildID string) []*GuildChannel {
	var out []*GuildChannel
	for _, c := range s.chanState().byID {
		if c.GuildID == guildID && !c.Deleted {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b *GuildChannel) int { return cmpID(a.ID, b.ID) })
	return out
}

// serveChannel reads, edits (a thread's archived and locked) or deletes a
// channel.
func (s *Server) serveChannel(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Archived *bool `json:"archived"`
		Locked   *bool `json:"locked"`
		Name     string
	}
	if r.Method == http.MethodPatch {
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			discordError(w, http.StatusBadRequest, CodeInvalidForm, "Invalid Form Body")
			return
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.chanState().byID[r.PathValue("channel")]
	if !ok || c.Deleted {
		discordError(w, http.StatusNotFound, CodeUnknownChannel, "Unknown Channel")
		return
	}
	if r.Method != http.MethodGet && s.limited(w, "channel-"+r.Method, c.GuildID) {
		return
	}
	thread := c.Type == ChannelPrivateThread || c.Type == ChannelPublicThread
	switch r.Method {
	case http.MethodPatch:
		// The bot archives and locks its own threads; other edits need
		// Manage Channels.
		if !thread && s.missing(c.GuildID, PermManageChannels) {
			discordError(w, http.StatusForbidden, CodeMissingPermissions, "Missing Permissions")
			return
		}
		if body.Archived != nil {
			c.Archived = *body.Archived
		}
		if body.Locked != nil {
			c.Locked = *body.Locked
		}
	case http.MethodDelete:
		if s.missing(c.GuildID, PermManageChannels) {
			discordError(w, http.StatusForbidden, CodeMissingPermissions, "Missing Permissions")
			return
		}
		s.deleteChannel(c)
	}
	s.notify()
	writeJSON(w, http.StatusOK, c.wire())
}

// permissionChannel is the channel whose overwrites a request edits, or
// false after answering as Discord does: 10003 for a channel that is not
// there, 429 past the route's bucket, 50013 without Manage Channels. The
// caller holds s.mu.
func (s *Server) permissionChannel(w http.ResponseWriter, r *http.Request) (*GuildChannel, bool) {
	c, ok := s.chanState().byID[r.PathValue("channel")]
	if !ok || c.Deleted {
		discordError(w, http.StatusNotFound, CodeUnknownChannel, "Unknown Channel")
		return nil, false
	}
	if s.limited(w, "channel-permissions", c.ID) {
		return nil, false
	}
	if s.missing(c.GuildID, PermManageChannels) {
		discordError(w, http.StatusForbidden, CodeMissingPermissions, "Missing Permissions")
		return nil, false
	}
	return c, true
}

func (s *Server) servePermission(w http.ResponseWriter, r *http.Request) {
	var body PermOverwrite
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		discordError(w, http.StatusBadRequest, CodeInvalidForm, "Invalid Form Body")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.permissionChannel(w, r)
	if !ok {
		return
	}
	body.ID = r.PathValue("target")
	if i := slices.IndexFunc(c.Overwrites, func(o PermOverwrite) bool { return o.ID == body.ID }); i >= 0 {
		c.Overwrites[i] = body // editing a target's overwrite adds none
	} else if len(c.Overwrites) >= MaxChannelOverwrites {
		discordError(w, http.StatusBadRequest, CodeMaxOverwrites, "Maximum number of channel permission overwrites reached (1000)")
		return
	} else {
		c.Overwrites = append(c.Overwrites, body)
	}
	s.notify()
	w.WriteHeader(http.StatusNoContent)
}

// AddOverwrite gives a channel an overwrite of a new target, as a
// moderator would by hand, and reports false when the channel is unknown,
// already has one for o.ID, or holds MaxChannelOverwrites (the limit
// binds the moderators too).
func (s *Server) AddOverwrite(channelID string, o PermOverwrite) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.chanState().byID[channelID]
	if !ok || c.Deleted || slices.ContainsFunc(c.Overwrites, func(x PermOverwrite) bool { return x.ID == o.ID }) || len(c.Overwrites) >= MaxChannelOverwrites {
		return false
	}
	c.Overwrites = append(c.Overwrites, o)
	s.notify()
	return true
}

// serveDeletePermission removes a channel's overwrite of a member or
// role: 204 whether or not it had one, as Discord answers.
func (s *Server) serveDeletePermission(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.permissionChannel(w, r)
	if !ok {
		return
	}
	target := r.PathValue("target")
	c.Overwrites = slices.DeleteFunc(c.Overwrites, func(o PermOverwrite) bool { return o.ID == target })
	s.notify()
	w.WriteHeader(http.StatusNoContent)
}
