package storage_test

import (
	"slices"
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
			for _, rs := range [][]string{{"500000000000000003", "500000000000000009"}, {"500000000000000009"}, nil} {
				if err := e.svc.RoleApplied(e.ctx, guild, user(1), []string{"500000000000000001"}); err != nil {
					t.Fatal(err)
				}
				if err := e.svc.RoleApplied(e.ctx, guild, user(1), rs); err != nil {
					t.Fatal(err)
				}
				got, err := e.db.AppliedRoles(e.ctx, guild)
				if err != nil || !slices.Equal(got[user(1)], rs) {
					t.Errorf("Got(AppliedRoles after %q) = %v, %v", rs, got, err)
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

			// Badges: refused names and a role shared with a division
			// change nothing; a badge mapping alone keeps the guild listed,
			// and clearing forgets both mappings.
			for _, set := range []map[string]string{
				{"top5": "500000000000000005"},
				{"top3": "500000000000000004"}, // Gold's role
				{"top3": "not-a-role"},
			} {
				if _, err := e.svc.SetBadgeRoles(e.ctx, guild, set); ladder.ErrorCode(err) != ladder.CodeInvalid {
					t.Errorf("Got(SetBadgeRoles(%v)) error = %v, want invalid", set, err)
				}
			}
			if m, err := e.svc.SetBadgeRoles(e.ctx, guild, map[string]string{"TOP3": "500000000000000005", "top100": "500000000000000006"}); err != nil || len(m) != 2 || m["top3"] != "500000000000000005" {
				t.Fatalf("Got(SetBadgeRoles) = %v, %v, want top3 and top100", m, err)
			}
			if _, err := e.svc.SetDivisionRoles(e.ctx, guild, map[string]string{"Silver": "500000000000000006"}); ladder.ErrorCode(err) != ladder.CodeInvalid {
				t.Errorf("Got(a division on top100's role) error = %v, want invalid", err)
			}
			if _, err := e.svc.SetDivisionRoles(e.ctx, guild, map[string]string{"Gold": "", "Bronze": ""}); err != nil {
				t.Fatal(err)
			}
			if ids, err := e.db.RoleGuilds(e.ctx); err != nil || len(ids) != 1 {
				t.Errorf("Got(RoleGuilds with badges only) = %v, %v, want the guild", ids, err)
			}
			rc, err = e.svc.DivisionRoleConfig(e.ctx, guild)
			if err != nil || len(rc.Mapping) != 0 || len(rc.Badges) != 2 || rc.Badges["top100"] != "500000000000000006" {
				t.Errorf("Got(DivisionRoleConfig with badges only) = %+v, %v", rc, err)
			}
			if err := e.svc.ClearDivisionRoles(e.ctx, guild); err != nil {
				t.Fatal(err)
			}
			if ids, err := e.db.RoleGuilds(e.ctx); err != nil || len(ids) != 0 {
				t.Errorf("Got(RoleGuilds after clear) = %v, %v, want none", ids, err)
			}
		},
	})
}
