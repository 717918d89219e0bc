package jobs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
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

// roleLease is how long a guild's role worker holds its lease without
// renewing it; it renews every roleRenew while it works, so only a worker
// that died leaves the lease to run out.
const (
	roleLease = 2 * time.Minute
	roleRenew = 30 * time.Second
)

// SyncRoles gives and takes one guild's division and badge roles so that
// every player holds the roles the standings and last season's badges say.
// It plans the wanted roles (ladder.Service.PlanRoles) and applies those
// of pending players only: it makes no request for a player whose wanted
// roles have not changed. While another worker holds the guild (a
// reconcile, a sync in another process) it applies nothing: that worker
// reads each player's wanted roles afresh, and what it has passed stays
// pending for the next sync.
func (s *Scheduler) SyncRoles(ctx context.Context, guildID string) (RoleStats, error) {
	return s.workRoles(ctx, guildID, false)
}

// ReconcileRoles reads the actual roles of every player the guild's roles
// concern (wanted or applied) and repairs any difference: a role taken or
// given by hand, a member who came back. It waits its turn behind another
// worker of the guild. Members who left are skipped.
func (s *Scheduler) ReconcileRoles(ctx context.Context, guildID string) (RoleStats, error) {
	return s.workRoles(ctx, guildID, true)
}

// workRoles is the one ordered path of a guild's role changes: plan, take
// the guild's lease, then for each player (pending ones, or everyone) read
// the member's roles from Discord, then the wanted row afresh, apply the
// difference and record the version applied. Reading the wanted row after
// Discord, under the lease, means a change planned meanwhile is either
// applied now or left pending, never undone from an older plan.
func (s *Scheduler) workRoles(ctx context.Context, guildID string, everyone bool) (RoleStats, error) {
	if s.opt.Roles == nil {
		return RoleStats{}, nil
	}
	plan, err := s.svc.PlanRoles(ctx, guildID)
	if err != nil || plan.Mapping.Empty() {
		return RoleStats{}, err
	}
	var users []string
	for u, w := range plan.Wants {
		if everyone || w.Pending() {
			users = append(users, u)
		}
	}
	if everyone {
		for u := range plan.Applied {
			if _, ok := plan.Wants[u]; !ok {
				users = append(users, u)
			}
		}
	}
	if len(users) == 0 {
		return RoleStats{}, nil
	}
	slices.Sort(users)
	lease, ok, err := s.leaseRoles(ctx, guildID, everyone)
	if err != nil || !ok {
		return RoleStats{}, err
	}
	defer lease.release()
	r := &roleSyncer{svc: s.svc, dc: s.opt.Roles, plan: plan, report: func(ctx context.Context, p ladder.RoleProblem) {
		g, err := s.svc.Guild(ctx, guildID)
		if err != nil || g.LogChannelID == "" {
			return
		}
		s.post(ctx, guildID, g.LogChannelID, commands.RoleProblem(commands.GuildLang(g), p))
	}}
	for _, u := range users {
		if err := lease.renew(ctx); err != nil {
			return r.stats, err
		}
		if err := r.work(ctx, u, everyone); err != nil {
			return r.stats, err
		}
	}
	return r.stats, nil
}

// work brings one member's mapped roles to their wanted row.
func (r *roleSyncer) work(ctx context.Context, u string, reading bool) error {
	held, err := r.dc.MemberRoles(ctx, r.plan.GuildID, u)
	if discordCode(err) == discordUnknownMember {
		// Gone: the reconcile gives them their roles if they come back.
		r.stats.Absent++
		w, err := r.svc.RoleWant(ctx, r.plan.GuildID, u)
		if err != nil {
			return err
		}
		return r.svc.MarkRoleApplied(ctx, r.plan.GuildID, u, w.Version)
	}
	if err != nil {
		return fmt.Errorf("jobs: read member %s of guild %s: %w", u, r.plan.GuildID, err)
	}
	if reading {
		r.stats.Checked++
	}
	w, err := r.svc.RoleWant(ctx, r.plan.GuildID, u)
	if err != nil {
		return err
	}
	c := ladder.RoleChange{UserID: u, Want: w.Roles}
	if cs := ladder.RoleChanges(r.plan.Mapping, map[string][]string{u: w.Roles}, map[string][]string{u: held}); len(cs) > 0 {
		c = cs[0]
	}
	if err := r.apply(ctx, c, held); err != nil {
		return err
	}
	return r.svc.MarkRoleApplied(ctx, r.plan.GuildID, u, w.Version)
}

// roleLeaseHolder is one worker's hold on a guild's role changes.
type roleLeaseHolder struct {
	svc     *ladder.Service
	guildID string
	holder  string
	renewed time.Time
}

// leaseRoles takes the guild's lease. A sync gives up at once when another
// worker holds it; a reconcile (wait) tries again until the lease is free
// or ctx ends.
func (s *Scheduler) leaseRoles(ctx context.Context, guildID string, wait bool) (*roleLeaseHolder, bool, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, false, err
	}
	l := &roleLeaseHolder{svc: s.svc, guildID: guildID, holder: hex.EncodeToString(b[:])}
	delay := 50 * time.Millisecond
	for {
		ok, err := s.svc.ClaimRoleWorker(ctx, guildID, l.holder, roleLease)
		if err != nil || ok || !wait {
			l.renewed = time.Now()
			return l, ok, err
		}
		select {
		case <-ctx.Done():
			return nil, false, ctx.Err()
		case <-time.After(delay):
		}
		delay = min(2*delay, 2*time.Second)
	}
}

// renew extends the lease once roleRenew has passed since it was taken or
// last renewed; losing it (a stall past the lease) stops the worker.
func (l *roleLeaseHolder) renew(ctx context.Context) error {
	if time.Since(l.renewed) < roleRenew {
		return nil
	}
	ok, err := l.svc.ClaimRoleWorker(ctx, l.guildID, l.holder, roleLease)
	switch {
	case err != nil:
		return err
	case !ok:
		return fmt.Errorf("jobs: the role worker of guild %s lost its lease", l.guildID)
	}
	l.renewed = time.Now()
	return nil
}

// release gives the lease up, even when the work's context has ended.
func (l *roleLeaseHolder) release() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	l.svc.ReleaseRoleWorker(ctx, l.guildID, l.holder)
}

// roles is JobRoles: SyncRoles for every guild with a mapping whose plan
// may have changed since the last sync or that has roles still to apply
// (Service.DueRoleGuilds); a guild where nothing changed costs nothing, so
// a pass costs in proportion to the guilds with work.
func (s *Scheduler) roles(ctx context.Context, _ time.Time) error {
	return s.eachRoleGuild(ctx, s.svc.DueRoleGuilds, s.SyncRoles)
}

// reconcileRoles is JobRoleReconcile: every guild with a mapping.
func (s *Scheduler) reconcileRoles(ctx context.Context, _ time.Time) error {
	return s.eachRoleGuild(ctx, s.svc.RoleGuilds, s.ReconcileRoles)
}

func (s *Scheduler) eachRoleGuild(ctx context.Context, guilds func(context.Context) ([]string, error), f func(context.Context, string) (RoleStats, error)) error {
	if s.opt.Roles == nil {
		return nil
	}
	ids, err := guilds(ctx)
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
