package derived_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/ladderbot/ladderbot/derived"
	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// aheadLadder opens a traced PostgreSQL store wired as in production with
// a guild whose first result is recorded.
func aheadLadder(t *testing.T) (*storage.DB, *storage.RoundTripLog, *ladder.Service, func(int) string) {
	t.Helper()
	ctx := context.Background()
	log := new(storage.RoundTripLog)
	db, err := storage.OpenTraced(ctx, testdb.DSN(t, testdb.Postgres), nil, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	derived.Wire(db, integrity.New(db, nil))
	svc := ladder.NewService(db, nil)
	if _, err := svc.EnsureGuild(ctx, aheadGuild); err != nil {
		t.Fatal(err)
	}
	u := func(i int) string { return fmt.Sprintf("2000000000000%05d", i) }
	return db, log, svc, u
}

const aheadGuild = "100000000000000001"

// verifyAll checks that the ratings and the integrity counters equal a
// replay of the log, with matches rated matches.
func verifyAll(t *testing.T, db *storage.DB, svc *ladder.Service, matches int) {
	t.Helper()
	ctx := context.Background()
	rep, err := svc.Verify(ctx, aheadGuild)
	if err != nil || len(rep.Diffs) != 0 {
		t.Errorf("Verify() = %v, %v; want no differences", rep.Diffs, err)
	}
	ir, err := integrity.New(db, nil).Verify(ctx, aheadGuild)
	if err != nil || len(ir.Diffs) != 0 || ir.Matches != matches {
		t.Errorf("integrity Verify() = %d matches, %v, %v; want %d matches, no differences", ir.Matches, ir.Diffs, err, matches)
	}
}

// TestAheadFallsBack: a batch whose writes are not the ones it was told
// to expect (a 3v3 in a 2v2 queue, refused under the lock, with players of its own)
// drops what it read ahead and sends the fold's reads with the write, one
// round trip more, and the counters still equal a replay.
func TestAheadFallsBack(t *testing.T) {
	ctx := context.Background()
	db, log, svc, u := aheadLadder(t)
	in := func(a, b, c, d int) ladder.ResultInput {
		return ladder.ResultInput{GuildID: aheadGuild, Team1: []string{u(a), u(b)}, Team2: []string{u(c), u(d)}, Winner: 1}
	}
	if _, err := svc.RecordResult(ctx, in(1, 2, 3, 4)); err != nil {
		t.Fatal(err)
	}
	log.Reset()
	wrong := in(5, 6, 7, 8)
	wrong.Team1, wrong.Team2 = append(wrong.Team1, u(9)), append(wrong.Team2, u(10))
	_, errs := svc.RecordResults(ctx, []ladder.ResultInput{in(1, 2, 3, 4), wrong, in(1, 3, 2, 4)})
	if errs[0] != nil || errs[2] != nil || ladder.ErrorCode(errs[1]) != ladder.CodeInvalid {
		t.Fatalf("RecordResults() = %v; want the 3v3 refused, the others rated", errs)
	}
	if got := len(log.Reset()); got != 3 {
		t.Errorf("RecordResults() took %d round trips, want 3: lock, write with the fold's reads, the fold's writes with COMMIT", got)
	}
	verifyAll(t, db, svc, 3)
}

// TestAheadConcurrent records results of one queue from many writers at
// once, their players shared, alone and in batches: every result is in
// the log once, in lock order, and the ratings and counters equal a
// replay.
func TestAheadConcurrent(t *testing.T) {
	ctx := context.Background()
	db, _, svc, u := aheadLadder(t)
	const writers, each = 8, 12
	var wg sync.WaitGroup
	errc := make(chan error, writers*each)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 7))
			pick := func() ladder.ResultInput {
				p := r.Perm(10)
				return ladder.ResultInput{GuildID: aheadGuild, Team1: []string{u(p[0]), u(p[1])}, Team2: []string{u(p[2]), u(p[3])},
					Winner: 1 + r.IntN(2), IdempotencyKey: fmt.Sprintf("w%d-%d", w, r.Uint64())}
			}
			for i := 0; i < each; i += 2 {
				if i%4 == 0 {
					_, err := svc.RecordResult(ctx, pick())
					errc <- err
					_, err = svc.RecordResult(ctx, pick())
					errc <- err
					continue
				}
				_, errs := svc.RecordResults(ctx, []ladder.ResultInput{pick(), pick()})
				errc <- errors.Join(errs...)
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		if err != nil {
			t.Fatalf("record = %v", err)
		}
	}
	verifyAll(t, db, svc, writers*each)
}

// TestAheadConfirms confirms reported matches of one queue from many
// writers at once, in rounds whose matches share players with the rounds
// before, some confirmed by a moderator who does not play: each confirm
// rates its match once, and the ratings and counters equal a replay.
func TestAheadConfirms(t *testing.T) {
	ctx := context.Background()
	db, _, svc, u := aheadLadder(t)
	qs, err := svc.Queues(ctx, aheadGuild)
	if err != nil {
		t.Fatal(err)
	}
	const matches, rounds = 8, 3
	mod := ladder.Actor{UserID: u(999), Moderator: true}
	for round := range rounds {
		ms := make([]ladder.Match, matches)
		for i := range ms {
			p := func(j int) string { return u((4*i + j + round) % (4 * matches)) }
			m, err := svc.CreateMatch(ctx, ladder.NewMatch{GuildID: aheadGuild, QueueID: qs[0].ID, Teams: [2][]string{{p(0), p(1)}, {p(2), p(3)}}})
			if err != nil {
				t.Fatalf("CreateMatch() = %v", err)
			}
			if _, err := svc.Report(ctx, ladder.Actor{UserID: p(0)}, aheadGuild, m.ID, ladder.Win); err != nil {
				t.Fatalf("Report() = %v", err)
			}
			ms[i] = m
		}
		var wg sync.WaitGroup
		errs := make([]error, matches)
		for i, m := range ms {
			wg.Add(1)
			go func() {
				defer wg.Done()
				by := ladder.Actor{UserID: m.Teams[1][0]}
				if i%3 == 0 {
					by = mod
				}
				var res ladder.MatchResult
				res, errs[i] = svc.Confirm(ctx, by, aheadGuild, m.ID)
				if errs[i] == nil && res.Match.State != ladder.StateConfirmed {
					errs[i] = fmt.Errorf("match %d is %s", m.ID, res.Match.State)
				}
			}()
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatalf("round %d: Confirm() = %v", round, err)
		}
	}
	verifyAll(t, db, svc, matches*rounds)
}
