package storage_test

import (
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/ladder"
)

// TestReasonsRefused: every service method that keeps a person's reason
// (a dispute's, a cancellation's, a series correction's) applies the one
// rule for reasons, ladder.CheckReason, whichever surface calls it: a NUL,
// an escape, a bidi override, invalid UTF-8 or an oversize reason is
// refused as invalid, and the match, its audit and its ratings are as they
// were. The surfaces check their own input too; this is the rule of the
// service they all share, so a new surface cannot forget it.
func TestReasonsRefused(t *testing.T) {
	p := []string{user(1), user(2), user(3), user(4)}
	bad := []string{"they\x00cheated", "\x1b[31mred", "fair\u202e", "bad\xff", strings.Repeat("x", ladder.MaxReason+1)}
	suite(t, map[string]func(t *testing.T, b string){
		"dispute": func(t *testing.T, b string) {
			e := newEnv(t, b)
			m := open2v2(t, e, p[0], p[1], p[2], p[3])
			if _, err := e.svc.Report(e.ctx, ladder.Actor{UserID: p[0]}, guild, m.ID, ladder.Win); err != nil {
				t.Fatal(err)
			}
			before := count(t, e.db, "audit_log")
			for _, r := range bad {
				if _, err := e.svc.Dispute(e.ctx, ladder.Actor{UserID: p[2]}, guild, m.ID, r, ""); ladder.ErrorCode(err) != ladder.CodeInvalid {
					t.Errorf("Dispute(reason %.20q) = %v, want invalid", r, err)
				}
			}
			d, err := e.svc.MatchDetail(e.ctx, guild, m.ID)
			if err != nil || d.Match.State != ladder.StateReported || count(t, e.db, "audit_log") != before {
				t.Errorf("Got(match after refused disputes) = %s, %v, want still reported and nothing audited", d.Match.State, err)
			}
			// A reason with a line break is a reason.
			if r, err := e.svc.Dispute(e.ctx, ladder.Actor{UserID: p[2]}, guild, m.ID, "they won game 1\nwe won game 2", ""); err != nil || r.Match.State != ladder.StateDisputed {
				t.Errorf("Dispute(two lines) = %+v, %v, want disputed", r.Match.State, err)
			}
		},
		"cancel": func(t *testing.T, b string) {
			e := newEnv(t, b)
			m := open2v2(t, e, p[0], p[1], p[2], p[3])
			before := count(t, e.db, "audit_log")
			for _, r := range bad {
				for _, a := range []ladder.Actor{mod, {UserID: p[0]}} {
					if _, err := e.svc.Cancel(e.ctx, a, guild, m.ID, r); ladder.ErrorCode(err) != ladder.CodeInvalid {
						t.Errorf("Cancel(by %s, reason %.20q) = %v, want invalid", a.UserID, r, err)
					}
				}
			}
			d, err := e.svc.MatchDetail(e.ctx, guild, m.ID)
			if err != nil || d.Match.State != ladder.StateOpen || count(t, e.db, "audit_log") != before {
				t.Errorf("Got(match after refused cancels) = %s, %v, want still open and nothing audited", d.Match.State, err)
			}
			if r, err := e.svc.Cancel(e.ctx, mod, guild, m.ID, "  server down  "); err != nil || r.Match.State != ladder.StateCancelled {
				t.Errorf("Cancel() = %+v, %v, want cancelled", r.Match.State, err)
			}
		},
		"correct a series": func(t *testing.T, b string) {
			e := newEnv(t, b)
			in := result(p[:2], p[2:], 1)
			in.Score = "2-1"
			r, err := e.svc.RecordResult(e.ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			before, rated := count(t, e.db, "audit_log"), profile(t, e, p[0]).Standing.Rating
			for _, reason := range bad {
				if _, err := e.svc.CorrectSeries(e.ctx, mod, guild, r.Match.ID, 2, "1-2", reason); ladder.ErrorCode(err) != ladder.CodeInvalid {
					t.Errorf("CorrectSeries(reason %.20q) = %v, want invalid", reason, err)
				}
			}
			if n, got := count(t, e.db, "audit_log"), profile(t, e, p[0]).Standing.Rating; n != before || got != rated {
				t.Errorf("Got(%d audit rows, rating %v) after refused corrections, want %d and %v", n, got, before, rated)
			}
			if _, err := e.svc.CorrectSeries(e.ctx, mod, guild, r.Match.ID, 2, "1-2", "replay checked"); err != nil {
				t.Errorf("CorrectSeries() = %v", err)
			}
			mustVerify(t, e)
		},
	})
}
