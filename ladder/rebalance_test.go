package ladder_test

import (
	"fmt"
	"testing"

	"github.com/ladderbot/ladderbot/ladder"
)

func setRatings(t *testing.T, e *env, rs map[string]float64) {
	t.Helper()
	for u, r := range rs {
		if _, err := e.svc.SetRating(e.ctx, ladder.System, guild, "", u, r, 60, "test"); err != nil {
			t.Fatalf("SetRating(%s) = %v", u, err)
		}
	}
}

func TestRebalanceMatch(t *testing.T) {
	behaviours(t, []behaviour{
		{"preview, refuse, apply", func(t *testing.T, e *env) {
			a, b, c, d := users[0], users[1], users[2], users[3]
			// team 1 holds the two strongest: gap (1900+1800) − (1500+1400) = 800
			setRatings(t, e, map[string]float64{a: 1900, b: 1800, c: 1500, d: 1400})
			m := open2v2(t, e, a, b, c, d)
			mod := ladder.Actor{UserID: users[5], Moderator: true}
			prev, err := e.svc.RebalanceMatch(e.ctx, ladder.Actor{UserID: users[4]}, guild, m.ID, false)
			if err != nil || prev.Applied || prev.GapBefore != 800 || prev.GapAfter != 0 || len(prev.Moves) != 2 {
				t.Fatalf("RebalanceMatch(preview) = %+v, %v, want gap 800 → 0 by two moves, not applied", prev, err)
			}
			if _, err := e.svc.RebalanceMatch(e.ctx, ladder.Actor{UserID: users[4]}, guild, m.ID, true); ladder.ErrorCode(err) != ladder.CodeForbidden {
				t.Errorf("RebalanceMatch(member apply) = %v, want forbidden", err)
			}
			if _, err := e.svc.RebalanceMatch(e.ctx, mod, "100000000000000099", m.ID, true); ladder.ErrorCode(err) != ladder.CodeNotFound {
				t.Errorf("RebalanceMatch(other guild) = %v, want not found", err)
			}
			if got := must(e.svc.Match(e.ctx, guild, m.ID)); fmt.Sprint(got.Teams) != fmt.Sprint(m.Teams) {
				t.Fatalf("Got(teams after refusals) = %v, want unchanged %v", got.Teams, m.Teams)
			}
			rb, err := e.svc.RebalanceMatch(e.ctx, mod, guild, m.ID, true)
			if err != nil || !rb.Applied {
				t.Fatalf("RebalanceMatch(apply) = %+v, %v, want applied", rb, err)
			}
			got := must(e.svc.Match(e.ctx, guild, m.ID))
			sums := [2]float64{}
			ratings := map[string]float64{a: 1900, b: 1800, c: 1500, d: 1400}
			for tm := range 2 {
				if len(got.Teams[tm]) != 2 {
					t.Fatalf("Got(teams) = %v, want 2v2", got.Teams)
				}
				for _, u := range got.Teams[tm] {
					sums[tm] += ratings[u]
				}
			}
			if sums[0] != sums[1] || got.Team(a) == got.Team(b) {
				t.Errorf("Got(stored teams) = %v, sums %v, want a and b apart and equal sums", got.Teams, sums)
			}
			if !(got.PTeam1 > 0.45 && got.PTeam1 < 0.55) || got.PTeam1 == m.PTeam1 {
				t.Errorf("Got(P(team 1)) = %v (was %v), want near 0.5 after the rebalance", got.PTeam1, m.PTeam1)
			}
			// once balanced nothing moves; the match plays on the new teams
			again, err := e.svc.RebalanceMatch(e.ctx, mod, guild, m.ID, true)
			if err != nil || again.Applied || len(again.Moves) != 0 {
				t.Errorf("RebalanceMatch(balanced) = %+v, %v, want no moves", again, err)
			}
			winner := got.Teams[0][0]
			if _, err := e.svc.Report(e.ctx, ladder.Actor{UserID: winner}, guild, m.ID, ladder.Win); err != nil {
				t.Fatal(err)
			}
			if _, err := e.svc.RebalanceMatch(e.ctx, mod, guild, m.ID, false); ladder.ErrorCode(err) != ladder.CodeConflict {
				t.Errorf("RebalanceMatch(reported) = %v, want conflict", err)
			}
			c2, err := e.svc.Confirm(e.ctx, ladder.Actor{UserID: got.Teams[1][0]}, guild, m.ID)
			if err != nil || c2.Match.Winner != 1 {
				t.Fatalf("Confirm() = %+v, %v", c2, err)
			}
			for _, ch := range c2.Changes {
				gained := ch.Delta > 0
				if ch.Team != got.Team(ch.UserID) || gained != (ch.Team == 1) {
					t.Errorf("Got(change of %s) = team %d, delta %v, want the rebalanced team and a gain for team 1", ch.UserID, ch.Team, ch.Delta)
				}
			}
			mustVerify(t, e)
		}},
	})
}
