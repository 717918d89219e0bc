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

// Discord's JSON error codes the role routes answer.
const (
	CodeUnknownRole        = 10011
	CodeUnknownMember      = 10007
	CodeMissingPermissions = 50013
)

// Role is a guild role as the fake keeps it.
type Role struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Position int    `json:"position"`
	Color    int    `json:"color"`
	Hoist    bool   `json:"hoist"`
	Managed  bool   `json:"managed"`
	Mention  bool   `json:"mentionable"`
	Perms    string `json:"permissions"`
}

// roleGuild is one guild's roles and members' role sets.
type roleGuild struct {
	roles       []Role
	members     map[string][]string // user ID → role IDs
	botTop      int                 // position of the bot's highest role
	manageRoles bool
}

// bucket is a fixed-window rate limit shared by a route's requests in one
// guild, as Discord's per-route buckets are.
type bucket struct {
	limit  int
	window time.Duration
	used   int
	reset  time.Time
}

// roleState is kept in Server.roleGuilds; created lazily per guild.
func (s *Server) guildRoles(guildID string) *roleGuild {
	if s.roleGuilds == nil {
		s.roleGuilds = map[string]*roleGuild{}
	}
	g := s.roleGuilds[guildID]
	if g == nil {
		g = &roleGuild{members: map[string][]string{}, botTop: 100, manageRoles: true}
		s.roleGuilds[guildID] = g
	}
	return g
}

// AddMember makes userID a member of guildID with no roles; members the fake
// does not know answer 10007 Unknown Member.
func (s *Server) AddMember(guildID, userID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.guildRoles(guildID)
	if _, ok := g.members[userID]; !ok {
		g.members[userID] = []string{}
	}
	s.notify()
}

// RemoveMember makes userID leave guildID (and lose its roles).
func (s *Server) RemoveMember(guildID, userID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.guildRoles(guildID).members, userID)
	s.notify()
}

// AddRole creates a role at position (above the bot's highest role when
// position > the bot's, see SetBotTopPosition) and returns its ID.
func (s *Server) AddRole(guildID, name string, position int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.guildRoles(guildID)
	r := Role{ID: s.newID(), Name: name, Position: position, Perms: "0"}
	g.roles = append(g.roles, r)
	s.notify()
	return r.ID
}

// DeleteRole deletes a role, as an admin would, and takes it from every member.
func (s *Server) DeleteRole(guildID, roleID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.guildRoles(guildID)
	g.roles = slices.DeleteFunc(g.roles, func(r Role) bool { return r.ID == roleID })
	for u, rs := range g.members {
		g.members[u] = slices.DeleteFunc(rs, func(id string) bool { return id == roleID })
	}
	s.notify()
}

// SetManageRoles grants or takes the bot's Manage Roles permission.
func (s *Server) SetManageRoles(guildID string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.guildRoles(guildID).manageRoles = ok
	s.notify()
}

// SetBotTopPosition sets the position of the bot's highest role: roles at or
// above it cannot be given or taken (50013).
func (s *Server) SetBotTopPosition(guildID string, pos int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.guildRoles(guildID).botTop = pos
	s.notify()
}

// TakeRole removes a role from a member by hand, as a moderator would.
func (s *Server) TakeRole(guildID, userID, roleID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.guildRoles(guildID)
	g.members[userID] = slices.DeleteFunc(g.members[userID], func(id string) bool { return id == roleID })
	s.notify()
}

// MemberRoles returns the role IDs a member holds, sorted, and whether the
// user is a member.
func (s *Server) MemberRoles(guildID, userID string) ([]string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rs, ok := s.guildRoles(guildID).members[userID]
	out := slices.Clone(rs)
	slices.Sort(out)
	return out, ok
}

// Roles returns a guild's roles.
func (s *Server) Roles(guildID string) []Role {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.guildRoles(guildID).roles)
}

// SetRoleRateLimit sets the per-guild bucket of the member-role routes (PUT
// and DELETE share one, as on Discord): limit requests per window. The
// default is 50 per second.
func (s *Server) SetRoleRateLimit(limit int, window time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.roleLimit, s.roleWindow = limit, window
	s.buckets = nil
}

// Inject429 makes the next n member-role requests answer 429 with
// retry_after, whatever the bucket says, as Discord does when a shared
// limit trips.
func (s *Server) Inject429(n int, retryAfter time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.forced429, s.forcedRetry = n, retryAfter
}

// RoleRequests counts the member-role REST calls (PUT and DELETE on
// /guilds/{g}/members/{u}/roles/{r}, 429s included) so far.
func (s *Server) RoleRequests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.roleRequests
}

// Count429 is how many member-role calls were answered 429.
func (s *Server) Count429() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.role429s
}

func (s *Server) registerRoleRoutes() {
	s.mux.HandleFunc("GET /api/{v}/guilds/{guild}/roles", s.serveRoles)
	s.mux.HandleFunc("POST /api/{v}/guilds/{guild}/roles", s.serveRoles)
	s.mux.HandleFunc("GET /api/{v}/guilds/{guild}/members/{user}", s.serveMember)
	s.mux.HandleFunc("PUT /api/{v}/guilds/{guild}/members/{user}/roles/{role}", s.serveMemberRole)
	s.mux.HandleFunc("DELETE /api/{v}/guilds/{guild}/members/{user}/roles/{role}", s.serveMemberRole)
}

func discordError(w http.ResponseWriter, status, code int, msg string) {
	writeJSON(w, status, map[string]any{"code": code, "message": msg})
}

func (s *Server) serveRoles(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.guildRoles(r.PathValue("guild"))
	if r.Method == http.MethodGet {
		writeJSON(w, http.StatusOK, g.roles)
		return
	}
	if !g.manageRoles {
		discordError(w, http.StatusForbidden, CodeMissingPermissions, "Missing Permissions")
		return
	}
	var body struct {
		Name string `json:"name"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		discordError(w, http.StatusBadRequest, 50035, "Invalid Form Body")
		return
	}
	// New roles go just above @everyone, below the bot's role.
	role := Role{ID: s.newID(), Name: body.Name, Position: 1, Perms: "0"}
	g.roles = append(g.roles, role)
	s.notify()
	writeJSON(w, http.StatusOK, role)
}

func (s *Server) serveMember(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.guildRoles(r.PathValue("guild"))
	rs, ok := g.members[r.PathValue("user")]
	if !ok {
		discordError(w, http.StatusNotFound, CodeUnknownMember, "Unknown Member")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"user":  map[string]any{"id": r.PathValue("user"), "username": "u" + r.PathValue("user")},
		"roles": rs,
	})
}

func (s *Server) serveMemberRole(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	guildID, userID, roleID := r.PathValue("guild"), r.PathValue("user"), r.PathValue("role")
	s.roleRequests++
	if s.forced429 > 0 {
		s.forced429--
		s.role429s++
		secs := s.forcedRetry.Seconds()
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(secs))))
		writeJSON(w, http.StatusTooManyRequests, map[string]any{"message": "You are being rate limited.", "retry_after": secs, "global": false})
		return
	}
	// The bucket: one per guild for both methods.
	limit, window := s.roleLimit, s.roleWindow
	if limit <= 0 {
		limit, window = 50, time.Second
	}
	if s.buckets == nil {
		s.buckets = map[string]*bucket{}
	}
	b := s.buckets[guildID]
	now := time.Now()
	if b == nil || now.After(b.reset) {
		b = &bucket{limit: limit, window: window, reset: now.Add(window)}
		s.buckets[guildID] = b
	}
	resetAfter := math.Ceil(b.reset.Sub(now).Seconds()*1000) / 1000 // as threads.go: rounded up
	w.Header().Set("X-RateLimit-Bucket", "member-roles-"+guildID)
	w.Header().Set("X-RateLimit-Limit", strconv.Itoa(b.limit))
	w.Header().Set("X-RateLimit-Reset-After", strconv.FormatFloat(resetAfter, 'f', 3, 64))
	w.Header().Set("X-RateLimit-Reset", fmt.Sprintf("%.3f", float64(b.reset.UnixMilli())/1000))
	if b.used >= b.limit {
		s.role429s++
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(resetAfter))))
		writeJSON(w, http.StatusTooManyRequests, map[string]any{"message": "You are being rate limited.", "retry_after": resetAfter, "global": false})
		return
	}
	b.used++
	w.Header().Set("X-RateLimit-Remaining", strconv.Itoa(b.limit-b.used))

	g := s.guildRoles(guildID)
	i := slices.IndexFunc(g.roles, func(x Role) bool { return x.ID == roleID })
	if i < 0 {
		discordError(w, http.StatusNotFound, CodeUnknownRole, "Unknown Role")
		return
	}
	if !g.manageRoles || g.roles[i].Position >= g.botTop {
		discordError(w, http.StatusForbidden, CodeMissingPermissions, "Missing Permissions")
		return
	}
	rs, ok := g.members[userID]
	if !ok {
		discordError(w, http.StatusNotFound, CodeUnknownMember, "Unknown Member")
		return
	}
	if r.Method == http.MethodPut {
		if !slices.Contains(rs, roleID) {
			g.members[userID] = append(rs, roleID)
		}
	} else {
		g.members[userID] = slices.DeleteFunc(rs, func(id string) bool { return id == roleID })
	}
	s.notify()
	w.WriteHeader(http.StatusNoContent)
}
