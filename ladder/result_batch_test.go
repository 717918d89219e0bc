package ladder_test

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestRecordResultsEqualsOneByOne: results recorded in batches (group
// commit) leave exactly the log, ratings, calibrator and answers that
// recording them one by one in the same order leaves, with new players
// arriving inside a batch, an idempotency key used twice in one batch and
// again in a later one, a refused result in the middle of a batch, and a
// guild's very first result in a batch; and verify is clean after.
func TestRecordResultsEqualsOneByOne(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e, one := newEnv(t, backend), newEnv(t, backend)
		const fresh = "100000000000000077"
		var batches [][]ladder.ResultInput
		n := 0
		for b := range 12 {
			var batch []ladder.ResultInput
			for range 1 + b%6 {
				n++
				p := func(k int) string { return user(1 + (n*k+n/3)%(6+n/4)) }
				t1, t2 := []string{p(1), p(2)}, []string{p(3), p(5)}
				if len(map[string]bool{t1[0]: true, t1[1]: true, t2[0]: true, t2[1]: true}) < 4 {
					t1, t2 = []string{user(n%30 + 40), user(n%30 + 71)}, []string{user(n%30 + 102), user(n%30 + 133)}
				}
				in := result(t1, t2, 1+n%2)
				in.IdempotencyKey = fmt.Sprint("k", n)
				batch = append(batch, in)
			}
			batches = append(batches, batch)
		}
		// A key used twice in one batch, a key of an earlier batch, a 3v3
		// result in a 2v2 queue, a bad ID and a new guild's first result.
		dup := batches[5][0]
		batches[5] = append(batches[5], dup)
		batches[7] = append(batches[7], batches[2][1])
		bad := result([]string{user(1), user(2), user(3)}, []string{user(4), user(5), user(6)}, 1)
		batches[9] = append([]ladder.ResultInput{batches[9][0], bad}, batches[9][1:]...)
		batches[9] = append(batches[9], result([]string{user(1)}, []string{"x"}, 1))
		first := result(users[:2], users[2:4], 2)
		first.GuildID = fresh
		batches[11] = append(batches[11], first)

		for bi, batch := range batches {
			got, errs := e.svc.RecordResults(e.ctx, batch)
			for i, in := range batch {
				want, werr := one.svc.RecordResult(one.ctx, in)
				if ladder.ErrorCode(errs[i]) != ladder.ErrorCode(werr) || (errs[i] == nil) != (werr == nil) {
					t.Fatalf("batch %d result %d: error %v, one by one %v", bi, i, errs[i], werr)
				}
				if werr != nil {
					continue
				}
				if got[i].AlreadyDone != want.AlreadyDone || !reflect.DeepEqual(got[i].Changes, want.Changes) ||
					got[i].Match.Winner != want.Match.Winner || !reflect.DeepEqual(got[i].Match.Teams, want.Match.Teams) ||
					got[i].Match.PTeam1 != want.Match.PTeam1 {
					t.Fatalf("batch %d result %d:\n got %+v\nwant %+v", bi, i, got[i], want)
				}
			}
			e.clock.Add(time.Hour)
			one.clock.Add(time.Hour)
		}
		for _, q := range []string{
			`SELECT user_id, rating, dev, games, wins, losses, streak FROM ratings ORDER BY queue_id, user_id`,
			`SELECT c.user_id, c.before_rating, c.after_rating, c.after_dev FROM rating_changes c JOIN matches m ON m.id = c.match_id ORDER BY c.seq, c.user_id`,
			`SELECT guild_id, team1, team2, winner, p_team1, p_raw, source FROM matches ORDER BY seq`,
			`SELECT state FROM calibrators ORDER BY queue_id`,
			`SELECT k.key, m.team1 FROM idempotency_keys k JOIN matches m ON m.id = k.match_id ORDER BY k.key`,
		} {
			if a, b := rows(t, e, q), rows(t, one, q); !reflect.DeepEqual(a, b) {
				t.Fatalf("%s:\nbatched    %v\none by one %v", q, a, b)
			}
		}
		if backend == testdb.Postgres {
			// Batched for real: the matches of a batch share the one
			// transaction that wrote them.
			r := rows(t, e, `SELECT count(DISTINCT xmin::text), count(*) FROM matches WHERE guild_id = '`+guild+`'`)
			var txs, ms int
			fmt.Sscan(r[0][0], &txs)
			fmt.Sscan(r[0][1], &ms)
			if txs > 12 || ms < 30 {
				t.Fatalf("%d matches written in %d transactions, want at most one per batch (12)", ms, txs)
			}
		}
		for _, g := range []string{guild, fresh} {
			if rep, err := e.svc.Verify(e.ctx, g); err != nil || len(rep.Diffs) != 0 {
				t.Fatalf("Verify(%s) after batches = %+v, %v", g, rep.Diffs, err)
			}
		}
	})
}

// rows reads a query's rows as strings.
func rows(t *testing.T, e *env, q string) [][]string {
	t.Helper()
	rs, err := e.db.SQL().QueryContext(e.ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	cols, _ := rs.Columns()
	var out [][]string
	for rs.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			if b, ok := v.([]byte); ok {
				v = string(b)
			}
			row[i] = fmt.Sprint(v)
		}
		out = append(out, row)
	}
	return out
}
