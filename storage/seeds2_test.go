package storage_test

import (
	"testing"

	"github.com/ladderbot/ladderbot/ladder"
)

func TestShowdownLinksAndPartyRating(t *testing.T) {
	suite(t, map[string]func(t *testing.T, b string){
		"showdown links replace and read back": func(t *testing.T, b string) {
			e := newEnv(t, b)
			if _, err := e.svc.ShowdownName(e.ctx, guild, user(1)); ladder.ErrorCode(err) != ladder.CodeNotFound {
				t.Errorf("Got(ShowdownName unlinked) = %v, want not found", err)
			}
			for _, n := range []string{"Ash K.", "Ash Ketchum"} {
				if err := e.svc.LinkShowdown(e.ctx, guild, user(1), n); err != nil {
					t.Fatalf("LinkShowdown(%q) = %v", n, err)
				}
			}
			if err := e.svc.LinkShowdown(e.ctx, guild, user(2), "Misty"); err != nil {
				t.Fatal(err)
			}
			got, err := e.db.ShowdownNames(e.ctx, guild, []string{user(1), user(2), user(3)})
			if err != nil || len(got) != 2 || got[user(1)] != "Ash Ketchum" || got[user(2)] != "Misty" {
				t.Errorf("Got(ShowdownNames) = %v, %v, want Ash Ketchum and Misty", got, err)
			}
			if err := e.svc.LinkShowdown(e.ctx, guild, user(3), "!!!"); ladder.ErrorCode(err) != ladder.CodeInvalid {
				t.Errorf("Got(LinkShowdown(!!!)) = %v, want invalid", err)
			}
		},
		"party rating settings default off and round-trip": func(t *testing.T, b string) {
			e := newEnv(t, b)
			qs, err := e.svc.Queues(e.ctx, guild)
			if err != nil || len(qs) == 0 {
				t.Fatalf("Queues() = %v, %v", qs, err)
			}
			q := qs[0]
			if s := q.Matchmaking(); s.PartyOn() || s.OrdinalDeviations != 3 {
				t.Errorf("Got(default party rating) = on %v, d %g, want off, 3", s.PartyOn(), s.OrdinalDeviations)
			}
			q.PartyMaxWeight, q.PartyMedianWeight, q.OrdinalDeviations = 2, 1, 2.5
			if _, err := e.svc.UpdateQueue(e.ctx, ladder.System, q); err != nil {
				t.Fatal(err)
			}
			l, _, err := e.db.LockLadder(e.ctx, guild, q.Name, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := l.Queue; got.PartyMaxWeight != 2 || got.PartyMedianWeight != 1 || got.OrdinalDeviations != 2.5 {
				t.Errorf("Got(ladder queue party rating) = %g, %g, %g, want 2, 1, 2.5", got.PartyMaxWeight, got.PartyMedianWeight, got.OrdinalDeviations)
			}
			q.PartyMaxWeight = 11
			if _, err := e.svc.UpdateQueue(e.ctx, ladder.System, q); ladder.ErrorCode(err) != ladder.CodeInvalid {
				t.Errorf("Got(UpdateQueue(weight 11)) = %v, want invalid", err)
			}
		},
	})
}
