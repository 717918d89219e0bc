package storage_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

// resumeRecords is a 2v2 history of n matches among 12 players, in order.
func resumeRecords(n int) []rating.MatchRecord {
	start := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	recs := make([]rating.MatchRecord, n)
	for i := range recs {
		p := func(k int) string { return fmt.Sprintf("p%02d", (i*5+k*7)%12) }
		recs[i] = rating.MatchRecord{Seq: i, Date: start.Add(time.Duration(i) * time.Minute),
			Team1: []string{p(0), p(1)}, Team2: []string{p(2), p(3)}, Winner: 1 + i%3%2, Line: i + 2}
	}
	return recs
}

// ratingRows returns a guild's rating rows as comparable text.
func ratingRows(t *testing.T, e *env, guildID string) string {
	t.Helper()
	rows, err := e.db.SQL().QueryContext(e.ctx, "SELECT user_id, rating, dev, games FROM ratings WHERE guild_id = "+placeholder(e)+" ORDER BY user_id", guildID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var u string
		var r, d float64
		var g int
		if err := rows.Scan(&u, &r, &d, &g); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %.9f %.9f %d\n", u, r, d, g)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func placeholder(e *env) string {
	if e.db.Dialect() == "postgres" {
		return "$1"
	}
	return "?"
}

// importBatch is how many matches one import transaction records.
const importBatch = ladder.ImportBatch

// TestImportResume cuts an import of 10,800 matches short in its second
// batch (the context is cancelled as a kill would stop the process: the
// open transaction is rolled back) and runs it again, on both backends.
// Only whole batches are left behind, the second run records exactly the
// missing matches, and the ratings equal those of an import that was never
// interrupted, with verify clean: re-running after a crash is safe. The
// cut lands a while after the first batch commits; when the rest finishes
// before it, the cut is tried again sooner, at last at once, so the test
// never passes without resuming.
func TestImportResume(t *testing.T) {
	suite(t, map[string]func(t *testing.T, b string){
		"cut and resumed": func(t *testing.T, b string) {
			recs := resumeRecords(2*importBatch + 800)
			for _, delay := range []time.Duration{30 * time.Millisecond, 5 * time.Millisecond, 0} {
				e := newEnv(t, b)
				ctx, cancel := context.WithCancel(e.ctx)
				_, err := e.svc.ImportMatches(ctx, guild, "", recs, func(done int) {
					if done != importBatch {
						return
					}
					if delay == 0 {
						cancel() // before the second batch begins
						return
					}
					// Let the second batch start, then stop it midway.
					time.AfterFunc(delay, cancel)
				})
				cancel()
				if err == nil {
					t.Logf("the import finished before a cut %v after the first batch; cutting sooner", delay)
					continue
				}
				resume(t, e, recs)
				return
			}
			t.Fatal("no cut landed, not even one at once")
		},
	})
}

// resume checks an import of recs cut short in e and runs it again.
func resume(t *testing.T, e *env, recs []rating.MatchRecord) {
	t.Helper()
	cut := count(t, e.db, "matches")
	if cut%importBatch != 0 || cut == 0 || cut >= int64(len(recs)) {
		t.Fatalf("Got(matches after the cut) = %d, want whole batches of %d", cut, importBatch)
	}
	rep, err := e.svc.ImportMatches(e.ctx, guild, "", recs, nil)
	if err != nil || rep.Imported != len(recs)-int(cut) || rep.Skipped != int(cut) {
		t.Fatalf("Got(ImportMatches again) = %+v, %v, want %d imported, %d skipped", rep, err, len(recs)-int(cut), cut)
	}
	if n := count(t, e.db, "matches"); n != int64(len(recs)) {
		t.Errorf("Got(matches after the re-run) = %d, want %d", n, len(recs))
	}
	mustVerify(t, e)
	const clean = "100000000000000077"
	if _, err := e.svc.ImportMatches(e.ctx, clean, "", recs, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := ratingRows(t, e, guild), ratingRows(t, e, clean); got != want || got == "" {
		t.Errorf("Got(ratings after cut and re-run) =\n%s\nwant those of an uninterrupted import\n%s", got, want)
	}
}

// TestImportAllOrNothing imports histories with bad rows spread over
// the file, on both backends, into an existing guild and into a new
// one: each is refused as a whole with every bad row listed by its line,
// and the database is unchanged, not even a guild created.
func TestImportAllOrNothing(t *testing.T) {
	now := newClock().Now()
	cases := map[string]struct {
		bad  func(recs []rating.MatchRecord) // breaks some records
		want []string
	}{
		"future date at line 1201": {func(r []rating.MatchRecord) { r[1199].Date = now.Add(48 * time.Hour) }, []string{"1 of 1200 rows", "line 1201: played_at"}},
		"3v3 in a 2v2 queue": {func(r []rating.MatchRecord) {
			r[3].Team1 = append(r[3].Team1, "x")
			r[3].Team2 = append(r[3].Team2, "y")
		}, []string{"line 5: the queue is 2v2, not 3v3"}},
		"huge ID and bad UTF-8": {func(r []rating.MatchRecord) {
			r[700].Team1[0] = strings.Repeat("x", 1<<20)
			r[900].Team2[1] = "a\xffb"
		}, []string{"2 of 1200 rows", "line 702: player ID is 1048576 bytes long", "line 902: player ID is not valid UTF-8"}},
		"same player twice": {func(r []rating.MatchRecord) { r[10].Team2[0] = r[10].Team1[0] }, []string{"line 12: player p"}},
		"NUL and huge names": {func(r []rating.MatchRecord) {
			r[0].Names = map[string]string{r[0].Team1[0]: "a\x00b"}
			r[1].Names = map[string]string{r[1].Team1[0]: strings.Repeat("n", 1000)}
		}, []string{"line 2: name of p", "control character U+0000", "line 3: name of p", "1000 bytes long"}},
		"thirty bad rows": {func(r []rating.MatchRecord) {
			for i := range 30 {
				r[i*40].Date = time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)
			}
		}, []string{"30 of 1200 rows", "line 762: played_at", "and 10 more"}},
	}
	run := map[string]func(t *testing.T, b string){}
	for name, tc := range cases {
		for _, g := range []string{guild, "100000000000000055"} {
			label := name + " into an existing guild"
			if g != guild {
				label = name + " into a new guild"
			}
			run[label] = func(t *testing.T, b string) {
				e := newEnv(t, b)
				recs := resumeRecords(1200)
				tc.bad(recs)
				before, err := testdb.TakeSnapshot(e.ctx, e.db.SQL(), e.db.Dialect())
				if err != nil {
					t.Fatal(err)
				}
				_, err = e.svc.ImportMatches(e.ctx, g, "", recs, nil)
				msg := ladder.ErrorMessage(err)
				if ladder.ErrorCode(err) != ladder.CodeInvalid {
					t.Fatalf("Got(ImportMatches) = %v, want an invalid-input error", err)
				}
				for _, w := range tc.want {
					if !strings.Contains(msg, w) {
						t.Errorf("Got(error) = %.300q, want it to contain %q", msg, w)
					}
				}
				if len(msg) > 4000 {
					t.Errorf("Got(error) of %d bytes, want a capped list", len(msg))
				}
				after, err := testdb.TakeSnapshot(e.ctx, e.db.SQL(), e.db.Dialect())
				if err != nil {
					t.Fatal(err)
				}
				if diff := before.Diff(after); len(diff) > 0 {
					t.Errorf("refused import changed the database: %v", diff)
				}
			}
		}
	}
	suite(t, run)
}
