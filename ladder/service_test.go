package ladder_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/laddertest"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// The Service's behaviour is tested here, beside it, on the real stores:
// SQLite always and PostgreSQL from TEST_DATABASE_URL (STYLE.md: no mocks
// of the database). Each behaviour is a subtest TestX/<behaviour>/<backend>
// of its own fresh database, so `go test ./ladder -run 'TestMatchLifecycle/refusals'`
// runs one behaviour on both backends.

const guild = "100000000000000001"

// users are the six players most behaviours play with.
var users = []string{user(1), user(2), user(3), user(4), user(5), user(6)}

func user(i int) string { return fmt.Sprintf("2000000000000%05d", i) }

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// env is one behaviour's Service over a fresh database with one guild.
type env struct {
	db    *storage.DB
	svc   *ladder.Service
	clock *ladder.ManualClock
	ctx   context.Context
}

func newEnv(t *testing.T, backend string) *env {
	t.Helper()
	db, c := laddertest.Open(t, backend), laddertest.Clock()
	return &env{db: db, svc: laddertest.Service(t, db, c, guild), clock: c, ctx: context.Background()}
}

// behaviour is one named behaviour of the Service, run on a fresh env.
type behaviour struct {
	name string
	run  func(t *testing.T, e *env)
}

// behaviours runs each behaviour on every backend as TestX/<name>/<backend>.
func behaviours(t *testing.T, bs []behaviour) {
	for _, b := range bs {
		t.Run(b.name, func(t *testing.T) {
			testdb.ForEach(t, func(t *testing.T, backend string) { b.run(t, newEnv(t, backend)) })
		})
	}
}

// count returns the number of rows of a table.
func count(t *testing.T, db *storage.DB, table string) int64 {
	t.Helper()
	return laddertest.Count(t, db, table)
}

// mustVerify fails t when the stored ratings differ from the replay.
func mustVerify(t *testing.T, e *env) ladder.VerifyReport {
	t.Helper()
	return laddertest.MustVerify(t, e.svc, guild)
}

var mod = ladder.Actor{UserID: "900000000000000001", Moderator: true}

func result(t1, t2 []string, winner int) ladder.ResultInput {
	return ladder.ResultInput{GuildID: guild, Team1: t1, Team2: t2, Winner: winner}
}

// open2v2 opens a queue match between (a, b) and (c, d).
func open2v2(t *testing.T, e *env, a, b, c, d string) ladder.Match {
	t.Helper()
	return laddertest.Open2v2(t, e.svc, guild, a, b, c, d)
}

func profile(t *testing.T, e *env, u string) ladder.Profile {
	t.Helper()
	return laddertest.Profile(t, e.svc, guild, u)
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(fmt.Sprint("unexpected error: ", err))
	}
	return v
}

// TestRecordResult covers results recorded directly (the game-server API
// and import path): docs/spec.md 2.1's worked example, refused input, and the
// idempotency key, also under a race.
func TestRecordResult(t *testing.T) {
	behaviours(t, []behaviour{
		{"worked example", func(t *testing.T, e *env) {
			res, err := e.svc.RecordResult(e.ctx, result(users[:2], users[2:4], 1))
			if err != nil {
				t.Fatalf("RecordResult() = %v", err)
			}
			if res.Match.State != ladder.StateConfirmed || res.Match.ID == 0 || len(res.Changes) != 4 {
				t.Fatalf("RecordResult() = %+v, want a confirmed match with 4 changes", res)
			}
			// docs/spec.md 2.1: four new players, A wins: 1540.1606/122.8583 and 1459.8394/122.8583.
			for _, c := range res.Changes {
				want := 1540.1606
				if c.Team == 2 {
					want = 1459.8394
				}
				if !near(c.Rating, want, 1e-4) || !near(c.RD, 122.8583, 1e-4) || !near(c.Delta, want-1500, 1e-4) {
					t.Errorf("change of %s = %.4f/%.4f Δ%.4f, want %.4f/122.8583", c.UserID, c.Rating, c.RD, c.Delta, want)
				}
			}
			pr := profile(t, e, users[0])
			if !near(pr.Standing.Rating, 1540.1606, 1e-4) || pr.Standing.Wins != 1 || pr.Standing.Streak != 1 || !pr.Standing.Provisional {
				t.Errorf("Profile() standing = %+v, want 1540.1606, 1 win, provisional", pr.Standing)
			}
			if len(pr.History) != 1 || pr.History[0].MatchID != res.Match.ID || len(pr.Recent) != 1 {
				t.Errorf("Profile() history = %+v recent %d, want one point of match %d", pr.History, len(pr.Recent), res.Match.ID)
			}
			if pr.Placement != 1 || pr.PlacementGames != 5 {
				t.Errorf("Profile() placement = %d/%d, want 1/5", pr.Placement, pr.PlacementGames)
			}
			mustVerify(t, e)
		}},
		{"bad input writes nothing", func(t *testing.T, e *env) {
			before := count(t, e.db, "matches")
			tests := []struct {
				name string
				in   ladder.ResultInput
				want ladder.Code
			}{
				{"bad winner", result(users[:2], users[2:4], 3), ladder.CodeInvalid},
				{"player twice", result(users[:2], []string{users[0], users[3]}, 1), ladder.CodeInvalid},
				{"uneven", result(users[:2], users[2:3], 1), ladder.CodeInvalid},
				{"wrong size for queue", result(users[:3], users[3:6], 1), ladder.CodeInvalid},
				{"unknown queue", ladder.ResultInput{GuildID: guild, Queue: "5v5", Team1: users[:2], Team2: users[2:4], Winner: 1}, ladder.CodeNotFound},
				{"future", ladder.ResultInput{GuildID: guild, Team1: users[:2], Team2: users[2:4], Winner: 1, PlayedAt: e.clock.Now().Add(time.Hour)}, ladder.CodeInvalid},
			}
			for _, tt := range tests {
				if _, err := e.svc.RecordResult(e.ctx, tt.in); ladder.ErrorCode(err) != tt.want {
					t.Errorf("RecordResult(%s) = %v, want code %s", tt.name, err, tt.want)
				}
			}
			if n := count(t, e.db, "matches"); n != before {
				t.Errorf("matches after bad input = %d, want %d", n, before)
			}
			if n := count(t, e.db, "ratings"); n != 0 {
				t.Errorf("ratings after bad input = %d, want 0", n)
			}
		}},
		{"idempotency key", func(t *testing.T, e *env) {
			in := result(users[:2], users[2:4], 2)
			in.IdempotencyKey = "abc"
			first, err := e.svc.RecordResult(e.ctx, in)
			if err != nil || first.AlreadyDone {
				t.Fatalf("RecordResult() = %+v, %v", first, err)
			}
			again, err := e.svc.RecordResult(e.ctx, in)
			if err != nil || !again.AlreadyDone || again.Match.ID != first.Match.ID || !slices.Equal(again.Changes, first.Changes) {
				t.Errorf("RecordResult(same key) = %+v, %v, want AlreadyDone with the first result %+v", again, err, first)
			}
			if n := count(t, e.db, "matches"); n != 1 {
				t.Errorf("matches = %d, want 1", n)
			}
		}},
		{"idempotency key raced", func(t *testing.T, e *env) {
			in := result(users[:2], users[2:4], 1)
			in.IdempotencyKey = "race"
			var wg sync.WaitGroup
			ids := make([]int64, 8)
			for i := range ids {
				wg.Go(func() {
					res, err := e.svc.RecordResult(e.ctx, in)
					if err != nil {
						t.Errorf("RecordResult() #%d = %v", i, err)
					}
					ids[i] = res.Match.ID
				})
			}
			wg.Wait()
			if n := count(t, e.db, "matches"); n != 1 {
				t.Errorf("matches after 8 racing retries = %d, want 1", n)
			}
			for i, id := range ids {
				if id != ids[0] {
					t.Errorf("racer %d got match %d, want %d", i, id, ids[0])
				}
			}
			mustVerify(t, e)
		}},
	})
}

// TestMatchLifecycle covers docs/spec.md 5's states: report and confirm, agreeing
// and conflicting reports, disputes with evidence, a moderator's resolve,
// refusals, and auto-confirm at the deadline.
func TestMatchLifecycle(t *testing.T) {
	behaviours(t, []behaviour{
		{"report then confirm", func(t *testing.T, e *env) {
			m := open2v2(t, e, users[0], users[1], users[2], users[3])
			if m.State != ladder.StateOpen || !(m.PTeam1 > 0.49 && m.PTeam1 < 0.51) {
				t.Errorf("CreateMatch() = %+v, want open with P(team 1) 0.5", m)
			}
			if _, err := e.svc.CreateMatch(e.ctx, ladder.NewMatch{GuildID: guild, QueueID: m.QueueID, Teams: [2][]string{{users[0], users[4]}, {users[5], user(7)}}}); ladder.ErrorCode(err) != ladder.CodeConflict {
				t.Errorf("CreateMatch(player already in an open match) = %v, want conflict", err)
			}
			r, err := e.svc.Report(e.ctx, ladder.Actor{UserID: users[0]}, guild, 0, ladder.Win)
			if err != nil || r.Match.State != ladder.StateReported || r.AlreadyDone {
				t.Fatalf("Report() = %+v, %v, want reported", r, err)
			}
			if r, err = e.svc.Report(e.ctx, ladder.Actor{UserID: users[1]}, guild, m.ID, ladder.Win); err != nil || !r.AlreadyDone {
				t.Errorf("Report(teammate, same) = %+v, %v, want AlreadyDone", r, err)
			}
			if _, err := e.svc.Confirm(e.ctx, ladder.Actor{UserID: users[1]}, guild, m.ID); ladder.ErrorCode(err) != ladder.CodeForbidden {
				t.Errorf("Confirm(own team) = %v, want forbidden", err)
			}
			if _, err := e.svc.Confirm(e.ctx, ladder.Actor{UserID: users[4]}, guild, m.ID); ladder.ErrorCode(err) != ladder.CodeForbidden {
				t.Errorf("Confirm(outsider) = %v, want forbidden", err)
			}
			c, err := e.svc.Confirm(e.ctx, ladder.Actor{UserID: users[2]}, guild, m.ID)
			if err != nil || c.Match.State != ladder.StateConfirmed || c.Match.Winner != 1 || len(c.Changes) != 4 {
				t.Fatalf("Confirm() = %+v, %v, want confirmed, team 1 won", c, err)
			}
			if c, err = e.svc.Confirm(e.ctx, ladder.Actor{UserID: users[3]}, guild, m.ID); err != nil || !c.AlreadyDone {
				t.Errorf("Confirm() again = %+v, %v, want AlreadyDone", c, err)
			}
			if _, err := e.svc.Report(e.ctx, ladder.Actor{UserID: users[2]}, guild, m.ID, ladder.Win); ladder.ErrorCode(err) != ladder.CodeConflict {
				t.Errorf("Report(rated match, other result) = %v, want conflict", err)
			}
			// The players are free again.
			open2v2(t, e, users[0], users[4], users[5], user(7))
			mustVerify(t, e)
		}},
		{"same reports confirm, conflicting dispute", func(t *testing.T, e *env) {
			m := open2v2(t, e, users[0], users[1], users[2], users[3])
			e.svc.Report(e.ctx, ladder.Actor{UserID: users[0]}, guild, m.ID, ladder.Loss)
			r, err := e.svc.Report(e.ctx, ladder.Actor{UserID: users[3]}, guild, m.ID, ladder.Win)
			if err != nil || r.Match.State != ladder.StateConfirmed || r.Match.Winner != 2 {
				t.Errorf("Report(other side agrees) = %+v, %v, want confirmed with team 2 winning", r.Match, err)
			}
			m2 := open2v2(t, e, users[0], users[1], users[2], users[3])
			e.svc.Report(e.ctx, ladder.Actor{UserID: users[0]}, guild, m2.ID, ladder.Win)
			r, err = e.svc.Report(e.ctx, ladder.Actor{UserID: users[2]}, guild, m2.ID, ladder.Win)
			if err != nil || r.Match.State != ladder.StateDisputed {
				t.Fatalf("Report(other side disagrees) = %+v, %v, want disputed", r.Match, err)
			}
			if n := count(t, e.db, "disputes"); n != 1 {
				t.Errorf("disputes = %d, want 1", n)
			}
			if _, err := e.svc.Resolve(e.ctx, ladder.Actor{UserID: users[0]}, guild, m2.ID, 1, ""); ladder.ErrorCode(err) != ladder.CodeForbidden {
				t.Errorf("Resolve(player) = %v, want forbidden", err)
			}
			res, err := e.svc.Resolve(e.ctx, mod, guild, m2.ID, 2, "video shows team 2 won")
			if err != nil || res.Match.State != ladder.StateResolved || res.Match.Winner != 2 || len(res.Changed) != 4 {
				t.Fatalf("Resolve() = %+v, %v, want resolved for team 2 with 4 changes", res, err)
			}
			if res, err = e.svc.Resolve(e.ctx, mod, guild, m2.ID, 2, ""); err != nil || !res.AlreadyDone {
				t.Errorf("Resolve() again = %+v, %v, want AlreadyDone", res, err)
			}
			audit, _ := e.svc.Audit(e.ctx, guild, 10)
			if len(audit) != 1 || audit[0].Action != "match.resolve" || audit[0].MatchID != m2.ID || audit[0].ActorID != mod.UserID || audit[0].Before == "" || audit[0].After == "" {
				t.Errorf("Audit() = %+v, want one match.resolve entry with before and after", audit)
			}
			mustVerify(t, e)
		}},
		{"dispute with evidence", func(t *testing.T, e *env) {
			m := open2v2(t, e, users[0], users[1], users[2], users[3])
			e.svc.Report(e.ctx, ladder.Actor{UserID: users[0]}, guild, m.ID, ladder.Win)
			if _, err := e.svc.Dispute(e.ctx, ladder.Actor{UserID: users[2]}, guild, m.ID, "they lost", "ftp://x"); ladder.ErrorCode(err) != ladder.CodeInvalid {
				t.Errorf("Dispute(bad link) = %v, want invalid", err)
			}
			r, err := e.svc.Dispute(e.ctx, ladder.Actor{UserID: users[2]}, guild, m.ID, "they lost", "https://example.com/replay")
			if err != nil || r.Match.State != ladder.StateDisputed || r.Match.Evidence != "https://example.com/replay" {
				t.Fatalf("Dispute() = %+v, %v", r.Match, err)
			}
			if r, err = e.svc.Dispute(e.ctx, ladder.Actor{UserID: users[3]}, guild, m.ID, "again", ""); err != nil || !r.AlreadyDone {
				t.Errorf("Dispute() again = %+v, %v, want AlreadyDone", r, err)
			}
			ds, _ := e.svc.Matches(e.ctx, ladder.MatchFilter{GuildID: guild, States: []ladder.MatchState{ladder.StateDisputed}})
			if len(ds) != 1 || ds[0].DisputeReason != "they lost" {
				t.Errorf("Matches(disputed) = %+v, want the disputed match", ds)
			}
		}},
		{"refusals", func(t *testing.T, e *env) {
			m := open2v2(t, e, users[0], users[1], users[2], users[3])
			before := count(t, e.db, "rating_changes")
			if _, err := e.svc.Report(e.ctx, ladder.Actor{UserID: users[0]}, guild, 999999, ladder.Win); ladder.ErrorCode(err) != ladder.CodeNotFound {
				t.Errorf("Report(unknown match) = %v, want not found", err)
			}
			if _, err := e.svc.Report(e.ctx, ladder.Actor{UserID: users[4]}, guild, m.ID, ladder.Win); ladder.ErrorCode(err) != ladder.CodeForbidden {
				t.Errorf("Report(not a player) = %v, want forbidden", err)
			}
			if _, err := e.svc.Report(e.ctx, ladder.Actor{UserID: users[0]}, "100000000000000009", m.ID, ladder.Win); ladder.ErrorCode(err) != ladder.CodeNotFound {
				t.Errorf("Report(other guild's match) = %v, want not found", err)
			}
			if _, err := e.svc.Confirm(e.ctx, ladder.Actor{UserID: users[2]}, guild, m.ID); ladder.ErrorCode(err) != ladder.CodeConflict {
				t.Errorf("Confirm(no report) = %v, want conflict", err)
			}
			e.svc.Report(e.ctx, ladder.Actor{UserID: users[0]}, guild, m.ID, ladder.Win)
			e.svc.Confirm(e.ctx, ladder.Actor{UserID: users[2]}, guild, m.ID)
			rated := count(t, e.db, "rating_changes")
			if _, err := e.svc.Report(e.ctx, ladder.Actor{UserID: users[3]}, guild, m.ID, ladder.Win); ladder.ErrorCode(err) != ladder.CodeConflict {
				t.Errorf("Report(already rated) = %v, want conflict", err)
			}
			if n := count(t, e.db, "rating_changes"); n != rated || rated != before+4 {
				t.Errorf("rating_changes = %d (rated %d, before %d), want exactly one rating of 4 rows", n, rated, before)
			}
		}},
		{"auto confirm", func(t *testing.T, e *env) {
			m := open2v2(t, e, users[0], users[1], users[2], users[3])
			e.svc.Report(e.ctx, ladder.Actor{UserID: users[0]}, guild, m.ID, ladder.Tie)
			if rs, err := e.svc.ConfirmExpired(e.ctx); err != nil || len(rs) != 0 {
				t.Errorf("ConfirmExpired() before the deadline = %d, %v, want 0", len(rs), err)
			}
			e.clock.Add(31 * time.Minute)
			rs, err := e.svc.ConfirmExpired(e.ctx)
			if err != nil || len(rs) != 1 || rs[0].Match.State != ladder.StateConfirmed || rs[0].Match.Winner != ladder.Draw {
				t.Fatalf("ConfirmExpired() after = %+v, %v, want the draw confirmed", rs, err)
			}
			mustVerify(t, e)
		}},
	})
}

// TestModeration covers a moderator's correct and void of rated matches:
// the preview matches what the correction does, and ratings are replayed.
func TestModeration(t *testing.T) {
	behaviours(t, []behaviour{
		{"correct and void replay", func(t *testing.T, e *env) {
			var ids []int64
			for i := range 6 {
				a := (i * 2) % 6
				r, err := e.svc.RecordResult(e.ctx, result([]string{users[a], users[(a+1)%6]}, []string{users[(a+2)%6], users[(a+3)%6]}, 1+i%2))
				if err != nil {
					t.Fatalf("RecordResult() = %v", err)
				}
				ids = append(ids, r.Match.ID)
				e.clock.Add(time.Hour)
			}
			// A moderator adjustment in the middle of the log must survive replays.
			if _, err := e.svc.SetRating(e.ctx, mod, guild, "", users[5], 1700, 60, "smurf"); err != nil {
				t.Fatalf("SetRating() = %v", err)
			}
			r, _ := e.svc.RecordResult(e.ctx, result(users[:2], users[4:6], 2))
			ids = append(ids, r.Match.ID)
			before := map[string]float64{}
			for _, u := range users {
				before[u] = profile(t, e, u).Standing.Rating
			}
			audits := len(must(e.svc.Audit(e.ctx, guild, 100)))
			prev, err := e.svc.PreviewCorrection(e.ctx, mod, guild, ids[1], 1)
			if err != nil || len(prev.Changed) == 0 {
				t.Fatalf("PreviewCorrection() = %+v, %v, want changes", prev, err)
			}
			for _, u := range users {
				if got := profile(t, e, u).Standing.Rating; got != before[u] {
					t.Errorf("rating of %s after preview = %v, want unchanged %v", u, got, before[u])
				}
			}
			if n := len(must(e.svc.Audit(e.ctx, guild, 100))); n != audits {
				t.Errorf("audit entries after preview = %d, want %d", n, audits)
			}
			cor, err := e.svc.Correct(e.ctx, mod, guild, ids[1], 1, "wrong report")
			if err != nil || cor.Match.Winner != 1 || cor.Match.State != ladder.StateResolved {
				t.Fatalf("Correct() = %+v, %v", cor.Match, err)
			}
			if len(cor.Changed) != len(prev.Changed) {
				t.Errorf("Correct() changed %d players, preview said %d", len(cor.Changed), len(prev.Changed))
			}
			for i, c := range cor.Changed {
				if c.After.Rating != prev.Changed[i].After.Rating || c.UserID != prev.Changed[i].UserID {
					t.Errorf("Correct() %s → %v, preview said %s → %v", c.UserID, c.After.Rating, prev.Changed[i].UserID, prev.Changed[i].After.Rating)
				}
				if got := profile(t, e, c.UserID).Standing.Rating; got != c.After.Rating {
					t.Errorf("rating of %s = %v, correction said %v", c.UserID, got, c.After.Rating)
				}
			}
			mustVerify(t, e)
			if again, err := e.svc.Correct(e.ctx, mod, guild, ids[1], 1, ""); err != nil || !again.AlreadyDone {
				t.Errorf("Correct() again = %+v, %v, want AlreadyDone", again, err)
			}
			v, err := e.svc.Void(e.ctx, mod, guild, ids[0], "fake match")
			if err != nil || v.Match.State != ladder.StateVoided || len(v.Changed) == 0 {
				t.Fatalf("Void() = %+v, %v", v, err)
			}
			mustVerify(t, e)
			// Restoring the voided match puts it back in its place.
			if _, err := e.svc.Correct(e.ctx, mod, guild, ids[0], 1, "it was real"); err != nil {
				t.Fatalf("Correct(voided) = %v", err)
			}
			rep := mustVerify(t, e)
			if rep.Matches != 7 {
				t.Errorf("Verify() replayed %d matches, want 7", rep.Matches)
			}
			if _, err := e.svc.Correct(e.ctx, mod, guild, 424242, 1, ""); ladder.ErrorCode(err) != ladder.CodeNotFound {
				t.Errorf("Correct(unknown) = %v, want not found", err)
			}
		}},
	})
}

// TestVerify checks that Verify notices stored ratings that differ from
// the replay of the log.
func TestVerify(t *testing.T) {
	behaviours(t, []behaviour{
		{"detects tampering", func(t *testing.T, e *env) {
			e.svc.RecordResult(e.ctx, result(users[:2], users[2:4], 1))
			e.db.Gorm().Exec("UPDATE ratings SET rating = rating + 1 WHERE user_id = ?", users[0])
			rep, err := e.svc.Verify(e.ctx, "")
			if err != nil || len(rep.Diffs) != 1 || rep.Diffs[0].UserID != users[0] {
				t.Errorf("Verify() = %+v, %v, want one difference for %s", rep.Diffs, err, users[0])
			}
		}},
	})
}

// TestServiceConcurrency runs writers side by side: no update is lost or
// doubled, no player is in two open matches, and corrections beside new
// results keep the log whole (4 rows per rated match) and verified.
func TestServiceConcurrency(t *testing.T) {
	behaviours(t, []behaviour{
		{"no lost or doubled updates", func(t *testing.T, e *env) {
			const workers, each, players = 8, 15, 12
			var wg sync.WaitGroup
			for w := range workers {
				wg.Go(func() {
					for i := range each {
						k := w*each + i
						t1 := []string{user(k % players), user((k + 1) % players)}
						t2 := []string{user((k + 5) % players), user((k + 7) % players)}
						if _, err := e.svc.RecordResult(e.ctx, result(t1, t2, 1+k%2)); err != nil {
							t.Errorf("RecordResult() = %v", err)
						}
					}
				})
			}
			wg.Wait()
			total := 0
			for i := range players {
				total += profile(t, e, user(i)).Standing.Games
			}
			if total != workers*each*4 {
				t.Errorf("sum of games = %d, want %d", total, workers*each*4)
			}
			if n := count(t, e.db, "rating_changes"); n != workers*each*4 {
				t.Errorf("rating_changes = %d, want %d", n, workers*each*4)
			}
			mustVerify(t, e)
		}},
		{"open matches never share a player", func(t *testing.T, e *env) {
			qs, _ := e.svc.Queues(e.ctx, guild)
			var wg sync.WaitGroup
			var mu sync.Mutex
			opened := 0
			for w := range 8 {
				wg.Go(func() {
					_, err := e.svc.CreateMatch(e.ctx, ladder.NewMatch{GuildID: guild, QueueID: qs[0].ID,
						Teams: [2][]string{{user(0), user(10 + w)}, {user(20 + w), user(30 + w)}}})
					if err == nil {
						mu.Lock()
						opened++
						mu.Unlock()
					} else if ladder.ErrorCode(err) != ladder.CodeConflict {
						t.Errorf("CreateMatch() = %v, want nil or conflict", err)
					}
				})
			}
			wg.Wait()
			if opened != 1 {
				t.Errorf("%d matches opened with the same player, want 1", opened)
			}
		}},
		{"corrections beside results", func(t *testing.T, e *env) {
			var ids []int64
			for i := range 12 {
				r, err := e.svc.RecordResult(e.ctx, result([]string{user(i % 8), user((i + 1) % 8)}, []string{user((i + 2) % 8), user((i + 3) % 8)}, 1))
				if err != nil {
					t.Fatal(err)
				}
				ids = append(ids, r.Match.ID)
			}
			var wg sync.WaitGroup
			for w := range 4 {
				wg.Go(func() {
					for i := range 10 {
						base := 8 * (w % 2) // half the writers share players with the corrected matches
						k := base + (i+w)%8
						t1 := []string{user(k), user(base + (k+1)%8)}
						t2 := []string{user(base + (k+2)%8), user(base + (k+3)%8)}
						if _, err := e.svc.RecordResult(e.ctx, result(t1, t2, 1+i%2)); err != nil {
							t.Errorf("RecordResult() = %v", err)
						}
					}
				})
			}
			wg.Go(func() {
				for i, id := range ids[:6] {
					var err error
					if i%2 == 0 {
						_, err = e.svc.Correct(e.ctx, mod, guild, id, 2, "")
					} else {
						_, err = e.svc.Void(e.ctx, mod, guild, id, "")
					}
					if err != nil {
						t.Errorf("moderation of match %d = %v", id, err)
					}
				}
			})
			wg.Wait()
			mustVerify(t, e)
			var bad []struct {
				ID int64
				N  int64
			}
			e.db.Gorm().Raw(`SELECT m.id, (SELECT count(*) FROM rating_changes c WHERE c.match_id = m.id) AS n FROM matches m
			WHERE m.state IN ('confirmed', 'resolved')`).Scan(&bad)
			for _, r := range bad {
				if r.N != 4 {
					t.Errorf("match %d has %d log rows, want 4", r.ID, r.N)
				}
			}
			if len(bad) != 12+40-3 {
				t.Errorf("%d rated matches, want %d", len(bad), 12+40-3)
			}
		}},
	})
}

// TestLeaderboard pages the board by keyset cursor, hides provisional
// players, filters by division and refuses a forged cursor.
func TestLeaderboard(t *testing.T) {
	behaviours(t, []behaviour{
		{"keyset pages", func(t *testing.T, e *env) {
			g, _ := e.svc.Guild(e.ctx, guild)
			g.PlacementGames = 0
			e.svc.UpdateGuild(e.ctx, mod, g)
			const n = 23
			for i := range n {
				if _, err := e.svc.SetRating(e.ctx, mod, guild, "", user(i), 1300+float64(i*25), 50, ""); err != nil {
					t.Fatalf("SetRating() = %v", err)
				}
			}
			e.svc.SetRating(e.ctx, mod, guild, "", user(99), 2000, 150, "") // provisional: RD > 100
			var all []ladder.Standing
			after := ""
			for page := 0; ; page++ {
				lp, err := e.svc.Leaderboard(e.ctx, ladder.LeaderboardQuery{GuildID: guild, Limit: 5, After: after})
				if err != nil {
					t.Fatalf("Leaderboard() page %d = %v", page, err)
				}
				all = append(all, lp.Standings...)
				if lp.Next == "" {
					break
				}
				after = lp.Next
			}
			if len(all) != n {
				t.Fatalf("Leaderboard() listed %d players, want %d (provisional hidden)", len(all), n)
			}
			for i, s := range all {
				if s.Rank != i+1 || s.UserID != user(n-1-i) {
					t.Errorf("row %d = rank %d %s, want rank %d %s", i, s.Rank, s.UserID, i+1, user(n-1-i))
				}
			}
			gold, err := e.svc.Leaderboard(e.ctx, ladder.LeaderboardQuery{GuildID: guild, Division: "gold", Limit: 50})
			if err != nil || len(gold.Standings) != 6 || gold.Standings[0].Rank != 8 || gold.Standings[0].Division != "Gold" {
				t.Errorf("Leaderboard(gold) = %+v, %v, want 6 Gold players from rank 8", gold.Standings, err)
			}
			if _, err := e.svc.Leaderboard(e.ctx, ladder.LeaderboardQuery{GuildID: guild, After: "garbage!"}); ladder.ErrorCode(err) != ladder.CodeInvalid {
				t.Errorf("Leaderboard(bad cursor) = %v, want invalid", err)
			}
			pr := profile(t, e, user(n-1))
			if pr.Standing.Rank != 1 {
				t.Errorf("Profile(top).Rank = %d, want 1", pr.Standing.Rank)
			}
			if pr := profile(t, e, user(99)); pr.Standing.Rank != 0 || !pr.Standing.Provisional {
				t.Errorf("Profile(provisional) = rank %d provisional %v, want 0, true", pr.Standing.Rank, pr.Standing.Provisional)
			}
		}},
	})
}
