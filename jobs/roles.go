package jobs

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/ladder"
)

// Division- and badge-role jobs.
const (
	// JobRoles applies the changes between the desired division roles and
	// the applied state, every minute.
	JobRoles = "roles"
	// JobRoleReconcile reads every tracked member's actual roles once a day
	// and repairs drift (a role removed by hand, a member who came back).
	JobRoleReconcile = "role-reconcile"
)

// RoleClient makes the Discord calls division roles need; the bot
// implements it, with discordgo's pacing (bot/roles.go), so the syncer
// makes its calls one at a time per guild and adds no limiter of its own.
// A failed call's error carries Discord's JSON error code through a
// DiscordCode() int method.
type RoleClient interface {
	AddMemberRole(ctx context.Context, guildID, userID, roleID string) error
	RemoveMemberRole(ctx context.Context, guildID, userID, roleID string) error
	MemberRoles(ctx context.Context, guildID, userID string) ([]string, error)
}

// Discord's Unknown Member code: the user left the guild.
const discordUnknownMember = 10007

// RoleStats says what one sync or reconcile of a guild did.
type RoleStats struct {
	Checked  int // members read (reconcile only)
	Added    int
	Removed  int
	Skipped  int // changes not made because of a recorded problem
	Problems int // problems newly recorded
	Absent   int // members no longer in the guild
}

// roleSyncer applies role changes of one guild.
type roleSyncer struct {
	svc    *ladder.Service
	dc     RoleClient
	report func(ctx context.Context, p ladder.RoleProblem)
	plan   ladder.RolePlan
	stats  RoleStats
}

// discordCode returns the JSON error code of a failed Discord call, 0 for
// any other error.
func discordCode(err error) int {
	var ce interface{ DiscordCode() int }
	if errors.As(err, &ce) {
		return ce.DiscordCode()
	}
	return 0
}

// call makes one role call. It answers done=false when the role has a
// problem (recorded now or before); a transient error is returned. Taking
// a deleted role (10011) is done: nobody holds it.
func (r *roleSyncer) call(ctx context.Context, userID, role string, add bool) (done, absent bool, err error) {
	if code := r.plan.Blocked(role); code != 0 {
		if !add && code == ladder.DiscordUnknownRole {
			return true, false, nil
		}
		r.stats.Skipped++
		return false, false, nil
	}
	if add {
		err = r.dc.AddMemberRole(ctx, r.plan.GuildID, userID, role)
	} else {
		err = r.dc.RemoveMemberRole(ctx, r.plan.GuildID, userID, role)
	}
	switch code := discordCode(err); {
	case err == nil:
		if add {
			r.stats.Added++
		} else {
			r.stats.Removed++
		}
		return true, false, nil
	case code == discordUnknownMember:
		r.stats.Absent++
		return true, true, nil
	case code == ladder.DiscordUnknownRole && !add:
		return true, false, nil
	case code == ladder.DiscordUnknownRole || code == ladder.DiscordMissingPermissions:
		p := ladder.RoleProblem{GuildID: r.plan.GuildID, RoleID: role, Code: code, At: r.svc.Now()}
		fresh, err := r.svc.RoleFailed(ctx, r.plan.GuildID, role, code)
		if err != nil {
			return false, false, err
		}
		r.plan.Problems = append(r.plan.Problems, p)
		r.stats.Skipped++
		if fresh {
			r.stats.Problems++
			r.report(ctx, p)
		}
		return false, false, nil
	default:
		verb := "remove"
		if add {
			verb = "add"
		}
		return false, false, fmt.Errorf("jobs: %s role %s of %s in guild %s: %w", verb, role, userID, r.plan.GuildID, err)
	}
}

// apply makes one player's change, from held (the mapped roles they hold
// as far as the syncer knows), and records what they then hold: the roles
// given and not taken, so a role blocked by a problem is neither asked for
// again (it is skipped until the mapping changes) nor forgotten. A
// departed member counts as done: the reconcile job fixes them when they
// come back.
func (r *roleSyncer) apply(ctx context.Context, c ladder.RoleChange, held []string) error {
	now := slices.DeleteFunc(slices.Clone(held), func(role string) bool { return !r.plan.Mapping.Maps(role) })
	for _, step := range []struct {
		roles []string
		add   bool
	}{{c.Remove, false}, {c.Add, true}} {
		for _, role := range step.roles {
			done, absent, err := r.call(ctx, c.UserID, role, step.add)
			switch {
			case err != nil:
				return err
			case absent:
				return r.record(ctx, c.UserID, c.Want)
			case done && step.add:
				now = append(now, role)
			case done:
				now = slices.DeleteFunc(now, func(h string) bool { return h == role })
			}
		}
	}
	return r.record(ctx, c.UserID, now)
}

// record stores the mapped roles a player holds, unless already stored.
func (r *roleSyncer) record(ctx context.Context, userID string, roles []string) error {
	roles = slices.Compact(slices.Sorted(slices.Values(roles)))
	if slices.Equal(roles, r.plan.Applied[userID]) {
		return nil
	}
	if err := r.svc.RoleApplied(ctx, r.plan.GuildID, userID, roles); err != nil {
		return fmt.Errorf("jobs: record roles of %s: %w", userID, err)
	}
	r.plan.Applied[userID] = roles
	return nil
}

func (s *Scheduler) newRoleSyncer(ctx context.Context, guildID string) (*roleSyncer, error) {
	plan, err := s.svc.RolePlan(ctx, guildID)
	if err != nil {
		return nil, fmt.Errorf("jobs: role plan of guild %s: %w", guildID, err)
	}
	return &roleSyncer{svc: s.svc, dc: s.opt.Roles, plan: plan, report: func(ctx context.Context, p ladder.RoleProblem) {
		g, err := s.svc.Guild(ctx, guildID)
		if err != nil || g.LogChannelID == "" {
			return
		}
		s.post(ctx, guildID, g.LogChannelID, commands.RoleProblem(p))
	}}, nil
}

// SyncRoles gives and takes one guild's division and badge roles so that
// every player holds the roles the standings and last season's badges say,
// diffing against the applied state: it makes no request for a player
// whose roles have not changed.
func (s *Scheduler) SyncRoles(ctx context.Context, guildID string) (RoleStats, error) {
	if s.opt.Roles == nil {
		return RoleStats{}, nil
	}
	r, err := s.newRoleSyncer(ctx, guildID)
	if err != nil || r.plan.Mapping.Empty() {
		return RoleStats{}, err
	}
	for _, c := range r.plan.Changes() {
		if err := r.apply(ctx, c, r.plan.Applied[c.UserID]); err != nil {
			return r.stats, err
		}
	}
	return r.stats, nil
}

// ReconcileRoles reads the actual roles of every player the guild's roles
// concern (desired or applied) and repairs any difference, then records
// the applied state. Members who left are skipped.
func (s *Scheduler) ReconcileRoles(ctx context.Context, guildID string) (RoleStats, error) {
	if s.opt.Roles == nil {
		return RoleStats{}, nil
	}
	r, err := s.newRoleSyncer(ctx, guildID)
	if err != nil || r.plan.Mapping.Empty() {
		return RoleStats{}, err
	}
	users := make([]string, 0, len(r.plan.Desired)+len(r.plan.Applied))
	for u := range r.plan.Desired {
		users = append(users, u)
	}
	for u := range r.plan.Applied {
		if _, ok := r.plan.Desired[u]; !ok {
			users = append(users, u)
		}
	}
	slices.Sort(users)
	for _, u := range users {
		held, err := s.opt.Roles.MemberRoles(ctx, guildID, u)
		if discordCode(err) == discordUnknownMember {
			r.stats.Absent++
			continue
		}
		if err != nil {
			return r.stats, fmt.Errorf("jobs: read member %s of guild %s: %w", u, guildID, err)
		}
		r.stats.Checked++
		cs := ladder.RoleChanges(r.plan.Mapping, map[string][]string{u: r.plan.Desired[u]}, map[string][]string{u: held})
		c := ladder.RoleChange{UserID: u, Want: r.plan.Desired[u]}
		if len(cs) > 0 {
			c = cs[0]
		}
		if err := r.apply(ctx, c, held); err != nil {
			return r.stats, err
		}
	}
	return r.stats, nil
}

// roles is JobRoles: SyncRoles for every guild with a mapping.
func (s *Scheduler) roles(ctx context.Context, _ time.Time) error {
	return s.eachRoleGuild(ctx, s.SyncRoles)
}

// reconcileRoles is JobRoleReconcile.
func (s *Scheduler) reconcileRoles(ctx context.Context, _ time.Time) error {
	return s.eachRoleGuild(ctx, s.ReconcileRoles)
}

func (s *Scheduler) eachRoleGuild(ctx context.Context, f func(context.Context, string) (RoleStats, error)) error {
	if s.opt.Roles == nil {
		return nil
	}
	ids, err := s.svc.RoleGuilds(ctx)
	if err != nil {
		return fmt.Errorf("jobs: role guilds: %w", err)
	}
	var errs []error
	for _, id := range ids {
		if _, err := f(ctx, id); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// everyJob is def when interval is 0 or def's own interval dflt; any other
// interval runs def's work "@every" interval, the start of the interval
// naming the claimed period, so a process started after a missed interval
// catches it up at once and replicas run each interval once.
func everyJob(def job, dflt, interval time.Duration) job {
	if interval <= 0 || interval == dflt {
		return def
	}
	def.spec = "@every " + interval.String()
	def.period = func(t time.Time) string { return t.UTC().Truncate(interval).Format(time.RFC3339Nano) }
	return def
}

// reconcileDay names the daily reconcile's period by the 03:30 UTC run it
// stands for: before 03:30 that is yesterday's. A process started at 01:00
// after running yesterday's reconcile does not run it again until 03:30,
// and one down over 03:30 runs the missed reconcile at start-up.
func reconcileDay(t time.Time) string { return day(t.Add(-3*time.Hour - 30*time.Minute)) }
