package jobs_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/jobs"
)

// TestRoleSyncOnlyDueGuilds checks that the periodic role sync looks only
// at guilds where something its plan reads changed — a rating, a result,
// the guild's divisions, the mapping, a stale flag — and that after each
// such change the job (not a direct sync) brings the roles in line.
func TestRoleSyncOnlyDueGuilds(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		e := newRoleEnv(t, b)
		users := []string{user(1), user(2), user(3), user(4)}
		for i, u := range users {
			e.fake.AddMember(guild, u)
			e.set(t, u, 1300+float64(i)*150)
		}
		due := func(when string, want bool) {
			t.Helper()
			ids, err := e.svc.DueRoleGuilds(ctx)
			if err != nil {
				t.Fatalf("%s: DueRoleGuilds() = %v", when, err)
			}
			if got := slices.Contains(ids, guild); got != want {
				t.Errorf("%s: Got(guild due) = %v (%v), want %v", when, got, ids, want)
			}
		}
		job := func(when string) {
			t.Helper()
			e.clock.Add(time.Minute)
			if ran, err := e.sched.Run(ctx, jobs.JobRoles); err != nil || !ran {
				t.Fatalf("%s: Run(roles) = %v, %v", when, ran, err)
			}
			due(when+", after the job", false)
			e.check(t, when, users)
		}
		due("new mapping", true)
		job("first sync")
		before := e.fake.RoleRequests()
		job("nothing changed")
		if n := e.fake.RoleRequests() - before; n != 0 {
			t.Errorf("Got(requests with nothing changed) = %d, want 0", n)
		}

		e.set(t, user(1), 1900)
		due("a rating set", true)
		job("a rating set")

		record(t, e.svc, user(1), user(2), user(3), user(4), 2)
		due("a result", true)
		job("a result")

		g, err := e.svc.Guild(ctx, guild)
		if err != nil {
			t.Fatalf("Guild() = %v", err)
		}
		for i := range g.Divisions {
			if g.Divisions[i].Min > 0 {
				g.Divisions[i].Min += 120
			}
		}
		if _, err := e.svc.UpdateGuild(ctx, moderator, g); err != nil {
			t.Fatalf("UpdateGuild() = %v", err)
		}
		due("divisions moved", true)
		job("divisions moved")

		if _, err := e.svc.SetDivisionRoles(ctx, guild, map[string]string{"bronze": ""}); err != nil {
			t.Fatalf("SetDivisionRoles() = %v", err)
		}
		due("a role unmapped", true)
		e.clock.Add(time.Minute)
		if _, err := e.sched.Run(ctx, jobs.JobRoles); err != nil {
			t.Fatalf("Run(roles) = %v", err)
		}
		due("a role unmapped, after the job", false)
		if _, err := e.svc.SetDivisionRoles(ctx, guild, map[string]string{"bronze": e.roles["Bronze"]}); err != nil {
			t.Fatalf("SetDivisionRoles() = %v", err)
		}
		due("the role mapped again", true)
		job("the role mapped again")

		e.clock.Add(40 * 24 * time.Hour)
		if n, err := e.svc.MarkStale(ctx, guild); err != nil || n == 0 {
			t.Fatalf("MarkStale() = %d, %v; want players flagged", n, err)
		}
		due("players flagged stale", true)
		job("players flagged stale")
		for _, u := range users {
			if got, _ := e.fake.MemberRoles(guild, u); len(got) != 0 {
				t.Errorf("Got(roles of stale %s) = %v, want none", u, got)
			}
		}
	})
}
