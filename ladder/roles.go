package ladder

import (
	"context"
	"maps"
	"slices"
	"strings"
	"time"
)

// Division and badge roles: a guild maps divisions, and last
// season's top 3/30/100 badges, to Discord roles; each listed player of the
// default queue's running season holds exactly the role of their division,
// provisional and stale players none, and each player holds the role of the
// badge they earned in the default queue's most recently closed season.
// Only mapped roles are ever given or taken.

// Badges are the badges a season's final standings give (Badge), best
// first; each may be mapped to a role.
var Badges = []string{"top3", "top30", "top100"}

// RoleStore keeps the division → role mapping, the role each player was last
// given (the applied state a sync diffs against) and the problems an admin
// must fix (package storage).
type RoleStore interface {
	// DivisionRoles returns a guild's mapping, division name → role ID.
	DivisionRoles(ctx context.Context, guildID string) (map[string]string, error)
	// SetDivisionRoles replaces a guild's mapping (empty clears it) and
	// forgets the guild's problems, which were about the old mapping.
	SetDivisionRoles(ctx context.Context, guildID string, m map[string]string) error
	// BadgeRoles returns a guild's badge mapping, badge → role ID.
	BadgeRoles(ctx context.Context, guildID string) (map[string]string, error)
	// SetBadgeRoles replaces a guild's badge mapping and forgets the
	// guild's problems, as SetDivisionRoles does.
	SetBadgeRoles(ctx context.Context, guildID string, m map[string]string) error
	// RoleGuilds returns the guilds with a division or badge mapping, by ID.
	RoleGuilds(ctx context.Context) ([]string, error)
	// AppliedRoles returns the mapped roles each player was last given,
	// user ID → role IDs in order (players given none are absent).
	AppliedRoles(ctx context.Context, guildID string) (map[string][]string, error)
	// SetAppliedRoles records the mapped roles a player now holds (none:
	// empty).
	SetAppliedRoles(ctx context.Context, guildID, userID string, roleIDs []string) error
	// AddRoleProblem records p unless the same (guild, role, code) is
	// recorded; it reports whether p is new.
	AddRoleProblem(ctx context.Context, p RoleProblem) (bool, error)
	// RoleProblems returns a guild's recorded problems, oldest first.
	RoleProblems(ctx context.Context, guildID string) ([]RoleProblem, error)
}

// Discord's JSON error codes that an admin must fix.
const (
	DiscordUnknownRole        = 10011
	DiscordMissingPermissions = 50013
)

// RoleProblem is a failure of a role change that no retry fixes: the bot
// lacks Manage Roles or the role is above its highest (50013), or the role
// was deleted (10011).
type RoleProblem struct {
	GuildID string
	RoleID  string
	Code    int
	At      time.Time
}

// RoleMapping is a guild's mapping of divisions and badges to roles.
type RoleMapping struct {
	// Divisions maps division names to role IDs.
	Divisions map[string]string
	// Badges maps "top3", "top30" and "top100" to role IDs.
	Badges map[string]string
}

// Empty reports whether nothing is mapped.
func (m RoleMapping) Empty() bool { return len(m.Divisions) == 0 && len(m.Badges) == 0 }

// Maps reports whether role is mapped to a division or a badge.
func (m RoleMapping) Maps(role string) bool { return m.mapped()[role] }

// mapped returns the set of every mapped role.
func (m RoleMapping) mapped() map[string]bool {
	out := make(map[string]bool, len(m.Divisions)+len(m.Badges))
	for _, ms := range []map[string]string{m.Divisions, m.Badges} {
		for _, r := range ms {
			out[r] = true
		}
	}
	return out
}

// RoleChange is what one player's roles need: Add and Remove (mapped
// roles they should hold but lack, and hold but should not).
type RoleChange struct {
	UserID string
	Add    []string
	Remove []string
	// Want is the set of mapped roles the player should end up with.
	Want []string
}

// DesiredRoles returns the mapped roles each player should hold under m:
// with divs, the role of the division of each row of rows (the running
// season) when listed, none when provisional or stale or when the division
// is not mapped; and the role of each player's badge of the last closed
// season (user ID → badge). Roles are in order; players who should hold
// none are absent.
func DesiredRoles(divs []Division, m RoleMapping, rows []Rating, badges map[string]string) map[string][]string {
	out := make(map[string][]string)
	for _, r := range rows {
		if r.Provisional || r.Stale {
			continue
		}
		if role := m.Divisions[DivisionFor(divs, r.Display)]; role != "" {
			out[r.UserID] = append(out[r.UserID], role)
		}
	}
	for u, b := range badges {
		if role := m.Badges[b]; role != "" && !slices.Contains(out[u], role) {
			out[u] = append(out[u], role)
		}
	}
	for u := range out {
		slices.Sort(out[u])
	}
	return out
}

// RoleChanges diffs desired (user → roles) against held (user → roles they
// hold) and returns the changes, by user ID. Roles outside m are ignored in
// held: only mapped roles are ever touched.
func RoleChanges(m RoleMapping, desired, held map[string][]string) []RoleChange {
	mapped := m.mapped()
	users := make(map[string]bool, len(desired)+len(held))
	for u := range desired {
		users[u] = true
	}
	for u := range held {
		users[u] = true
	}
	var out []RoleChange
	for u := range users {
		want := desired[u]
		c := RoleChange{UserID: u, Want: want}
		for _, r := range held[u] {
			if mapped[r] && !slices.Contains(want, r) && !slices.Contains(c.Remove, r) {
				c.Remove = append(c.Remove, r)
			}
		}
		for _, r := range want {
			if !slices.Contains(held[u], r) {
				c.Add = append(c.Add, r)
			}
		}
		if len(c.Add) > 0 || len(c.Remove) > 0 {
			slices.Sort(c.Add)
			slices.Sort(c.Remove)
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b RoleChange) int { return strings.Compare(a.UserID, b.UserID) })
	return out
}

// SetDivisionRoles maps a guild's divisions to roles (division name, any
// case → role ID; an empty role ID unmaps it) on top of the current mapping
// and returns the new division mapping. Unknown divisions, malformed role
// IDs and one role for two divisions or badges are refused, nothing changed.
// It is not audited; a moderator's change goes through SetRoles.
func (s *Service) SetDivisionRoles(ctx context.Context, guildID string, set map[string]string) (map[string]string, error) {
	m, err := s.setRoles(ctx, nil, guildID, RoleMapping{Divisions: set})
	return m.Divisions, err
}

// SetBadgeRoles maps last season's badges to roles ("top3", "top30",
// "top100", any case → role ID; an empty role ID unmaps it) on top of the
// current mapping and returns the new badge mapping, refusing what
// SetDivisionRoles refuses.
func (s *Service) SetBadgeRoles(ctx context.Context, guildID string, set map[string]string) (map[string]string, error) {
	m, err := s.setRoles(ctx, nil, guildID, RoleMapping{Badges: set})
	return m.Badges, err
}

// SetRoles is a moderator's change of the role mapping (/config roles,
// the dashboard): the divisions and badges of set are mapped on top of
// the current mapping, as SetDivisionRoles and SetBadgeRoles do, in one
// transaction with an audit entry "roles.set" holding the mapping before
// and after. It returns the new mapping.
func (s *Service) SetRoles(ctx context.Context, actor Actor, guildID string, set RoleMapping) (RoleMapping, error) {
	return s.setRoles(ctx, &actor, guildID, set)
}

// setRoles changes a guild's mapping; a role may stand for one division or
// badge only. With an actor the change is audited.
func (s *Service) setRoles(ctx context.Context, actor *Actor, guildID string, set RoleMapping) (RoleMapping, error) {
	var out RoleMapping
	err := s.store.InTx(ctx, func(tx Tx) error {
		g, err := tx.Guild(ctx, guildID)
		if err != nil {
			return err
		}
		if out, err = roleMapping(ctx, tx, guildID); err != nil {
			return err
		}
		before := RoleMapping{Divisions: maps.Clone(out.Divisions), Badges: maps.Clone(out.Badges)}
		divisions := make([]string, len(g.Divisions))
		for i, d := range g.Divisions {
			divisions[i] = d.Name
		}
		if out.Divisions, err = applyRoles(out.Divisions, set.Divisions, "division", divisions); err != nil {
			return err
		}
		if out.Badges, err = applyRoles(out.Badges, set.Badges, "badge", Badges); err != nil {
			return err
		}
		seen := map[string]string{}
		for _, ms := range []map[string]string{out.Divisions, out.Badges} {
			for _, k := range slices.Sorted(maps.Keys(ms)) {
				if other, ok := seen[ms[k]]; ok {
					return Errorf(CodeInvalid, "one role cannot stand for two divisions or badges (%s and %s)", other, k)
				}
				seen[ms[k]] = k
			}
		}
		if err := tx.SetDivisionRoles(ctx, guildID, out.Divisions); err != nil {
			return err
		}
		if err := tx.SetBadgeRoles(ctx, guildID, out.Badges); err != nil {
			return err
		}
		// The problems are forgotten with the old mapping: every player is
		// looked at again, a role that failed included.
		if err := tx.MarkRolesPending(ctx, guildID); err != nil {
			return err
		}
		if actor == nil {
			return nil
		}
		return audit(ctx, tx, AuditEntry{GuildID: guildID, ActorID: actor.UserID, Action: "roles.set", At: s.now()}, before, out)
	})
	return out, err
}

// applyRoles returns cur with set applied: names (a noun) are the valid
// keys, matched in any case; an empty role unmaps.
func applyRoles(cur, set map[string]string, noun string, names []string) (map[string]string, error) {
	next := maps.Clone(cur)
	if next == nil {
		next = map[string]string{}
	}
	for _, n := range slices.Sorted(maps.Keys(set)) {
		role := set[n]
		i := slices.IndexFunc(names, func(k string) bool { return strings.EqualFold(k, n) })
		switch {
		case i < 0:
			return nil, Errorf(CodeInvalid, "no %s is called %q", noun, n)
		case role == "":
			delete(next, names[i])
			continue
		}
		if err := validateSnowflake("role", role); err != nil {
			return nil, err
		}
		next[names[i]] = role
	}
	return next, nil
}

// roleMapping reads a guild's division and badge mappings.
func roleMapping(ctx context.Context, st RoleStore, guildID string) (RoleMapping, error) {
	var m RoleMapping
	var err error
	if m.Divisions, err = st.DivisionRoles(ctx, guildID); err != nil {
		return m, err
	}
	m.Badges, err = st.BadgeRoles(ctx, guildID)
	return m, err
}

// ClearDivisionRoles removes a guild's whole mapping, divisions and
// badges; the roles players hold stay as they are (the bot no longer
// touches them).
func (s *Service) ClearDivisionRoles(ctx context.Context, guildID string) error {
	return s.store.InTx(ctx, func(tx Tx) error {
		if err := tx.SetDivisionRoles(ctx, guildID, nil); err != nil {
			return err
		}
		return tx.SetBadgeRoles(ctx, guildID, nil)
	})
}

// RoleConfig is what /config show says of division and badge roles.
type RoleConfig struct {
	// Mapping maps divisions to roles, Badges badges.
	Mapping  map[string]string
	Badges   map[string]string
	Problems []RoleProblem
}

// DivisionRoleConfig returns a guild's mappings and recorded problems.
func (s *Service) DivisionRoleConfig(ctx context.Context, guildID string) (RoleConfig, error) {
	m, err := roleMapping(ctx, s.store, guildID)
	if err != nil {
		return RoleConfig{}, err
	}
	ps, err := s.store.RoleProblems(ctx, guildID)
	if err != nil {
		return RoleConfig{}, err
	}
	return RoleConfig{Mapping: m.Divisions, Badges: m.Badges, Problems: ps}, nil
}

// RolePlan is one guild's role sync: the mapping, the desired roles and the
// changes against the applied state (or, in a reconcile, against what
// members were seen to hold).
type RolePlan struct {
	GuildID string
	Mapping RoleMapping
	// Desired and Applied are user ID → mapped roles, in order.
	Desired map[string][]string
	Applied map[string][]string
	// Problems are the recorded problems; roles with one are skipped until
	// the mapping changes.
	Problems []RoleProblem
	// Wants are the stored wanted roles by user ID (PlanRoles only).
	Wants map[string]RoleWant
}

// Changes diffs the plan's desired roles against the applied state.
func (p RolePlan) Changes() []RoleChange { return RoleChanges(p.Mapping, p.Desired, p.Applied) }

// Blocked returns the code of role's recorded problem, 0 when it has none.
func (p RolePlan) Blocked(role string) int {
	for _, q := range p.Problems {
		if q.RoleID == role {
			return q.Code
		}
	}
	return 0
}

// rolePlan reads what a guild's role sync needs, through st: the mapping;
// the default queue's running season's rows and its last closed season's
// badges, turned into desired roles; and the applied state. A guild
// without a mapping answers an empty plan. PlanRoles writes the desired
// roles as the rows the worker follows.
func (s *Service) rolePlan(ctx context.Context, st Tx, guildID string) (RolePlan, error) {
	p := RolePlan{GuildID: guildID}
	var err error
	if p.Mapping, err = roleMapping(ctx, st, guildID); err != nil || p.Mapping.Empty() {
		return p, err
	}
	l, err := st.Ladder(ctx, guildID, "")
	if err != nil {
		return p, err
	}
	rows, err := st.Ratings(ctx, Key{QueueID: l.Queue.ID, SeasonID: l.Season.ID}, nil)
	if err != nil {
		return p, err
	}
	badges, err := s.lastBadgesIn(ctx, st, guildID, l)
	if err != nil {
		return p, err
	}
	p.Desired = DesiredRoles(l.Guild.Divisions, p.Mapping, rows, badges)
	if p.Applied, err = st.AppliedRoles(ctx, guildID); err != nil {
		return p, err
	}
	p.Problems, err = st.RoleProblems(ctx, guildID)
	return p, err
}

// lastBadgesIn returns the badges (user ID → badge) of the default queue's
// frozen standings of the guild's most recently closed season; none before
// the first season closes. A correction of that season refreezes them, so
// roles follow it.
func (s *Service) lastBadgesIn(ctx context.Context, st Tx, guildID string, l Ladder) (map[string]string, error) {
	out := map[string]string{}
	if l.Season.Number <= 1 {
		return out, nil
	}
	prev, err := st.Season(ctx, guildID, l.Season.Number-1)
	if err != nil {
		return nil, err
	}
	rs, err := st.SeasonResults(ctx, prev.ID, l.Queue.ID)
	if err != nil {
		return nil, err
	}
	for _, r := range rs {
		if r.Badge != "" {
			out[r.UserID] = r.Badge
		}
	}
	return out, nil
}

// RoleGuilds returns the guilds with a division or badge mapping.
func (s *Service) RoleGuilds(ctx context.Context) ([]string, error) { return s.store.RoleGuilds(ctx) }

// RoleApplied records the mapped roles a player now holds.
func (s *Service) RoleApplied(ctx context.Context, guildID, userID string, roles []string) error {
	return s.store.SetAppliedRoles(ctx, guildID, userID, roles)
}

// RoleFailed records a problem an admin must fix and reports whether it is
// new (and so should be posted).
func (s *Service) RoleFailed(ctx context.Context, guildID, role string, code int) (bool, error) {
	return s.store.AddRoleProblem(ctx, RoleProblem{GuildID: guildID, RoleID: role, Code: code, At: s.now()})
}
