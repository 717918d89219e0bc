package storage_test

import (
	"sync"
	"testing"

	"github.com/ladderbot/ladderbot/ladder"
)

func TestDivisionRoleStore(t *testing.T) {
	suite(t, map[string]func(t *testing.T, b string){
		"mapping, applied state, problems recorded once under a race": func(t *testing.T, b string) {
			e := newEnv(t, b)
			if _, err := e.svc.SetDivisionRoles(e.ctx, guild, map[string]string{"gold": "500000000000000003", "Bronze": "500000000000000001"}); err != nil {
				t.Fatalf("SetDivisionRoles() = %v", err)
			}
			if ids, err := e.db.RoleGuilds(e.ctx); err != nil || len(ids) != 1 || ids[0] != guild {
				t.Errorf("Got(RoleGuilds) = %v, %v", ids, err)
			}
			var wg sync.WaitGroup
			fresh := make(chan bool, 8)
			for range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					ok, err := e.svc.RoleFailed(e.ctx, guild, "500000000000000003", ladder.DiscordUnknownRole)
					if err != nil {
						t.Errorf("RoleFailed() = %v", err)
					}
					fresh <- ok
				}()
			}
			wg.Wait()
			close(fresh)
			n := 0
			for ok := range fresh {
				if ok {
					n++
				}
			}
			if n != 1 {
				t.Errorf("Got(new problems of 8 racing reports) = %d, want 1", n)
			}
			for _, r := range []string{"500000000000000003", ""} {
				if err := e.svc.RoleApplied(e.ctx, guild, user(1), "500000000000000001"); err != nil {
					t.Fatal(err)
				}
				if err := e.svc.RoleApplied(e.ctx, guild, user(1), r); err != nil {
					t.Fatal(err)
				}
				got, err := e.db.AppliedRoles(e.ctx, guild)
				if err != nil || got[user(1)] != r {
					t.Errorf("Got(AppliedRoles after %q) = %v, %v", r, got, err)
				}
			}
			// A new mapping forgets the problems of the old one.
			if _, err := e.svc.SetDivisionRoles(e.ctx, guild, map[string]string{"Gold": "500000000000000004"}); err != nil {
				t.Fatal(err)
			}
			rc, err := e.svc.DivisionRoleConfig(e.ctx, guild)
			if err != nil || len(rc.Problems) != 0 || len(rc.Mapping) != 2 || rc.Mapping["Gold"] != "500000000000000004" {
				t.Errorf("Got(DivisionRoleConfig after remap) = %+v, %v", rc, err)
			}
		},
	})
}
