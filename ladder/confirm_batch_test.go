package ladder_test

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/derived"
	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestConfirmsEqualsOneByOne: confirms taken in batches (group commit)
// leave exactly the log, ratings, calibrator and answers that confirming
// them one by one in the same order leaves, with new players, a match
// named twice in one batch, a match already confirmed, an open match, a
// confirm by the reporting team, a stranger's, a moderator's, a match of
// another guild and a match that does not exist among them; and verify
// is clean after. It runs as the ladder alone and with the rows derived
// from the log written in every rated write, as `serve` runs it. On
// PostgreSQL a rated write then takes its log position with the queue's
// lock, before the confirm is checked (docs/storage.md, reads ahead), so
// a refused confirm leaves a gap in the positions: there they are
// compared in order, not as numbers.
func TestConfirmsEqualsOneByOne(t *testing.T) {
	for _, wired := range []bool{false, true} {
		name := "ladder"
		if wired {
			name = "derived"
		}
		t.Run(name, func(t *testing.T) { confirmsEqualsOneByOne(t, wired) })
	}
}

func confirmsEqualsOneByOne(t *testing.T, wired bool) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e, one := newEnv(t, backend), newEnv(t, backend)
		const other = "100000000000000078"
		for _, x := range []*env{e, one} {
			if wired {
				derived.Wire(x.db, integrity.New(x.db, nil))
			}
			if _, err := x.svc.EnsureGuild(x.ctx, other); err != nil {
				t.Fatal(err)
			}
		}
		next := 0
		player := func() string { next++; return user(next) }
		var (
			batches [][]ladder.ConfirmInput
			open    []ladder.Match
			back    []string // players of the last round's first match, confirmed
		)
		for round := range 5 {
			// The same matches in both ladders: created, and reported by
			// team 1 (a win or a loss), except the round's last, left open.
			var ms []ladder.Match
			for k := range 2 + round {
				// Some players come back from earlier rounds, some are new.
				a, b, c, d := player(), player(), player(), player()
				if round > 0 && k == 0 {
					a, c = back[0], back[2]
				}
				var m ladder.Match
				for _, x := range []*env{e, one} {
					m = open2v2(t, x, a, b, c, d)
					if k == 1+round {
						continue
					}
					o := ladder.Win
					if k%3 == 1 {
						o = ladder.Loss
					}
					if _, err := x.svc.Report(x.ctx, ladder.Actor{UserID: a}, guild, m.ID, o); err != nil {
						t.Fatalf("Report(%d) = %v", m.ID, err)
					}
				}
				ms = append(ms, m)
			}
			open = append(open, ms[len(ms)-1])
			back = ms[0].Players()
			var batch []ladder.ConfirmInput
			for k, m := range ms {
				by := ladder.Actor{UserID: m.Teams[1][k%2]}
				if k == 2 {
					by = ladder.Actor{UserID: user(999), Moderator: true}
				}
				batch = append(batch, ladder.ConfirmInput{Actor: by, GuildID: guild, MatchID: m.ID})
			}
			switch round {
			case 1:
				// Named twice, and a confirm by the reporting team.
				batch = append(batch, batch[0], ladder.ConfirmInput{Actor: ladder.Actor{UserID: ms[0].Teams[0][1]}, GuildID: guild, MatchID: ms[0].ID})
			case 2:
				// A stranger, another guild, a match that does not exist.
				batch = append([]ladder.ConfirmInput{{Actor: ladder.Actor{UserID: user(998)}, GuildID: guild, MatchID: ms[1].ID}}, batch...)
				batch = append(batch, ladder.ConfirmInput{Actor: batch[1].Actor, GuildID: other, MatchID: ms[0].ID},
					ladder.ConfirmInput{Actor: batch[1].Actor, GuildID: guild, MatchID: 1 << 40})
			case 3:
				// A match of an earlier batch, confirmed already.
				batch = append(batch, batches[0][0])
			}
			batches = append(batches, batch)
			bi := round
			got, errs := e.svc.Confirms(e.ctx, batch)
			for i, in := range batch {
				want, werr := one.svc.Confirm(one.ctx, in.Actor, in.GuildID, in.MatchID)
				if ladder.ErrorCode(errs[i]) != ladder.ErrorCode(werr) || (errs[i] == nil) != (werr == nil) {
					t.Fatalf("batch %d confirm %d (match %d): error %v, one by one %v", bi, i, in.MatchID, errs[i], werr)
				}
				if werr != nil {
					if errs[i].Error() != werr.Error() {
						t.Fatalf("batch %d confirm %d: error %q, one by one %q", bi, i, errs[i], werr)
					}
					continue
				}
				if got[i].AlreadyDone != want.AlreadyDone || !reflect.DeepEqual(got[i].Changes, want.Changes) ||
					got[i].Match.ID != want.Match.ID || got[i].Match.State != want.Match.State ||
					got[i].Match.Winner != want.Match.Winner || !wired && got[i].Match.Seq != want.Match.Seq {
					t.Fatalf("batch %d confirm %d:\n got %+v\nwant %+v", bi, i, got[i], want)
				}
			}
			e.clock.Add(time.Hour)
			one.clock.Add(time.Hour)
		}
		for _, q := range []string{
			`SELECT user_id, rating, dev, games, wins, losses, streak FROM ratings ORDER BY queue_id, user_id`,
			`SELECT c.match_id, c.user_id, c.before_rating, c.after_rating, c.after_dev FROM rating_changes c ORDER BY c.seq, c.user_id`,
			// A match's place in the log, counted from its start.
			`SELECT id, (SELECT count(*) FROM matches m2 WHERE m2.seq <= matches.seq), state, winner, p_team1, p_raw FROM matches ORDER BY id`,
			`SELECT state FROM calibrators ORDER BY queue_id`,
		} {
			if a, b := rows(t, e, q), rows(t, one, q); !reflect.DeepEqual(a, b) {
				t.Fatalf("%s:\nbatched    %v\none by one %v", q, a, b)
			}
		}
		for _, m := range open {
			if r := rows(t, e, fmt.Sprint(`SELECT state FROM matches WHERE id = `, m.ID)); r[0][0] != "open" {
				t.Fatalf("open match %d is %s", m.ID, r[0][0])
			}
		}
		if backend == testdb.Postgres {
			// Batched for real: the rounds' confirmed matches share the
			// one transaction of their batch.
			r := rows(t, e, `SELECT count(DISTINCT xmin::text), count(*) FROM matches WHERE state = 'confirmed'`)
			var txs, ms int
			fmt.Sscan(r[0][0], &txs)
			fmt.Sscan(r[0][1], &ms)
			if txs > 6 || ms < 14 {
				t.Fatalf("%d matches confirmed in %d transactions, want about one per batch (5)", ms, txs)
			}
		}
		if rep, err := e.svc.Verify(e.ctx, guild); err != nil || len(rep.Diffs) != 0 {
			t.Fatalf("Verify after batches = %+v, %v", rep.Diffs, err)
		}
	})
}
