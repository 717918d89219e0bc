package fakediscord

import (
	"math"
	"net/http"
	"strconv"
	"time"
)

// CodeUnknownMessage is Discord's JSON error code for a message that does
// not exist (deleted).
const CodeUnknownMessage = 10008

// DeleteMessage deletes a channel message, as a moderator would by hand;
// editing it afterwards answers 404 with code 10008 Unknown Message.
func (s *Server) DeleteMessage(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m := s.messages[id]; m != nil {
		m.Deleted = true
	}
	s.notify()
}

func (s *Server) serveDeleteMessage(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.messages[r.PathValue("msg")]
	if m == nil || m.Deleted || m.ChannelID != r.PathValue("channel") {
		discordError(w, http.StatusNotFound, CodeUnknownMessage, "Unknown Message")
		return
	}
	m.Deleted = true
	s.notify()
	w.WriteHeader(http.StatusNoContent)
}

// Discord's bucket for editing messages: per channel, 5 edits per 5 s.
const (
	editLimit  = 5
	editWindow = 5 * time.Second
)

// SetEditRateLimit sets the per-channel bucket of message edits (default
// 5 per 5 s, as on Discord).
func (s *Server) SetEditRateLimit(limit int, window time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.editLimit, s.editWindow = limit, window
	s.editBuckets = nil
}

// Edit429s is how many message edits were answered 429.
func (s *Server) Edit429s() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.edit429s
}

// limitEdits puts message edits through their channel's bucket: within
// it, next runs with the rate-limit headers Discord sends; over it, the
// answer is 429 with retry_after, and the edit is not made.
func (s *Server) limitEdits(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		limit, window := s.editLimit, s.editWindow
		if limit <= 0 {
			limit, window = editLimit, editWindow
		}
		if s.editBuckets == nil {
			s.editBuckets = map[string]*bucket{}
		}
		ch := r.PathValue("channel")
		b := s.editBuckets[ch]
		now := time.Now()
		if b == nil || now.After(b.reset) {
			b = &bucket{limit: limit, window: window, reset: now.Add(window)}
			s.editBuckets[ch] = b
		}
		// Rounded up to Discord's millisecond: a client that waits what
		// the header says never arrives before the window ends.
		resetAfter := math.Ceil(b.reset.Sub(now).Seconds()*1000) / 1000
		h := w.Header()
		h.Set("X-RateLimit-Bucket", "message-edit-"+ch)
		h.Set("X-RateLimit-Limit", strconv.Itoa(b.limit))
		h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(resetAfter, 'f', 3, 64))
		h.Set("X-RateLimit-Reset", strconv.FormatFloat(float64(b.reset.UnixMilli())/1000, 'f', 3, 64))
		if b.used >= b.limit {
			s.edit429s++
			s.mu.Unlock()
			h.Set("X-RateLimit-Remaining", "0")
			h.Set("Retry-After", strconv.Itoa(int(math.Ceil(resetAfter))))
			writeJSON(w, http.StatusTooManyRequests, map[string]any{"message": "You are being rate limited.", "retry_after": resetAfter, "global": false})
			return
		}
		b.used++
		h.Set("X-RateLimit-Remaining", strconv.Itoa(b.limit-b.used))
		s.mu.Unlock()
		next(w, r)
	}
}

// guildChannel finds a channel of a guild, shaped as Discord resolves it in
// an interaction (a channel select menu's pick). Call with mu held.
func (s *Server) guildChannel(guildID, id string) (resolvedChannel, bool) {
	c, ok := s.chanState().byID[id]
	if !ok || c.GuildID != guildID || c.Deleted {
		return resolvedChannel{}, false
	}
	return resolvedChannel{ID: c.ID, GuildID: c.GuildID, Name: c.Name, Type: c.Type, ParentID: c.ParentID}, true
}

// resolvedChannel is a channel in an interaction's resolved data.
type resolvedChannel struct {
	ID       string `json:"id"`
	GuildID  string `json:"guild_id"`
	Name     string `json:"name"`
	Type     int    `json:"type"`
	ParentID string `json:"parent_id,omitempty"`
}

// SetManageChannels grants or takes the bot's Manage Channels permission
// in a guild (SetChannelPermission with PermManageChannels): without it,
// creating a channel answers 50013.
func (s *Server) SetManageChannels(guildID string, ok bool) {
	s.SetChannelPermission(guildID, PermManageChannels, ok)
}
