package jobs_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/jobs"
)

// roleCalls lists the member-role changes made for u since the mark-th
// request, as "DELETE role" and "PUT role" (429s left out).
func (e *roleEnv) roleCalls(u string, mark int) []string {
	var out []string
	for _, r := range e.fake.Requests()[mark:] {
		if (r.Method == "PUT" || r.Method == "DELETE") && r.Status == 204 && strings.Contains(r.Path, "/members/"+u+"/roles/") {
			out = append(out, r.Method+" "+r.Path[strings.LastIndex(r.Path, "/")+1:])
		}
	}
	return out
}

// reconcileHeld starts a reconcile that stops at the request h holds, and
// returns once it is stopped there, with the channel its result comes on.
func (e *roleEnv) reconcileHeld(t *testing.T, h *fakediscord.Hold) <-chan error {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		_, err := e.sched.ReconcileRoles(context.Background(), guild)
		done <- err
	}()
	select {
	case <-h.Reached():
	case err := <-done:
		t.Fatalf("ReconcileRoles() = %v before reaching the held request", err)
	case <-time.After(30 * time.Second):
		t.Fatal("the reconcile never reached the held request")
	}
	return done
}

// TestRoleMovesOrdered runs the periodic sync and the reconcile against
// each other through the real bot's discordgo session. A rating move costs
// exactly one DELETE and one PUT on Discord even when the reconcile is in
// the middle of the same member when the sync runs; and a reconcile that
// started before a move (its reading of the member held by the fake) does
// not take the new role back from what it planned before.
func TestRoleMovesOrdered(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		e := newRoleEnv(t, b)
		u, v := user(1), user(2)
		for _, x := range []string{u, v} {
			e.fake.AddMember(guild, x)
		}
		e.set(t, u, 1300) // Bronze
		e.set(t, v, 1600) // Gold
		e.sync(t)
		bronze, gold, diamond := e.roles["Bronze"], e.roles["Gold"], e.roles["Diamond"]

		// A move, then a reconcile stopped on its removal of the old role
		// while the sync runs: one removal and one grant in all.
		mark := len(e.fake.Requests())
		e.set(t, u, 1900) // Diamond
		h := e.fake.HoldNext("DELETE", "/members/"+u+"/roles/")
		done := e.reconcileHeld(t, h)
		e.sync(t)
		h.Release()
		if err := <-done; err != nil {
			t.Fatalf("ReconcileRoles() = %v", err)
		}
		e.sync(t)
		if _, err := e.sched.ReconcileRoles(context.Background(), guild); err != nil {
			t.Fatalf("ReconcileRoles() = %v", err)
		}
		if got, want := e.roleCalls(u, mark), []string{"DELETE " + bronze, "PUT " + diamond}; !slices.Equal(got, want) {
			t.Errorf("Got(role calls of one move) = %v, want %v", got, want)
		}
		if got, _ := e.fake.MemberRoles(guild, u); !slices.Equal(got, []string{diamond}) {
			t.Errorf("Got(roles after the move) = %v, want Diamond %s", got, diamond)
		}

		// A reconcile that read its plan before a move, stopped on reading
		// the member; the move and a sync happen meanwhile.
		mark = len(e.fake.Requests())
		h = e.fake.HoldNext("GET", "/members/"+u)
		done = e.reconcileHeld(t, h)
		e.set(t, u, 1300) // back to Bronze
		e.sync(t)
		h.Release()
		if err := <-done; err != nil {
			t.Fatalf("ReconcileRoles() = %v", err)
		}
		e.sync(t)
		if got, _ := e.fake.MemberRoles(guild, u); !slices.Equal(got, []string{bronze}) {
			t.Errorf("Got(roles after a move during a reconcile) = %v, want Bronze %s: the move undone", got, bronze)
		}
		if got, want := e.roleCalls(u, mark), []string{"DELETE " + diamond, "PUT " + bronze}; !slices.Equal(got, want) {
			t.Errorf("Got(role calls of a move during a reconcile) = %v, want %v", got, want)
		}
		if got, _ := e.fake.MemberRoles(guild, v); !slices.Equal(got, []string{gold}) {
			t.Errorf("Got(roles of the player who did not move) = %v, want Gold", got)
		}
		if n := len(e.roleCalls(v, 0)); n != 1 {
			t.Errorf("Got(role calls of the player who did not move) = %d, want 1 (the first grant)", n)
		}
	})
}

// TestRoleWantsCompareAndSet: two planners that read the same version of a
// player's wanted roles cannot both write; the loser reads again.
func TestRoleWantsCompareAndSet(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		e := newRoleEnv(t, b)
		u := user(1)
		e.fake.AddMember(guild, u)
		e.set(t, u, 1300)
		p, err := e.svc.PlanRoles(ctx, guild)
		if err != nil {
			t.Fatalf("PlanRoles() = %v", err)
		}
		w := p.Wants[u]
		if w.Version != 1 || !slices.Equal(w.Roles, []string{e.roles["Bronze"]}) || !w.Pending() {
			t.Fatalf("Got(want after the first plan) = %+v, want Bronze, version 1, pending", w)
		}
		first, err := e.db.SetRoleWant(ctx, w, 1)
		if err != nil || !first {
			t.Fatalf("SetRoleWant(from 1) = %v, %v, want true", first, err)
		}
		stale := w
		stale.Roles = []string{e.roles["Gold"]}
		if ok, err := e.db.SetRoleWant(ctx, stale, 1); err != nil || ok {
			t.Errorf("SetRoleWant(from 1 again) = %v, %v, want false: version 1 is gone", ok, err)
		}
		if ok, err := e.db.SetRoleWant(ctx, stale, 0); err != nil || ok {
			t.Errorf("SetRoleWant(as new) = %v, %v, want false: the row exists", ok, err)
		}
		got, err := e.svc.RoleWant(ctx, guild, u)
		if err != nil || got.Version != 2 || !slices.Equal(got.Roles, []string{e.roles["Bronze"]}) {
			t.Errorf("Got(RoleWant) = %+v, %v, want Bronze at version 2", got, err)
		}
		// The worker records what it applied; a later plan with nothing
		// changed leaves the row as it is.
		if st := e.sync(t); st.Added != 1 {
			t.Errorf("Got(sync) = %+v, want 1 added", st)
		}
		if got, _ := e.svc.RoleWant(ctx, guild, u); got.Pending() || got.Version != 2 {
			t.Errorf("Got(RoleWant after the sync) = %+v, want version 2 applied", got)
		}
		if st := e.sync(t); st != (jobs.RoleStats{}) {
			t.Errorf("Got(second sync) = %+v, want nothing", st)
		}
	})
}
