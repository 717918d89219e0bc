package storage_test

import (
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

// TestWritePaths rates one match by each path that writes a rated result
// (they share one write, Store.InRatedTx or Tx.SaveRated) and checks, after
// each, that a retry answers AlreadyDone and that the stored ratings equal
// the replay of the log (Verify finds no difference).
func TestWritePaths(t *testing.T) {
	mod := ladder.Actor{UserID: user(99), Moderator: true}
	suite(t, map[string]func(t *testing.T, b string){
		"every path then verify": func(t *testing.T, b string) {
			e := newEnv(t, b)
			verify := func(t *testing.T) {
				t.Helper()
				rep, err := e.svc.Verify(e.ctx, guild)
				if err != nil {
					t.Fatalf("Verify() = %v", err)
				}
				if len(rep.Diffs) > 0 {
					t.Fatalf("Verify() diffs = %+v, want none", rep.Diffs)
				}
			}
			t.Run("api", func(t *testing.T) {
				in := result([]string{user(0), user(1)}, []string{user(2), user(3)}, 1)
				in.IdempotencyKey = "k1"
				first, err := e.svc.RecordResult(e.ctx, in)
				if err != nil || first.AlreadyDone || first.Match.ID == 0 || first.Match.Seq == 0 {
					t.Fatalf("RecordResult() = %+v, %v, want a new rated match", first.Match, err)
				}
				again, err := e.svc.RecordResult(e.ctx, in)
				if err != nil || !again.AlreadyDone || again.Match.ID != first.Match.ID {
					t.Fatalf("RecordResult(retry) = %+v (done %v), %v, want match %d AlreadyDone", again.Match, again.AlreadyDone, err, first.Match.ID)
				}
				verify(t)
			})
			t.Run("confirm", func(t *testing.T) {
				m := open2v2(t, e, user(0), user(2), user(1), user(3))
				if _, err := e.svc.Report(e.ctx, ladder.Actor{UserID: user(0)}, guild, m.ID, ladder.Win); err != nil {
					t.Fatalf("Report() = %v", err)
				}
				res, err := e.svc.Confirm(e.ctx, ladder.Actor{UserID: user(1)}, guild, m.ID)
				if err != nil || res.AlreadyDone || res.Match.State != ladder.StateConfirmed || res.Match.Seq == 0 || len(res.Changes) != 4 {
					t.Fatalf("Confirm() = %+v, %v, want confirmed and rated", res.Match, err)
				}
				again, err := e.svc.Confirm(e.ctx, ladder.Actor{UserID: user(1)}, guild, m.ID)
				if err != nil || !again.AlreadyDone {
					t.Fatalf("Confirm(again) = AlreadyDone %v, %v, want AlreadyDone", again.AlreadyDone, err)
				}
				verify(t)
			})
			t.Run("report both sides", func(t *testing.T) {
				m := open2v2(t, e, user(0), user(3), user(1), user(2))
				if _, err := e.svc.Report(e.ctx, ladder.Actor{UserID: user(0)}, guild, m.ID, ladder.Loss); err != nil {
					t.Fatalf("Report() = %v", err)
				}
				res, err := e.svc.Report(e.ctx, ladder.Actor{UserID: user(1)}, guild, m.ID, ladder.Win)
				if err != nil || res.Match.State != ladder.StateConfirmed || res.Match.Seq == 0 {
					t.Fatalf("Report(other side) = %+v, %v, want confirmed", res.Match, err)
				}
				verify(t)
			})
			t.Run("auto-confirm", func(t *testing.T) {
				m := open2v2(t, e, user(4), user(5), user(6), user(7))
				if _, err := e.svc.Report(e.ctx, ladder.Actor{UserID: user(4)}, guild, m.ID, ladder.Win); err != nil {
					t.Fatalf("Report() = %v", err)
				}
				e.clock.Add(time.Hour)
				got, err := e.svc.ConfirmExpired(e.ctx)
				if err != nil || len(got) != 1 || got[0].Match.ID != m.ID || got[0].Match.Seq == 0 {
					t.Fatalf("ConfirmExpired() = %d results, %v, want match %d rated", len(got), err, m.ID)
				}
				if again, err := e.svc.ConfirmExpired(e.ctx); err != nil || len(again) != 0 {
					t.Fatalf("ConfirmExpired(again) = %d results, %v, want none", len(again), err)
				}
				verify(t)
			})
			t.Run("resolve", func(t *testing.T) {
				m := open2v2(t, e, user(4), user(6), user(5), user(7))
				if _, err := e.svc.Dispute(e.ctx, ladder.Actor{UserID: user(4)}, guild, m.ID, "no show", ""); err != nil {
					t.Fatalf("Dispute() = %v", err)
				}
				c, err := e.svc.Resolve(e.ctx, mod, guild, m.ID, 2, "seen the replay")
				if err != nil || c.AlreadyDone || c.Match.State != ladder.StateResolved || c.Match.Seq == 0 {
					t.Fatalf("Resolve() = %+v, %v, want resolved and rated", c.Match, err)
				}
				again, err := e.svc.Resolve(e.ctx, mod, guild, m.ID, 2, "seen the replay")
				if err != nil || !again.AlreadyDone {
					t.Fatalf("Resolve(again) = AlreadyDone %v, %v, want AlreadyDone", again.AlreadyDone, err)
				}
				verify(t)
			})
			t.Run("import", func(t *testing.T) {
				day := time.Date(2026, 1, 4, 0, 0, 0, 0, time.UTC)
				recs := []rating.MatchRecord{
					{Date: day, Team1: []string{user(8), user(9)}, Team2: []string{user(0), user(1)}, Winner: 1},
					{Seq: 1, Date: day.Add(time.Hour), Team1: []string{user(8), user(0)}, Team2: []string{user(9), user(1)}, Winner: 0},
				}
				rep, err := e.svc.ImportMatches(e.ctx, guild, "", recs, nil)
				if err != nil || rep.Imported != 2 || rep.Skipped != 0 {
					t.Fatalf("ImportMatches() = %+v, %v, want 2 imported", rep, err)
				}
				rep, err = e.svc.ImportMatches(e.ctx, guild, "", recs, nil)
				if err != nil || rep.Imported != 0 || rep.Skipped != 2 {
					t.Fatalf("ImportMatches(again) = %+v, %v, want 2 skipped", rep, err)
				}
				verify(t)
			})
		},
	})
}
