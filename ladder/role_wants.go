package ladder

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"
)

// Role changes take one ordered path per guild. The roles each player
// should hold are a versioned row (RoleWant) that every planner writes by
// compare-and-set, so a plan computed from older standings never replaces
// a newer one; one worker per guild at a time (a lease) applies to each
// pending player the difference between their row, read afresh, and the
// roles Discord reports, then records the version it made true. A rating
// move so costs one removal and one grant however many syncs and
// reconciles run, and a reconcile that began before a change never undoes
// it.

// RoleWant is the mapped roles one player should hold.
type RoleWant struct {
	GuildID string
	UserID  string
	// Roles are role IDs in order; none is an empty slice.
	Roles []string
	// Version grows by one with each change of Roles; Applied is the
	// version the worker last made true on Discord.
	Version, Applied int64
}

// Pending reports whether the worker has not yet applied w's version.
func (w RoleWant) Pending() bool { return w.Applied != w.Version }

// RoleWantStore keeps the wanted roles and the workers' lease.
type RoleWantStore interface {
	// RoleWants returns a guild's rows by user ID.
	RoleWants(ctx context.Context, guildID string) ([]RoleWant, error)
	// RoleWant returns one player's row; CodeNotFound when none.
	RoleWant(ctx context.Context, guildID, userID string) (RoleWant, error)
	// SetRoleWant stores w.Roles as version prev+1 if the row's version is
	// still prev (0: no row yet), and reports whether it did.
	SetRoleWant(ctx context.Context, w RoleWant, prev int64) (bool, error)
	// MarkRoleApplied records that version is true on Discord.
	MarkRoleApplied(ctx context.Context, guildID, userID string, version int64) error
	// MarkRolesPending makes every row of a guild pending (a new mapping).
	MarkRolesPending(ctx context.Context, guildID string) error
	// ClaimRoleWorker takes or renews a guild's lease for holder until
	// until, unless another holder's lease runs past now.
	ClaimRoleWorker(ctx context.Context, guildID, holder string, now, until time.Time) (bool, error)
	// ReleaseRoleWorker gives holder's lease up.
	ReleaseRoleWorker(ctx context.Context, guildID, holder string) error
	// DueRoleGuilds returns the guilds with a mapping whose plan may be
	// out of date (a write to what it is made from since the last plan)
	// or whose wanted roles are not all applied, by ID.
	DueRoleGuilds(ctx context.Context) ([]string, error)
	// RolePlanVersion returns the version of what a guild's plan is made
	// from; every write to it (ratings, settings, seasons, frozen
	// standings, queues, mapping) bumps it in the writer's transaction.
	RolePlanVersion(ctx context.Context, guildID string) (int64, error)
	// MarkRolePlanned records that a plan read version.
	MarkRolePlanned(ctx context.Context, guildID string, version int64) error
}

// PlanRoles computes the roles each player of a guild should hold from
// the standings and last season's badges (RolePlan) and writes the rows
// that changed, each by compare-and-set on the version read in the same
// transaction before the standings: a concurrent planner that wrote first
// makes this one read again, so the newest standings win. It returns the
// plan, whose Wants are the rows after the write.
func (s *Service) PlanRoles(ctx context.Context, guildID string) (RolePlan, error) {
	for attempt := 0; ; attempt++ {
		var p RolePlan
		lost := false
		err := s.store.InTx(ctx, func(tx Tx) error {
			// The version is read before what the plan is made from: a
			// write committed after this read bumps it past what is
			// recorded below, so the guild stays due.
			version, err := tx.RolePlanVersion(ctx, guildID)
			if err != nil {
				return err
			}
			if err := tx.MarkRolePlanned(ctx, guildID, version); err != nil {
				return err
			}
			ws, err := tx.RoleWants(ctx, guildID)
			if err != nil {
				return err
			}
			if p, err = s.rolePlan(ctx, tx, guildID); err != nil || p.Mapping.Empty() {
				return err
			}
			p.Wants = make(map[string]RoleWant, len(ws))
			for _, w := range ws {
				p.Wants[w.UserID] = w
			}
			for _, u := range slices.Sorted(maps.Keys(p.Desired)) {
				if _, ok := p.Wants[u]; !ok {
					p.Wants[u] = RoleWant{GuildID: guildID, UserID: u, Roles: []string{}}
				}
			}
			for _, u := range slices.Sorted(maps.Keys(p.Wants)) {
				w := p.Wants[u]
				want := p.Desired[u]
				if want == nil {
					want = []string{}
				}
				if slices.Equal(w.Roles, want) && w.Version != 0 {
					continue
				}
				ok, err := tx.SetRoleWant(ctx, RoleWant{GuildID: guildID, UserID: u, Roles: want}, w.Version)
				if err != nil {
					return err
				}
				if !ok {
					lost = true
					return Errorf(CodeConflict, "the roles of %s changed while planning", u)
				}
				w.Roles, w.Version = want, w.Version+1
				p.Wants[u] = w
			}
			return nil
		})
		switch {
		case err == nil:
			return p, nil
		case lost && attempt < 5:
			continue
		}
		return RolePlan{}, fmt.Errorf("ladder: plan roles of guild %s: %w", guildID, err)
	}
}

// DueRoleGuilds returns the guilds whose roles the periodic sync must
// look at: a write to what their plan is made from since their last plan,
// or wanted roles not yet applied. A guild where nothing changed costs the
// sync nothing.
func (s *Service) DueRoleGuilds(ctx context.Context) ([]string, error) {
	ids, err := s.store.DueRoleGuilds(ctx)
	if err != nil {
		return nil, fmt.Errorf("ladder: due role guilds: %w", err)
	}
	return ids, nil
}

// RoleWant returns one player's wanted roles as stored now; a player
// never planned wants none (version 0).
func (s *Service) RoleWant(ctx context.Context, guildID, userID string) (RoleWant, error) {
	w, err := s.store.RoleWant(ctx, guildID, userID)
	switch {
	case ErrorCode(err) == CodeNotFound:
		return RoleWant{GuildID: guildID, UserID: userID, Roles: []string{}}, nil
	case err != nil:
		return RoleWant{}, fmt.Errorf("ladder: wanted roles of %s: %w", userID, err)
	}
	return w, nil
}

// MarkRoleApplied records that a player's wanted roles of version are
// true on Discord.
func (s *Service) MarkRoleApplied(ctx context.Context, guildID, userID string, version int64) error {
	if err := s.store.MarkRoleApplied(ctx, guildID, userID, version); err != nil {
		return fmt.Errorf("ladder: mark roles of %s applied: %w", userID, err)
	}
	return nil
}

// ClaimRoleWorker takes (or renews) the lease on a guild's role changes
// for holder, for lease; false while another holder's runs.
func (s *Service) ClaimRoleWorker(ctx context.Context, guildID, holder string, lease time.Duration) (bool, error) {
	now := s.now()
	ok, err := s.store.ClaimRoleWorker(ctx, guildID, holder, now, now.Add(lease))
	if err != nil {
		return false, fmt.Errorf("ladder: claim role worker of guild %s: %w", guildID, err)
	}
	return ok, nil
}

// ReleaseRoleWorker gives a guild's lease up.
func (s *Service) ReleaseRoleWorker(ctx context.Context, guildID, holder string) error {
	if err := s.store.ReleaseRoleWorker(ctx, guildID, holder); err != nil {
		return fmt.Errorf("ladder: release role worker of guild %s: %w", guildID, err)
	}
	return nil
}
