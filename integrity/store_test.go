package integrity_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/derived"
	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/internal/laddertest"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m, "integrity")) }

const (
	guild = "100000000000000019"
	other = "100000000000000018"
)

var moderator = ladder.Actor{UserID: "100000000000000099", Moderator: true}

func user(i int) string { return fmt.Sprintf("71000000000000%04d", i) }

type env struct {
	ctx context.Context
	db  *storage.DB
	svc *ladder.Service
	in  *integrity.Service
}

func newEnv(t *testing.T, b string) env {
	t.Helper()
	db, in := laddertest.OpenDerived(t, b, nil)
	in.Batch = 7 // several rebuild steps per log, as a long log would need
	return env{ctx: context.Background(), db: db, svc: ladder.NewService(db, nil), in: in}
}

// record rates a 2v2 result at once, as a game server would.
func (e env) record(t *testing.T, g string, t1, t2 [2]int, winner int) ladder.MatchResult {
	t.Helper()
	r, err := e.svc.RecordResult(e.ctx, ladder.ResultInput{GuildID: g, Team1: []string{user(t1[0]), user(t1[1])},
		Team2: []string{user(t2[0]), user(t2[1])}, Winner: winner, PlayedAt: time.Now().Add(-time.Hour)})
	if err != nil {
		t.Fatalf("RecordResult() = %v", err)
	}
	return r
}

// settle runs the job until no ladder is being rebuilt and checks the
// counters equal a replay.
func (e env) settle(t *testing.T, g string) {
	t.Helper()
	for range 100 {
		n, err := e.in.Rebuild(e.ctx)
		if err != nil {
			t.Fatalf("Rebuild() = %v", err)
		}
		if n == 0 {
			break
		}
	}
	e.verify(t, g)
}

// verify checks the stored counters equal a replay, no ladder pending.
func (e env) verify(t *testing.T, g string) {
	t.Helper()
	rep, err := e.in.Verify(e.ctx, g)
	if err != nil || len(rep.Diffs) > 0 || rep.Pending > 0 {
		t.Fatalf("Verify() = %+v, %v, want no differences", rep, err)
	}
}

func flagsOf(t *testing.T, e env, g string, all bool) map[string]integrity.Flag {
	t.Helper()
	fs, err := e.in.Flags(e.ctx, g, all, 100)
	if err != nil {
		t.Fatalf("Flags() = %v", err)
	}
	out := map[string]integrity.Flag{}
	for _, f := range fs {
		k := f.Kind + " " + integrity.Subject(f.Subjects)
		if _, dup := out[k]; dup {
			t.Errorf("Got(flag %s) twice", k)
		}
		out[k] = f
	}
	return out
}

// TestWinTradeFlag: twenty meetings of the same four players trading wins
// in turn raise one win-trading flag per pair of opponents, with the
// evidence, once, however many runs fold them; another guild's identical
// log is its own; a moderator dismisses one (audited), and a second
// dismissal, or one from another guild, changes nothing.
func TestWinTradeFlag(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b)
		for i := range 20 {
			e.record(t, guild, [2]int{1, 2}, [2]int{3, 4}, 1+i%2)
			if i == 9 {
				e.settle(t, guild) // half the log folded, then the rest
			}
		}
		e.record(t, other, [2]int{11, 12}, [2]int{13, 14}, 1)
		e.settle(t, guild)
		e.settle(t, other)
		fs := flagsOf(t, e, guild, true)
		pair := "win-trade " + user(1) + "," + user(3)
		f, ok := fs[pair]
		if !ok || len(fs) != 4 {
			t.Fatalf("Got(flags) = %v, want the 4 opponent pairs' win-trading", fs)
		}
		if len(f.Matches) == 0 || f.Evidence.Key == "" || f.Posted {
			t.Errorf("Got(flag) = %+v, want evidence and matches, not yet posted", f)
		}
		if of := flagsOf(t, e, other, true); len(of) != 0 {
			t.Errorf("Got(other guild's flags) = %v, want none", of)
		}
		if _, err := e.in.Dismiss(e.ctx, moderator, other, f.ID, "not theirs"); ladder.ErrorCode(err) != ladder.CodeNotFound {
			t.Errorf("Dismiss(other guild) = %v, want not found", err)
		}
		// A reason is a moderator's reason whichever surface it comes
		// from (ladder.CheckReason): no control or bidi character, valid
		// UTF-8, and at most 200 characters here; a refused one leaves
		// the flag open and the audit log as it was.
		audits := laddertest.Count(t, e.db, "audit_log")
		for _, bad := range []string{"no\x00pe", "fair\u202e", "bad\xff", "\x1b[31mred", strings.Repeat("é", 201)} {
			if _, err := e.in.Dismiss(e.ctx, moderator, guild, f.ID, bad); ladder.ErrorCode(err) != ladder.CodeInvalid {
				t.Errorf("Dismiss(reason %q) = %v, want invalid", bad, err)
			}
		}
		if _, err := e.in.Dismiss(e.ctx, ladder.Actor{UserID: user(1)}, guild, f.ID, "mine"); ladder.ErrorCode(err) != ladder.CodeForbidden {
			t.Errorf("Dismiss(by a player) = %v, want forbidden", err)
		}
		if n := laddertest.Count(t, e.db, "audit_log"); n != audits || !flagsOf(t, e, guild, false)[pair].Open() {
			t.Errorf("Got(%d audit rows, flag open = %v) after refused dismissals, want %d and open", n, flagsOf(t, e, guild, false)[pair].Open(), audits)
		}
		// Two hundred characters of any script are allowed, and a line
		// break inside is kept.
		if _, err := e.in.Dismiss(e.ctx, moderator, guild, -1, strings.Repeat("é", 200)); ladder.ErrorCode(err) != ladder.CodeInvalid {
			t.Errorf("Dismiss(flag -1) = %v, want invalid", err)
		}
		d, err := e.in.Dismiss(e.ctx, moderator, guild, f.ID, "friends testing a map")
		if err != nil || d.Open() || d.DismissReason != "friends testing a map" {
			t.Fatalf("Dismiss() = %+v, %v", d, err)
		}
		if _, err := e.in.Dismiss(e.ctx, moderator, guild, f.ID, "again"); ladder.ErrorCode(err) != ladder.CodeConflict {
			t.Errorf("Dismiss(again) = %v, want conflict", err)
		}
		audit, err := e.svc.Audit(e.ctx, guild, 5)
		if err != nil || len(audit) == 0 || audit[0].Action != "integrity.dismiss" || audit[0].ActorID != moderator.UserID {
			t.Errorf("Got(audit) = %+v, %v, want integrity.dismiss by the moderator first", audit, err)
		}
		if open := flagsOf(t, e, guild, false); len(open) != 3 {
			t.Errorf("Got(%d open flags), want 3", len(open))
		}
		// Posted once: the first claim wins, the second finds it taken.
		for i, want := range []bool{true, false} {
			if got, err := e.in.MarkPosted(e.ctx, guild, f.ID); err != nil || got != want {
				t.Errorf("MarkPosted(#%d) = %v, %v, want %v", i+1, got, err, want)
			}
		}
	})
}

// TestFlagsOfABatchKeepTheFirst: twenty meetings rated in one transaction
// (a batch of results) write their flags in one statement; the flags kept
// are exactly those of rating the meetings one by one, whose later
// meetings return the flags again: raised by the same match, with the
// same evidence.
func TestFlagsOfABatchKeepTheFirst(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b)
		var batch []ladder.ResultInput
		for i := range 20 {
			e.record(t, guild, [2]int{1, 2}, [2]int{3, 4}, 1+i%2)
			batch = append(batch, ladder.ResultInput{GuildID: other, Team1: []string{user(1), user(2)},
				Team2: []string{user(3), user(4)}, Winner: 1 + i%2, PlayedAt: time.Now().Add(-time.Hour)})
		}
		// Each guild's first result makes its ladder; the rest go together.
		if _, err := e.svc.RecordResult(e.ctx, batch[0]); err != nil {
			t.Fatalf("RecordResult() = %v", err)
		}
		if _, errs := e.svc.RecordResults(e.ctx, batch[1:]); errors.Join(errs...) != nil {
			t.Fatalf("RecordResults() = %v", errs)
		}
		e.settle(t, guild)
		e.settle(t, other)
		one, together := flagsOf(t, e, guild, true), flagsOf(t, e, other, true)
		if len(one) != 4 || len(together) != 4 {
			t.Fatalf("Got(%d flags one by one, %d in a batch), want 4 each", len(one), len(together))
		}
		// The logs are alike but for their match IDs and log positions:
		// compare each flag's place in its own log.
		first := func(g string) (id, seq int64) {
			ms, err := e.svc.Matches(e.ctx, ladder.MatchFilter{GuildID: g, Limit: 100})
			if err != nil || len(ms) != 20 {
				t.Fatalf("Matches(%s) = %d, %v", g, len(ms), err)
			}
			return ms[len(ms)-1].ID, ms[len(ms)-1].Seq
		}
		id1, seq1 := first(guild)
		id2, seq2 := first(other)
		for k, f := range one {
			g, ok := together[k]
			if !ok {
				t.Fatalf("flag %s raised one by one, not in a batch", k)
			}
			if f.Seq-seq1 != g.Seq-seq2 || f.Score != g.Score || len(f.Matches) != len(g.Matches) {
				t.Errorf("flag %s: one by one at %d (score %v, %d matches), in a batch at %d (score %v, %d matches)",
					k, f.Seq-seq1, f.Score, len(f.Matches), g.Seq-seq2, g.Score, len(g.Matches))
			}
			for i := range f.Matches {
				if i < len(g.Matches) && f.Matches[i]-id1 != g.Matches[i]-id2 {
					t.Errorf("flag %s: evidence matches %v one by one, %v in a batch", k, f.Matches, g.Matches)
					break
				}
			}
		}
	})
}

// TestCorrectionRestarts: a moderator's correction of a folded match makes
// the next scan fold the ladder again, so the counters equal the corrected
// log's replay; the flags raised stay.
func TestCorrectionRestarts(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b)
		var first ladder.MatchResult
		for i := range 14 {
			r := e.record(t, guild, [2]int{1, 2}, [2]int{3, 4}, 1)
			if i == 0 {
				first = r
			}
		}
		e.settle(t, guild)
		before := flagsOf(t, e, guild, true)
		if _, err := e.svc.Correct(e.ctx, moderator, guild, first.Match.ID, 2, "wrong button"); err != nil {
			t.Fatalf("Correct() = %v", err)
		}
		// Before the job runs, the stored counters are stale: verify
		// says the ladder waits for the job.
		rep, err := e.in.Verify(e.ctx, guild)
		if err != nil || rep.Pending != 1 || len(rep.Diffs) > 0 {
			t.Errorf("Verify(after the correction, before the job) = %+v, %v, want 1 pending", rep, err)
		}
		e.settle(t, guild) // checks Verify is clean again
		after := flagsOf(t, e, guild, true)
		if len(after) != len(before) {
			t.Errorf("Got(%d flags after the refold), want the %d raised before", len(after), len(before))
		}
		if _, err := e.svc.Void(e.ctx, moderator, guild, first.Match.ID, "never played"); err != nil {
			t.Fatalf("Void() = %v", err)
		}
		e.settle(t, guild)
	})
}

// TestVoteFlags: disputes a moderator settles as first reported, three
// times, flag the disputer; reports of the reporter's own loss that a
// moderator overturns, twice, flag the reporter. Both come from the
// lifecycle's stored report, dispute and resolution.
func TestVoteFlags(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b)
		if _, err := e.svc.EnsureGuild(e.ctx, guild); err != nil {
			t.Fatalf("EnsureGuild() = %v", err)
		}
		qs, err := e.svc.Queues(e.ctx, guild)
		if err != nil {
			t.Fatalf("Queues() = %v", err)
		}
		open := func(i int) ladder.Match {
			m, err := e.svc.CreateMatch(e.ctx, ladder.NewMatch{GuildID: guild, QueueID: qs[0].ID,
				Teams: [2][]string{{user(1), user(10 + i)}, {user(2), user(20 + i)}}})
			if err != nil {
				t.Fatalf("CreateMatch() = %v", err)
			}
			return m
		}
		for i := range 3 {
			m := open(i)
			if _, err := e.svc.Report(e.ctx, ladder.Actor{UserID: user(1)}, guild, m.ID, ladder.Win); err != nil {
				t.Fatalf("Report() = %v", err)
			}
			if _, err := e.svc.Dispute(e.ctx, ladder.Actor{UserID: user(2)}, guild, m.ID, "we won", ""); err != nil {
				t.Fatalf("Dispute() = %v", err)
			}
			if _, err := e.svc.Resolve(e.ctx, moderator, guild, m.ID, 1, "screenshot shows team 1"); err != nil {
				t.Fatalf("Resolve() = %v", err)
			}
		}
		for i := 3; i < 5; i++ {
			m := open(i)
			// user(1) gives the match away; a moderator finds team 1 won.
			if _, err := e.svc.Report(e.ctx, ladder.Actor{UserID: user(1)}, guild, m.ID, ladder.Loss); err != nil {
				t.Fatalf("Report() = %v", err)
			}
			if _, err := e.svc.Confirm(e.ctx, ladder.Actor{UserID: user(2)}, guild, m.ID); err != nil {
				t.Fatalf("Confirm() = %v", err)
			}
			if _, err := e.svc.Correct(e.ctx, moderator, guild, m.ID, 1, "replay shows team 1 won"); err != nil {
				t.Fatalf("Correct() = %v", err)
			}
			e.settle(t, guild)
		}
		fs := flagsOf(t, e, guild, true)
		for _, k := range []string{"report-abuse " + user(2), "wrong-vote " + user(1)} {
			if _, ok := fs[k]; !ok {
				t.Errorf("Got(flags) = %v, want %s", fs, k)
			}
		}
		if len(fs) != 2 {
			t.Errorf("Got(%d flags) = %v, want 2", len(fs), fs)
		}
	})
}

// TestVerifyFindsTampering: a counter row changed behind the job's back is
// a difference verify reports.
func TestVerifyFindsTampering(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b)
		for i := range 3 {
			e.record(t, guild, [2]int{1, 2}, [2]int{3, 4}, 1+i%2)
		}
		e.settle(t, guild)
		key := "o:" + user(1) + ":" + user(3)
		res := e.db.Gorm().Exec(`UPDATE integrity_counters SET value = '{"n":2,"wins_a":2}' WHERE key = ?`, key)
		if res.Error != nil || res.RowsAffected != 1 {
			t.Fatalf("tamper = %v, %d rows", res.Error, res.RowsAffected)
		}
		rep, err := e.in.Verify(e.ctx, guild)
		if err != nil || len(rep.Diffs) != 1 || !strings.Contains(rep.Diffs[0], key) {
			t.Errorf("Verify() = %+v, %v, want the tampered counter %s", rep, err, key)
		}
	})
}

// TestFoldedByTheRatedWrite: every rated result folds itself into the
// counters in its own transaction, so with no job run at all the counters
// equal a replay and the flags are raised; a retried result (its
// idempotency key taken) folds nothing twice.
func TestFoldedByTheRatedWrite(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b)
		for i := range 20 {
			in := ladder.ResultInput{GuildID: guild, Team1: []string{user(1), user(2)}, Team2: []string{user(3), user(4)},
				Winner: 1 + i%2, PlayedAt: time.Now().Add(-time.Hour), IdempotencyKey: fmt.Sprintf("game-%d", i)}
			for range 2 { // the game server retries
				if _, err := e.svc.RecordResult(e.ctx, in); err != nil {
					t.Fatalf("RecordResult() = %v", err)
				}
			}
		}
		e.verify(t, guild)
		if fs := flagsOf(t, e, guild, true); len(fs) != 4 {
			t.Errorf("Got(flags) = %v, want the 4 opponent pairs' win-trading without a job run", fs)
		}
		rep, err := e.in.Verify(e.ctx, guild)
		if err != nil || rep.Ladders != 1 || rep.Matches != 20 {
			t.Errorf("Verify() = %+v, %v, want 1 ladder of 20 matches", rep, err)
		}
		if n, err := e.in.Rebuild(e.ctx); err != nil || n != 0 {
			t.Errorf("Rebuild() = %d, %v, want nothing to do", n, err)
		}
	})
}

// TestGapCaughtUp: a result rated by a process that folds nothing (its
// database opened without the derived rows wired) leaves a gap; the next
// folded result finds it and hands the ladder to the job, which catches up
// from where the fold stood.
func TestGapCaughtUp(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		dsn := testdb.DSN(t, b)
		ctx := context.Background()
		wired, bare := laddertest.OpenDSN(t, dsn), laddertest.OpenDSN(t, dsn)
		in := integrity.New(wired, nil)
		derived.Wire(wired, in)
		e := env{ctx: ctx, db: wired, svc: ladder.NewService(wired, nil), in: in}
		e.record(t, guild, [2]int{1, 2}, [2]int{3, 4}, 1)
		bareEnv := env{ctx: ctx, db: bare, svc: ladder.NewService(bare, nil), in: in}
		bareEnv.record(t, guild, [2]int{1, 2}, [2]int{3, 4}, 2)
		e.record(t, guild, [2]int{1, 2}, [2]int{3, 4}, 1)
		rep, err := in.Verify(ctx, guild)
		if err != nil || rep.Pending != 1 || len(rep.Diffs) > 0 {
			t.Fatalf("Verify(after the gap) = %+v, %v, want the ladder pending", rep, err)
		}
		e.settle(t, guild)
		if rep, _ := in.Verify(ctx, guild); rep.Matches != 3 {
			t.Errorf("Got(%d matches folded), want 3", rep.Matches)
		}
	})
}

// TestRebuildIsBounded: after a correction the job rebuilds the ladder in
// runs of at most its budget (plus one step), whatever the log's length,
// and the ladder's new results wait for it without folding on stale rows.
func TestRebuildIsBounded(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b)
		e.in.Budget = 10
		var first ladder.MatchResult
		for i := range 30 {
			r := e.record(t, guild, [2]int{1 + i%3, 5}, [2]int{6, 7 + i%4}, 1+i%2)
			if i == 0 {
				first = r
			}
		}
		if _, err := e.svc.Correct(e.ctx, moderator, guild, first.Match.ID, 2, "wrong button"); err != nil {
			t.Fatalf("Correct() = %v", err)
		}
		e.record(t, guild, [2]int{1, 2}, [2]int{3, 4}, 1) // while the rebuild waits
		runs := 0
		for ; runs < 50; runs++ {
			n, err := e.in.Rebuild(e.ctx)
			if err != nil {
				t.Fatalf("Rebuild() = %v", err)
			}
			if n > e.in.Budget+e.in.Batch {
				t.Errorf("Got(Rebuild() = %d rows), want at most %d", n, e.in.Budget+e.in.Batch)
			}
			if n == 0 {
				break
			}
		}
		if runs < 3 {
			t.Errorf("Got(%d runs), want the rebuild spread over several", runs)
		}
		e.verify(t, guild)
	})
}

// TestSmurfTestSurvivesCorrection: the smurf detector's rows — the
// ladder's established players' ratings and a new account's sequential
// test — are folded by the rated writes, and a moderator's correction and
// void of the new account's games rebuild them exactly: after each step
// the stored counters equal a replay of the log.
func TestSmurfTestSurvivesCorrection(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		db := laddertest.Open(t, b)
		th := integrity.DefaultThresholds()
		th.SmurfAfter, th.SmurfEstablished, th.SmurfLLR = 30, 3, 1
		in := integrity.New(db, nil).WithThresholds(th)
		in.Batch = 9
		derived.Wire(db, in)
		e := env{ctx: context.Background(), db: db, svc: ladder.NewService(db, nil), in: in}
		// Eight players found the ladder: 1-4 beat 5-8 more often than not.
		for i := range 50 {
			a, c := 1+i%4, 5+(i+1)%4
			e.record(t, guild, [2]int{a, 1 + (i+2)%4}, [2]int{c, 5 + (i+3)%4}, 1+i%3%2)
		}
		// A new account wins every game beside each of the founders.
		var games []ladder.MatchResult
		for i := range 20 {
			games = append(games, e.record(t, guild, [2]int{20, 5 + i%4}, [2]int{1 + i%4, 1 + (i+1)%4}, 1))
		}
		e.settle(t, guild)
		ls, err := db.IntegrityLadders(e.ctx, guild)
		if err != nil || len(ls) == 0 {
			t.Fatalf("IntegrityLadders() = %v, %v", ls, err)
		}
		st, err := db.IntegrityCounters(e.ctx, guild, ls[0])
		if err != nil {
			t.Fatal(err)
		}
		if l, p := st["l"], st["u:"+user(20)]; l == nil || p == nil || l.PopN < 100 || !p.New || p.LLR <= 0 {
			t.Fatalf("Got(ladder %+v, new account %+v), want the established players' ratings and the new account's test kept", l, p)
		}
		if _, ok := flagsOf(t, e, guild, true)[integrity.KindSmurf+" "+user(20)]; !ok {
			t.Errorf("Got(flags) = %v, want the new account flagged as a smurf", flagsOf(t, e, guild, true))
		}
		if _, err := e.svc.Correct(e.ctx, moderator, guild, games[3].Match.ID, 2, "wrong button"); err != nil {
			t.Fatalf("Correct() = %v", err)
		}
		e.settle(t, guild)
		if _, err := e.svc.Void(e.ctx, moderator, guild, games[0].Match.ID, "never played"); err != nil {
			t.Fatalf("Void() = %v", err)
		}
		e.settle(t, guild)
	})
}

// TestSeasonEndReview: the season's end judges each new account's first
// games once, in the transaction that ends it. An account that won its
// games beside the founders is flagged then, though its test never
// reached the threshold at any game; one that lost and one with fewer
// games than the minimum are not. A second end of the same season adds
// nothing. A result of the ended season rated after its end (formed
// before) reviews the account it gives the minimum of games. Verify proves the stored counters and flags equal a replay of
// the log reviewed at its end; and a ladder being rebuilt when its season
// ends is reviewed by the rebuild.
func TestSeasonEndReview(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		db := laddertest.Open(t, b)
		th := integrity.DefaultThresholds()
		th.SmurfAfter, th.SmurfEstablished, th.SmurfLLR, th.SmurfReview = 30, 3, 50, 1
		in := integrity.New(db, nil).WithThresholds(th)
		in.Batch = 9
		derived.Wire(db, in)
		e := env{ctx: context.Background(), db: db, svc: ladder.NewService(db, nil), in: in}
		play := func(g string) []ladder.MatchResult {
			for i := range 50 {
				a, c := 1+i%4, 5+(i+1)%4
				e.record(t, g, [2]int{a, 1 + (i+2)%4}, [2]int{c, 5 + (i+3)%4}, 1+i%3%2)
			}
			var games []ladder.MatchResult
			for i := range 12 {
				games = append(games, e.record(t, g, [2]int{20, 5 + i%4}, [2]int{1 + i%4, 1 + (i+1)%4}, 1))
				e.record(t, g, [2]int{21, 1 + i%4}, [2]int{5 + i%4, 5 + (i+1)%4}, 2)
				if i < 9 {
					e.record(t, g, [2]int{22, 5 + i%4}, [2]int{1 + i%4, 1 + (i+1)%4}, 1)
				}
			}
			return games
		}
		smurf := integrity.KindSmurf + " " + user(20)
		play(guild)
		// Account 22's tenth game is formed before the season ends and
		// confirmed after.
		late := laddertest.Open2v2(t, e.svc, guild, user(22), user(6), user(2), user(3))
		e.settle(t, guild)
		if fs := flagsOf(t, e, guild, true); len(fs) != 0 {
			t.Fatalf("Got(flags before the season's end) = %v, want none: the test at any game is out of reach", fs)
		}
		ro, err := e.svc.EndSeason(e.ctx, moderator, guild, 0)
		if err != nil {
			t.Fatalf("EndSeason() = %v", err)
		}
		fs := flagsOf(t, e, guild, true)
		f, ok := fs[smurf]
		if !ok || len(fs) != 1 {
			t.Fatalf("Got(flags after the season's end) = %v, want only %s", fs, smurf)
		}
		if f.SeasonID != ro.Ended.ID || f.Evidence.Key != integrity.EvidenceSmurfReview || f.Evidence.Counts["Games"] != 12 || f.Score < 1 || len(f.Matches) == 0 {
			t.Errorf("Got(review flag) = %+v, want season %d's, evidence %q of 12 games, score 1 or more", f, ro.Ended.ID, integrity.EvidenceSmurfReview)
		}
		e.verify(t, guild)
		if ro, err := e.svc.EndSeason(e.ctx, moderator, guild, ro.Ended.Number); err != nil || !ro.AlreadyDone {
			t.Fatalf("EndSeason(again) = %+v, %v, want already done", ro, err)
		}
		if fs := flagsOf(t, e, guild, true); len(fs) != 1 {
			t.Errorf("Got(flags after ending the season again) = %v, want the one", fs)
		}
		// The tenth game is rated in the ended season: its fold reviews
		// account 22, now with the minimum of early games.
		if _, err := e.svc.Report(e.ctx, ladder.Actor{UserID: user(22)}, guild, late.ID, ladder.Win); err != nil {
			t.Fatalf("Report() = %v", err)
		}
		if r, err := e.svc.Confirm(e.ctx, ladder.Actor{UserID: user(2)}, guild, late.ID); err != nil || r.Match.SeasonID != ro.Ended.ID {
			t.Fatalf("Confirm() = %+v, %v, want the match rated in the ended season %d", r.Match, err, ro.Ended.ID)
		}
		if f, ok := flagsOf(t, e, guild, true)[integrity.KindSmurf+" "+user(22)]; !ok || f.Evidence.Key != integrity.EvidenceSmurfReview || f.Evidence.Counts["Games"] != 10 {
			t.Errorf("Got(flags after a result rated in the ended season) = %v, want %s reviewed over 10 games", flagsOf(t, e, guild, true), user(22))
		}
		e.verify(t, guild)
		// Another guild: a correction leaves its ladder to the job, the
		// season ends meanwhile, and the rebuild reviews it as ended.
		games := play(other)
		e.settle(t, other)
		if _, err := e.svc.Correct(e.ctx, moderator, other, games[0].Match.ID, 2, "wrong button"); err != nil {
			t.Fatalf("Correct() = %v", err)
		}
		if _, err := e.svc.EndSeason(e.ctx, moderator, other, 0); err != nil {
			t.Fatalf("EndSeason() = %v", err)
		}
		if fs := flagsOf(t, e, other, true); len(fs) != 0 {
			t.Fatalf("Got(flags of a ladder being rebuilt at its season's end) = %v, want none yet", fs)
		}
		e.settle(t, other)
		if f, ok := flagsOf(t, e, other, true)[smurf]; !ok || f.Evidence.Key != integrity.EvidenceSmurfReview {
			t.Errorf("Got(flags after the rebuild) = %v, want %s from the review", flagsOf(t, e, other, true), smurf)
		}
		// A third guild's ladder whose progress missed its season's end
		// (its first fold inserted the row while the end committed, so the
		// end reviewed nothing): the job finds it, rebuilds it as ended,
		// and the rebuild reviews it.
		const third = "100000000000000017"
		play(third)
		e.settle(t, third)
		if _, err := e.svc.EndSeason(e.ctx, moderator, third, 0); err != nil {
			t.Fatalf("EndSeason() = %v", err)
		}
		for _, q := range []string{"UPDATE integrity_progress SET ended = false WHERE guild_id = ?", "DELETE FROM integrity_flags WHERE guild_id = ?"} {
			if err := db.Gorm().Exec(q, third).Error; err != nil {
				t.Fatal(err)
			}
		}
		e.settle(t, third)
		if f, ok := flagsOf(t, e, third, true)[smurf]; !ok || f.Evidence.Key != integrity.EvidenceSmurfReview {
			t.Errorf("Got(flags after the job found the missed end) = %v, want %s from the review", flagsOf(t, e, third, true), smurf)
		}
		if n, err := db.IntegrityEndedMissed(e.ctx); n != 0 || err != nil {
			t.Errorf("IntegrityEndedMissed(again) = %d, %v, want 0", n, err)
		}
	})
}

// TestReturningPlayerIsNotNew: a player of the ladder's first season who
// plays again in the next one, after its first matches, starts that
// season with no rated games (ratings restart from a carry-over) but is
// no new account: the smurf test is for accounts the queue has never
// rated. Its first games of the new season win as the same games of a
// new account that the review flags (TestSeasonEndReview).
func TestReturningPlayerIsNotNew(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		db := laddertest.Open(t, b)
		th := integrity.DefaultThresholds()
		th.SmurfAfter, th.SmurfEstablished, th.SmurfLLR, th.SmurfReview = 30, 3, 50, 1
		in := integrity.New(db, nil).WithThresholds(th)
		derived.Wire(db, in)
		e := env{ctx: context.Background(), db: db, svc: ladder.NewService(db, nil), in: in}
		season := func(first bool) {
			if first {
				// user 20 founds the ladder: its games come first.
				for i := range 12 {
					e.record(t, guild, [2]int{20, 5 + i%4}, [2]int{1 + i%4, 1 + (i+1)%4}, 1+i%2)
				}
			}
			for i := range 50 {
				a, c := 1+i%4, 5+(i+1)%4
				e.record(t, guild, [2]int{a, 1 + (i+2)%4}, [2]int{c, 5 + (i+3)%4}, 1+i%3%2)
			}
			if !first {
				for i := range 12 {
					e.record(t, guild, [2]int{20, 5 + i%4}, [2]int{1 + i%4, 1 + (i+1)%4}, 1)
				}
			}
			if _, err := e.svc.EndSeason(e.ctx, moderator, guild, 0); err != nil {
				t.Fatalf("EndSeason() = %v", err)
			}
		}
		season(true)
		season(false)
		e.settle(t, guild)
		if fs := flagsOf(t, e, guild, true); len(fs) != 0 {
			t.Errorf("Got(flags) = %v, want none: user 20 played the season before", fs)
		}
	})
}

// TestVerifyInPasses: verify folding a ladder's log in passes, each over
// its share of the pairs' counters (as it does when a ladder holds more of
// them than VerifyKeys), and in pages of a few matches, finds what one
// pass finds: a tampered opponents' counter, a partner's counter gone, a
// counter the replay has no use for, two flags not stored, and nothing on a
// clean ladder.
func TestVerifyInPasses(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b)
		for i := range 20 {
			e.record(t, guild, [2]int{1, 2}, [2]int{3, 4}, 1+i%2)
			e.record(t, guild, [2]int{1 + i%6, 7}, [2]int{8, 9 + i%3}, 1+i%3/2)
		}
		e.settle(t, guild)
		diffs := func(keys int) []string {
			t.Helper()
			in := *e.in
			in.VerifyKeys = keys
			rep, err := in.Verify(e.ctx, guild)
			if err != nil || rep.Matches != 40 || rep.Ladders != 1 {
				t.Fatalf("Verify(VerifyKeys %d) = %+v, %v, want 1 ladder of 40 matches", keys, rep, err)
			}
			return rep.Diffs
		}
		if d := diffs(1); len(d) > 0 {
			t.Errorf("Verify(in passes) = %q on a clean ladder, want no differences", d)
		}
		g := e.db.Gorm()
		tamper := []string{
			`UPDATE integrity_counters SET value = '{"n":2,"wins_a":2}' WHERE key = 'o:` + user(1) + `:` + user(3) + `'`,
			`DELETE FROM integrity_counters WHERE key = 'p:` + user(2) + `:` + user(1) + `'`,
			`INSERT INTO integrity_counters (queue_id, season_id, guild_id, key, value) SELECT queue_id, season_id, guild_id, 'o:` +
				user(5) + `:` + user(6) + `', '{"n":1}' FROM integrity_counters WHERE key = 'l'`,
			`DELETE FROM integrity_flags WHERE kind = 'win-trade' AND subject = '` + user(2) + `,` + user(4) + `'`,
			`DELETE FROM integrity_flags WHERE kind = 'win-trade' AND subject = '` + user(1) + `,` + user(3) + `'`,
		}
		for _, q := range tamper {
			if res := g.Exec(q); res.Error != nil || res.RowsAffected != 1 {
				t.Fatalf("%s = %v, %d rows", q, res.Error, res.RowsAffected)
			}
		}
		one := diffs(1 << 30)
		if len(one) != 5 {
			t.Fatalf("Verify(one pass) = %q, want the 5 changes", one)
		}
		for _, keys := range []int{1, 3, 10} {
			if got := diffs(keys); !slices.Equal(got, one) {
				t.Errorf("Verify(VerifyKeys %d) = %q, want what one pass finds: %q", keys, got, one)
			}
		}
	})
}
