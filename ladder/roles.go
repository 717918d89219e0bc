package ladder

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Division roles (issue 16): a guild maps divisions to Discord roles; each
// listed player of the default queue's running season holds exactly the
// role of their division, provisional and stale players none. Only mapped
// roles are ever given or taken.

// RoleStore keeps the division → role mapping, the role each player was last
// given (the applied state a sync diffs against) and the problems an admin
// must fix (package storage).
type RoleStore interface {
	// DivisionRoles returns a guild's mapping, division name → role ID.
	DivisionRoles(ctx context.Context, guildID string) (map[string]string, error)
	// SetDivisionRoles replaces a guild's mapping (empty clears it) and
	// forgets the guild's problems, which were about the old mapping.
	SetDivisionRoles(ctx context.Context, guildID string, m map[string]string) error
	// RoleGuilds returns the guilds with a mapping, by ID.
	RoleGuilds(ctx context.Context) ([]string, error)
	// AppliedRoles returns the mapped role each player was last given,
	// user ID → role ID (players given none are absent).
	AppliedRoles(ctx context.Context, guildID string) (map[string]string, error)
	// SetAppliedRole records the role a player now holds ("" none).
	SetAppliedRole(ctx context.Context, guildID, userID, roleID string) error
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

// Explain says what an admin should do about p.
func (p RoleProblem) Explain() string {
	switch p.Code {
	case DiscordUnknownRole:
		return fmt.Sprintf("role <@&%s> no longer exists: map another with /config roles", p.RoleID)
	case DiscordMissingPermissions:
		return fmt.Sprintf("cannot give role <@&%s>: grant the bot Manage Roles and move its role above it", p.RoleID)
	}
	return fmt.Sprintf("role <@&%s>: Discord error %d", p.RoleID, p.Code)
}

// RoleChange is what one player's roles need: Add ("" none) and Remove
// (mapped roles they hold but should not).
type RoleChange struct {
	UserID string
	Add    string
	Remove []string
	// Want is the role the player should end up with ("" none).
	Want string
}

// DesiredRoles returns the role each player of rows should hold under
// mapping (division name → role ID) with divs: the role of their division
// when listed, none when provisional or stale or when their division is not
// mapped. Players who should hold none are absent.
func DesiredRoles(divs []Division, mapping map[string]string, rows []Rating) map[string]string {
	out := make(map[string]string)
	for _, r := range rows {
		if r.Provisional || r.Stale {
			continue
		}
		if role := mapping[DivisionFor(divs, r.Display)]; role != "" {
			out[r.UserID] = role
		}
	}
	return out
}

// RoleChanges diffs desired (user → role) against held (user → mapped roles
// they hold) and returns the changes, by user ID. Roles outside mapping are
// ignored in held: only mapped roles are ever touched.
func RoleChanges(mapping map[string]string, desired map[string]string, held map[string][]string) []RoleChange {
	mapped := make(map[string]bool, len(mapping))
	for _, r := range mapping {
		mapped[r] = true
	}
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
		has := false
		for _, r := range held[u] {
			switch {
			case !mapped[r]:
			case r == want:
				has = true
			case !slices.Contains(c.Remove, r):
				c.Remove = append(c.Remove, r)
			}
		}
		if want != "" && !has {
			c.Add = want
		}
		if c.Add != "" || len(c.Remove) > 0 {
			slices.Sort(c.Remove)
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b RoleChange) int { return strings.Compare(a.UserID, b.UserID) })
	return out
}

// SetDivisionRoles maps a guild's divisions to roles (division name, any
// case → role ID; an empty role ID unmaps it) on top of the current mapping
// and returns the new mapping. Unknown divisions, malformed role IDs and one
// role for two divisions are refused, nothing changed.
func (s *Service) SetDivisionRoles(ctx context.Context, guildID string, set map[string]string) (map[string]string, error) {
	var out map[string]string
	err := s.store.InTx(ctx, func(tx Tx) error {
		g, err := tx.Guild(ctx, guildID)
		if err != nil {
			return err
		}
		cur, err := tx.DivisionRoles(ctx, guildID)
		if err != nil {
			return err
		}
		next := make(map[string]string, len(cur)+len(set))
		for d, r := range cur {
			next[d] = r
		}
		for name, role := range set {
			i := slices.IndexFunc(g.Divisions, func(d Division) bool { return strings.EqualFold(d.Name, name) })
			if i < 0 {
				return Errorf(CodeInvalid, "no division is called %q", name)
			}
			if role != "" {
				if err := validateSnowflake("role", role); err != nil {
					return err
				}
			}
			if role == "" {
				delete(next, g.Divisions[i].Name)
			} else {
				next[g.Divisions[i].Name] = role
			}
		}
		seen := map[string]string{}
		for d, r := range next {
			if other, ok := seen[r]; ok {
				a, b := min(d, other), max(d, other)
				return Errorf(CodeInvalid, "one role cannot stand for two divisions (%s and %s)", a, b)
			}
			seen[r] = d
		}
		if err := tx.SetDivisionRoles(ctx, guildID, next); err != nil {
			return err
		}
		out = next
		return nil
	})
	return out, err
}

// ClearDivisionRoles removes a guild's mapping; the roles players hold stay
// as they are (the bot no longer touches them).
func (s *Service) ClearDivisionRoles(ctx context.Context, guildID string) error {
	return s.store.InTx(ctx, func(tx Tx) error {
		return tx.SetDivisionRoles(ctx, guildID, nil)
	})
}

// RoleConfig is what /config show says of division roles.
type RoleConfig struct {
	Mapping  map[string]string
	Problems []RoleProblem
}

// DivisionRoleConfig returns a guild's mapping and recorded problems.
func (s *Service) DivisionRoleConfig(ctx context.Context, guildID string) (RoleConfig, error) {
	m, err := s.store.DivisionRoles(ctx, guildID)
	if err != nil {
		return RoleConfig{}, err
	}
	ps, err := s.store.RoleProblems(ctx, guildID)
	if err != nil {
		return RoleConfig{}, err
	}
	return RoleConfig{Mapping: m, Problems: ps}, nil
}

// RolePlan is one guild's role sync: the mapping, the desired roles and the
// changes against the applied state (or, in a reconcile, against what
// members were seen to hold).
type RolePlan struct {
	GuildID string
	Mapping map[string]string
	Desired map[string]string
	Applied map[string]string
	// Problems are the recorded problems; roles with one are skipped until
	// the mapping changes.
	Problems []RoleProblem
}

// Changes diffs the plan's desired roles against the applied state.
func (p RolePlan) Changes() []RoleChange {
	held := make(map[string][]string, len(p.Applied))
	for u, r := range p.Applied {
		held[u] = []string{r}
	}
	return RoleChanges(p.Mapping, p.Desired, held)
}

// Blocked returns the code of role's recorded problem, 0 when it has none.
func (p RolePlan) Blocked(role string) int {
	for _, q := range p.Problems {
		if q.RoleID == role {
			return q.Code
		}
	}
	return 0
}

// RolePlan reads what a guild's role sync needs: the mapping, the default
// queue's running season's rows turned into desired roles, and the applied
// state. A guild without a mapping answers an empty plan.
func (s *Service) RolePlan(ctx context.Context, guildID string) (RolePlan, error) {
	p := RolePlan{GuildID: guildID}
	var err error
	if p.Mapping, err = s.store.DivisionRoles(ctx, guildID); err != nil || len(p.Mapping) == 0 {
		return p, err
	}
	l, err := s.store.Ladder(ctx, guildID, "")
	if err != nil {
		return p, err
	}
	rows, err := s.store.Ratings(ctx, Key{QueueID: l.Queue.ID, SeasonID: l.Season.ID}, nil)
	if err != nil {
		return p, err
	}
	p.Desired = DesiredRoles(l.Guild.Divisions, p.Mapping, rows)
	if p.Applied, err = s.store.AppliedRoles(ctx, guildID); err != nil {
		return p, err
	}
	p.Problems, err = s.store.RoleProblems(ctx, guildID)
	return p, err
}

// RoleGuilds returns the guilds with a division-role mapping.
func (s *Service) RoleGuilds(ctx context.Context) ([]string, error) { return s.store.RoleGuilds(ctx) }

// RoleApplied records that a player now holds role ("" none).
func (s *Service) RoleApplied(ctx context.Context, guildID, userID, role string) error {
	return s.store.SetAppliedRole(ctx, guildID, userID, role)
}

// RoleFailed records a problem an admin must fix and reports whether it is
// new (and so should be posted).
func (s *Service) RoleFailed(ctx context.Context, guildID, role string, code int) (bool, error) {
	return s.store.AddRoleProblem(ctx, RoleProblem{GuildID: guildID, RoleID: role, Code: code, At: s.now()})
}
