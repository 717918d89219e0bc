package community_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestMVPVotesBesideCorrections: players vote the MVPs of a ladder's later
// matches while a moderator voids and restores an earlier match that has
// votes. The void or restoration moves the votee's mvp_counts row, then
// rewrites the log rows of every later match (whose foreign key reads
// each later match's row); each vote holds its match's row and moves the
// same mvp_counts row. Every vote must be taken, whichever transaction
// waits for which, and the counts must equal a recount from the votes.
func TestMVPVotesBesideCorrections(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b)
		qs, err := e.svc.Queues(e.ctx, guild)
		if err != nil {
			t.Fatal(err)
		}
		on := true
		if _, err := e.com.SetSettings(e.ctx, moderator, guild, qs[0].Name, nil, &on); err != nil {
			t.Fatalf("SetSettings() = %v", err)
		}
		var ms []ladder.Match
		for i := range 16 {
			r, err := e.svc.RecordResult(e.ctx, ladder.ResultInput{GuildID: guild, Team1: []string{user(1), user(2)},
				Team2: []string{user(3), user(4)}, Winner: 1 + i%2, PlayedAt: time.Now().Add(-time.Hour)})
			if err != nil {
				t.Fatalf("RecordResult() = %v", err)
			}
			ms = append(ms, r.Match)
		}
		first := ms[0]
		for _, v := range []int{2, 3, 4} {
			if _, err := e.com.VoteMVP(e.ctx, guild, user(v), first.ID, user(1)); err != nil {
				t.Fatalf("VoteMVP(first match) = %v", err)
			}
		}
		var (
			mu   sync.Mutex
			errs []error
			wg   sync.WaitGroup
		)
		fail := func(err error) {
			mu.Lock()
			defer mu.Unlock()
			errs = append(errs, err)
		}
		stop := make(chan struct{})
		done := make(chan struct{})
		corrections := 0
		go func() {
			defer close(done)
			for i := 0; ; i++ {
				select {
				case <-stop:
					if i%2 == 1 {
						// Leave the first match rated, as it began.
						if _, err := e.svc.Correct(e.ctx, moderator, guild, first.ID, 1, "played after all"); err != nil {
							fail(err)
						}
					}
					return
				default:
				}
				var err error
				if i%2 == 0 {
					_, err = e.svc.Void(e.ctx, moderator, guild, first.ID, "never played")
				} else {
					_, err = e.svc.Correct(e.ctx, moderator, guild, first.ID, 1, "played after all")
				}
				if err != nil {
					fail(err)
					return
				}
				corrections++
			}
		}()
		for _, v := range []int{2, 3, 4} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for _, m := range ms[1:] {
					if _, err := e.com.VoteMVP(e.ctx, guild, user(v), m.ID, user(1)); err != nil {
						fail(err)
					}
				}
			}()
		}
		wg.Wait()
		close(stop)
		<-done
		if err := errors.Join(errs...); err != nil {
			t.Fatalf("Got(errors of %d votes beside %d corrections) = %v, want none", 3*(len(ms)-1), corrections, err)
		}
		r, err := e.com.PlayerMVPs(e.ctx, guild, "", user(1), 0)
		if err != nil || r.Votes != 3*len(ms) || r.MVPs != len(ms) {
			t.Errorf("PlayerMVPs(voted player) = %+v, %v, want %d votes and %d titles", r, err, 3*len(ms), len(ms))
		}
		if diffs, err := community.Verify(e.ctx, e.db, guild); err != nil || len(diffs) > 0 {
			t.Errorf("Verify() = %v, %v, want no difference", diffs, err)
		}
	})
}
