package jobs_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/ladder"
)

// raceQueue makes the default queue form nothing at wait 0 (q_start 1 is
// out of reach while RD > 0) and accept new players (RD 130 each, Q 0.83)
// once the anchor has waited 120 s (q_min 0.75, falling to the 0.50 floor).
func raceQueue(t *testing.T, svc *ladder.Service) ladder.Queue {
	return defaultQueue(t, svc, func(q *ladder.Queue) { q.QStart = 1 })
}

// checkFormed fails the test unless every match of the guild has 4
// distinct players that are in no other match, every match was announced
// or returned by a join exactly once, and the matches hold wantPlayers.
func checkFormed(t *testing.T, svc *ladder.Service, announced []sent, byJoin []ladder.FormedMatch, wantPlayers int) {
	t.Helper()
	ms, err := svc.Matches(context.Background(), ladder.MatchFilter{GuildID: guild, Limit: 1000})
	if err != nil {
		t.Fatalf("Matches() = %v", err)
	}
	inMatch := map[string]int64{}
	for _, m := range ms {
		if len(m.Players()) != 4 {
			t.Errorf("Got(players of match #%d) = %v, want 4", m.ID, m.Players())
		}
		for _, u := range m.Players() {
			if other, ok := inMatch[u]; ok {
				t.Errorf("Got(%s in matches) = #%d and #%d, want one match", u, other, m.ID)
			}
			inMatch[u] = m.ID
		}
	}
	if len(inMatch) != wantPlayers || len(ms)*4 != wantPlayers {
		t.Errorf("Got(players in matches, matches) = %d, %d, want %d, %d", len(inMatch), len(ms), wantPlayers, wantPlayers/4)
	}
	told := map[int64]int{}
	for _, a := range announced {
		id := announcedMatch(t, a)
		told[id]++
		if a.channel != channel {
			t.Errorf("Got(match #%d announced in) = %s, want %s", id, a.channel, channel)
		}
	}
	for _, f := range byJoin {
		told[f.Match.ID]++
	}
	for _, m := range ms {
		if told[m.ID] != 1 {
			t.Errorf("Got(match #%d announced or returned by a join) = %d times, want once", m.ID, told[m.ID])
		}
	}
	if len(told) != len(ms) {
		t.Errorf("Got(matches announced) = %d, want the %d stored", len(told), len(ms))
	}
}

// TestMatchmakeRace runs two processes' matchmaking jobs on one database
// at once, three runs per process in flight at a time, while new players
// join through both processes (each join runs its own pass too). Every
// round the clock moves 10 minutes, so the earlier tickets are in the last
// bucket and the passes compete for them. No player may end up in two
// matches, every match is announced once, and the queue drains.
func TestMatchmakeRace(t *testing.T) {
	const rounds, perRound, tickers = 6, 8, 3
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		dsn := testdb.DSN(t, b)
		c := ladder.NewManualClock(mmStart)
		recs := []*poster{{}, {}}
		procs := []*proc{newProc(t, dsn, c, recs[0]), newProc(t, dsn, c, recs[1])}
		setupGuild(t, procs[0].svc, 0)
		raceQueue(t, procs[0].svc)

		var (
			mu     sync.Mutex
			byJoin []ladder.FormedMatch
		)
		errs := make(chan error, rounds*(perRound+2*2*tickers))
		for r := range rounds + 1 {
			var wg sync.WaitGroup
			start := make(chan struct{})
			for i, p := range procs {
				for range tickers {
					wg.Go(func() {
						<-start
						for range 2 {
							if _, err := p.sched.Run(ctx, jobs.JobMatchmake); err != nil {
								errs <- fmt.Errorf("process %d: Run(matchmake) = %w", i, err)
							}
						}
					})
				}
			}
			if r < rounds { // the last round only drains the queue
				for i := range perRound {
					u := user(r*perRound + i + 1)
					p := procs[i%2]
					wg.Go(func() {
						<-start
						res, err := p.svc.JoinQueue(ctx, ladder.JoinRequest{GuildID: guild, UserID: u, Name: "p" + u[len(u)-3:], ChannelID: channel})
						if err != nil {
							errs <- fmt.Errorf("JoinQueue(%s) = %w", u, err)
							return
						}
						mu.Lock()
						byJoin = append(byJoin, res.Formed...)
						mu.Unlock()
					})
				}
			}
			close(start)
			wg.Wait()
			c.Set(c.Now().Add(10 * time.Minute))
		}
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		announced := append(recs[0].announced(), recs[1].announced()...)
		checkFormed(t, procs[0].svc, announced, byJoin, rounds*perRound)
		st, err := procs[0].svc.QueueStatus(ctx, guild, "")
		if err != nil || st.Queues[0].Players != 0 {
			t.Errorf("Got(players left in the queue) = %+v, %v, want 0", st.Queues, err)
		}
		t.Logf("%d matches: %d announced by process 0, %d by process 1, %d formed by joins",
			len(announced)+len(byJoin), len(recs[0].announced()), len(recs[1].announced()), len(byJoin))
	})
}

// TestMatchmakeTicking starts the schedulers of two processes on one
// database: their @every 5s ticks fall on the same second. Twice, eight
// players queue (nothing forms at wait 0) and then the clock says they
// have waited 10 minutes: the next ticks form exactly two matches, each
// announced by one process only. The second time, the start's catch-up
// runs are long over, so only the 5 s ticks can form the matches.
func TestMatchmakeTicking(t *testing.T) {
	if testing.Short() {
		testdb.Skip(t, testdb.Short) // it waits for real 5 s ticks
	}
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		dsn := testdb.DSN(t, b)
		c := ladder.NewManualClock(mmStart)
		recs := []*poster{{}, {}}
		procs := []*proc{newProc(t, dsn, c, recs[0]), newProc(t, dsn, c, recs[1])}
		setupGuild(t, procs[0].svc, 0)
		raceQueue(t, procs[0].svc)
		for _, p := range procs {
			if err := p.sched.Start(ctx); err != nil {
				t.Fatalf("Start() = %v", err)
			}
		}
		stopped := false
		stop := func() {
			if stopped {
				return
			}
			stopped = true
			for _, p := range procs {
				sctx, cancel := context.WithTimeout(ctx, time.Minute)
				if err := p.sched.Stop(sctx); err != nil {
					t.Errorf("Stop() = %v", err)
				}
				cancel()
			}
		}
		defer stop()
		count := func() int { return len(recs[0].announced()) + len(recs[1].announced()) }
		for phase := 1; phase <= 2; phase++ {
			for _, u := range users(8*phase-7, 8*phase) {
				if f := join(t, procs[phase%2].svc, u); len(f) != 0 {
					t.Fatalf("Got(matches formed by joining at wait 0) = %d, want 0", len(f))
				}
			}
			if got := count(); got != 2*(phase-1) {
				t.Fatalf("Got(announcements before the wait, phase %d) = %d, want %d", phase, got, 2*(phase-1))
			}
			c.Set(c.Now().Add(10 * time.Minute))
			moved := time.Now()
			for time.Since(moved) < 15*time.Second && count() < 2*phase {
				time.Sleep(50 * time.Millisecond)
			}
			if got := count(); got != 2*phase {
				t.Fatalf("Got(announcements 15 s after the wait, phase %d) = %d, want %d", phase, got, 2*phase)
			}
			t.Logf("phase %d: matches formed %s after the clock moved", phase, time.Since(moved).Round(10*time.Millisecond))
		}
		stop()
		announced := append(recs[0].announced(), recs[1].announced()...)
		checkFormed(t, procs[0].svc, announced, nil, 16)
		t.Logf("announced by process 0: %d, by process 1: %d", len(recs[0].announced()), len(recs[1].announced()))
	})
}
