package fakediscord

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"time"
)

// Threads: private threads (type 12, the default without a message) that
// only their members see, thread members, the guild's active threads; and
// the channel routes' rate-limit buckets.

func (s *Server) registerThreadRoutes() {
	s.mux.HandleFunc("GET /api/{v}/guilds/{guild}/threads/active", s.serveActiveThreads)
	s.mux.HandleFunc("POST /api/{v}/channels/{channel}/threads", s.serveCreateThread)
	s.mux.HandleFunc("PUT /api/{v}/channels/{channel}/thread-members/{user}", s.serveThreadMember)
	s.mux.HandleFunc("DELETE /api/{v}/channels/{channel}/thread-members/{user}", s.serveThreadMember)
}

func (s *Server) serveActiveThreads(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.limited(w, "active-threads", r.PathValue("guild")) {
		return
	}
	out := []map[string]any{}
	for _, c := range s.sortedChannels(r.PathValue("guild")) {
		if (c.Type == ChannelPrivateThread || c.Type == ChannelPublicThread) && !c.Archived {
			out = append(out, c.wire())
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"threads": out, "members": []any{}})
}

func (s *Server) serveCreateThread(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Name      string `json:"name"`
		Type      int    `json:"type"`
		Invitable *bool  `json:"invitable"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		discordError(w, http.StatusBadRequest, CodeInvalidForm, "Invalid Form Body")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.chanState()
	parent, known := st.byID[r.PathValue("channel")]
	guildID := ""
	if known {
		if parent.Deleted || parent.Type != ChannelText {
			discordError(w, http.StatusNotFound, CodeUnknownChannel, "Unknown Channel")
			return
		}
		guildID = parent.GuildID
	}
	if s.limited(w, "thread-create", r.PathValue("channel")) {
		return
	}
	switch {
	case body.Type == 0:
		body.Type = ChannelPrivateThread // Discord's default without a message is 12
	case body.Type != ChannelPrivateThread && body.Type != ChannelPublicThread:
		discordError(w, http.StatusBadRequest, CodeInvalidForm, "Invalid Form Body (type)")
		return
	}
	if len(body.Name) < 1 || len(body.Name) > 100 {
		discordError(w, http.StatusBadRequest, CodeInvalidForm, "Invalid Form Body (name)")
		return
	}
	if body.Type == ChannelPrivateThread && s.missing(guildID, PermCreatePrivateThreads) {
		discordError(w, http.StatusForbidden, CodeMissingPermissions, "Missing Permissions")
		return
	}
	c := &GuildChannel{ID: s.newID(), GuildID: guildID, Type: body.Type, Name: body.Name, ParentID: r.PathValue("channel"), Members: []string{s.BotUserID}}
	st.byID[c.ID] = c
	s.notify()
	writeJSON(w, http.StatusCreated, c.wire())
}

// serveThreadMember adds (PUT) or removes (DELETE) a thread member.
func (s *Server) serveThreadMember(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.chanState().byID[r.PathValue("channel")]
	if !ok || c.Deleted || (c.Type != ChannelPrivateThread && c.Type != ChannelPublicThread) {
		discordError(w, http.StatusNotFound, CodeUnknownChannel, "Unknown Channel")
		return
	}
	if s.limited(w, "thread-members", c.ID) {
		return
	}
	if c.Archived {
		discordError(w, http.StatusBadRequest, 50083, "Thread is archived")
		return
	}
	u := r.PathValue("user")
	if r.Method == http.MethodDelete {
		// The bot may remove members of a private thread it created; from
		// anyone else's it needs Manage Threads, which the fake does not
		// model. Removing a non-member is a no-op, as on Discord.
		c.Members = slices.DeleteFunc(c.Members, func(m string) bool { return m == u })
		s.notify()
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if g := s.roleGuilds[c.GuildID]; g != nil && len(g.members) > 0 {
		if _, member := g.members[u]; !member {
			discordError(w, http.StatusNotFound, CodeUnknownMember, "Unknown Member")
			return
		}
	}
	if !slices.Contains(c.Members, u) {
		c.Members = append(c.Members, u)
	}
	s.notify()
	w.WriteHeader(http.StatusNoContent)
}

// limited takes a request from the route's bucket and answers 429 when it
// is spent. Call with mu held.
func (s *Server) limited(w http.ResponseWriter, route, guildID string) bool {
	st := s.chanState()
	st.calls++
	limit := st.limit
	if limit <= 0 {
		limit = 50
	}
	if s.buckets == nil {
		s.buckets = map[string]*bucket{}
	}
	key := route + "-" + guildID
	now := time.Now()
	b := s.buckets[key]
	if b == nil || now.After(b.reset) {
		b = &bucket{limit: limit, window: time.Second, reset: now.Add(time.Second)}
		s.buckets[key] = b
	}
	// Discord's Reset-After has millisecond precision; rounding it up
	// keeps a client that waits exactly that long from arriving a fraction
	// of a millisecond before the bucket refills (rounding to nearest made
	// rare 429s the client could not have avoided).
	resetAfter := math.Ceil(b.reset.Sub(now).Seconds()*1000) / 1000
	w.Header().Set("X-RateLimit-Bucket", key)
	w.Header().Set("X-RateLimit-Limit", strconv.Itoa(b.limit))
	w.Header().Set("X-RateLimit-Reset-After", strconv.FormatFloat(resetAfter, 'f', 3, 64))
	w.Header().Set("X-RateLimit-Reset", fmt.Sprintf("%.3f", float64(b.reset.UnixMilli())/1000))
	if b.used >= b.limit {
		st.r429++
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(resetAfter))))
		writeJSON(w, http.StatusTooManyRequests, map[string]any{"message": "You are being rate limited.", "retry_after": resetAfter, "global": false})
		return true
	}
	b.used++
	w.Header().Set("X-RateLimit-Remaining", strconv.Itoa(b.limit-b.used))
	return false
}
