package storage_test

import (
	"math"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

func join(t *testing.T, e *env, u string) ladder.JoinResult {
	t.Helper()
	res, err := e.svc.JoinQueue(e.ctx, ladder.JoinRequest{GuildID: guild, UserID: u, Name: "n" + u, ChannelID: "300000000000000001"})
	if err != nil {
		t.Fatalf("JoinQueue(%s) = %v", u, err)
	}
	return res
}

func TestQueue(t *testing.T) {
	suite(t, map[string]func(t *testing.T, b string){
		"four fresh players match at once": func(t *testing.T, b string) {
			e := newEnv(t, b)
			for i := 1; i <= 3; i++ {
				if res := join(t, e, user(i)); len(res.Formed) != 0 || res.Ticket.ID == 0 {
					t.Fatalf("Got(join %d) = %+v, want a ticket and no match", i, res)
				}
			}
			res := join(t, e, user(4))
			if len(res.Formed) != 1 {
				t.Fatalf("Got(len(Formed)) = %d, want 1", len(res.Formed))
			}
			f := res.Formed[0]
			if math.Abs(f.Proposal.Quality-0.8256) > 5e-5 || math.Abs(f.Match.Quality-f.Proposal.Quality) > 1e-12 ||
				f.Match.State != ladder.StateOpen || f.Match.PTeam1 != 0.5 || f.Match.ChannelID != "300000000000000001" {
				t.Errorf("Got(match) = %+v, want open, Q 0.8256, P 0.5, announced where joined", f.Match)
			}
			if n := count(t, e.db, "queue_entries"); n != 0 {
				t.Errorf("Got(queue_entries rows) = %d, want 0", n)
			}
			// in an open match: may not queue again
			if _, err := e.svc.JoinQueue(e.ctx, ladder.JoinRequest{GuildID: guild, UserID: user(1)}); ladder.ErrorCode(err) != ladder.CodeConflict {
				t.Errorf("Got(join while in a match) = %v, want CodeConflict", err)
			}
		},
		"join is idempotent, leave, status": func(t *testing.T, b string) {
			e := newEnv(t, b)
			first := join(t, e, user(1))
			e.clock.Add(40 * time.Second)
			again := join(t, e, user(1))
			if !again.AlreadyDone || again.Ticket.ID != first.Ticket.ID {
				t.Errorf("Got(second join) = %+v, want AlreadyDone with ticket %d", again, first.Ticket.ID)
			}
			st, err := e.svc.QueueStatus(e.ctx, guild, user(1))
			if err != nil {
				t.Fatal(err)
			}
			if len(st.Queues) != 1 || st.Queues[0].Players != 1 || st.Wait != 40*time.Second {
				t.Errorf("Got(status) = %+v, want one queue with 1 player, wait 40s", st)
			}
			if _, done, err := e.svc.LeaveQueue(e.ctx, guild, user(1)); err != nil || done {
				t.Errorf("Got(LeaveQueue) = %v, %v, want left", done, err)
			}
			if _, done, err := e.svc.LeaveQueue(e.ctx, guild, user(1)); err != nil || !done {
				t.Errorf("Got(second LeaveQueue) = %v, %v, want AlreadyDone", done, err)
			}
		},
		"a party plays on one team": func(t *testing.T, b string) {
			e := newEnv(t, b)
			inv, err := e.svc.JoinQueue(e.ctx, ladder.JoinRequest{GuildID: guild, UserID: user(1), PartnerID: user(2)})
			if err != nil || inv.Invite.ID == 0 || inv.Ticket.ID != 0 {
				t.Fatalf("Got(join with partner) = %+v, %v, want a pending invitation and no ticket", inv, err)
			}
			if _, err := e.svc.AcceptParty(e.ctx, guild, user(3), "", nil); ladder.ErrorCode(err) != ladder.CodeNotFound {
				t.Errorf("Got(accept without invitation) = %v, want CodeNotFound", err)
			}
			acc, err := e.svc.AcceptParty(e.ctx, guild, user(2), "two", nil)
			if err != nil || len(acc.Ticket.UserIDs) != 2 {
				t.Fatalf("Got(AcceptParty) = %+v, %v, want a ticket of two", acc, err)
			}
			join(t, e, user(3))
			res := join(t, e, user(4))
			if len(res.Formed) != 1 {
				t.Fatalf("Got(len(Formed)) = %d, want 1", len(res.Formed))
			}
			m := res.Formed[0].Match
			if m.Team(user(1)) != m.Team(user(2)) {
				t.Errorf("Got(teams) = %v, want %s and %s together", m.Teams, user(1), user(2))
			}
		},
		"a party larger than the team is refused": func(t *testing.T, b string) {
			e := newEnv(t, b)
			if _, err := e.svc.JoinQueue(e.ctx, ladder.JoinRequest{GuildID: guild, UserID: user(1), PartnerID: user(2)}); err != nil {
				t.Fatal(err)
			}
			if _, err := e.svc.AcceptParty(e.ctx, guild, user(2), "", nil); err != nil {
				t.Fatal(err)
			}
			_, err := e.svc.JoinQueue(e.ctx, ladder.JoinRequest{GuildID: guild, UserID: user(1), PartnerID: user(3)})
			if ladder.ErrorCode(err) != ladder.CodeInvalid {
				t.Errorf("Got(third member in 2v2) = %v, want CodeInvalid", err)
			}
		},
		"the database allows one ticket per player": func(t *testing.T, b string) {
			e := newEnv(t, b)
			res := join(t, e, user(1))
			err := e.db.InTx(e.ctx, func(tx ladder.Tx) error {
				_, err := tx.AddTicket(e.ctx, ladder.Ticket{GuildID: guild, QueueID: res.Queue.ID,
					UserIDs: []string{user(1)}, JoinedAt: e.clock.Now(), ExpiresAt: e.clock.Now().Add(time.Hour)})
				return err
			})
			if ladder.ErrorCode(err) != ladder.CodeConflict {
				t.Errorf("Got(second ticket) = %v, want CodeConflict", err)
			}
		},
		"a queued player put in a match elsewhere leaves the queue": func(t *testing.T, b string) {
			e := newEnv(t, b)
			for i := 1; i <= 3; i++ {
				join(t, e, user(i))
			}
			q := join(t, e, user(9))
			if len(q.Formed) != 1 {
				t.Fatalf("Got(len(Formed)) = %d, want 1", len(q.Formed))
			}
			join(t, e, user(10))
			if _, err := e.svc.CreateMatch(e.ctx, ladder.NewMatch{GuildID: guild, QueueID: q.Queue.ID, Source: "mod",
				Teams: [2][]string{{user(10), user(5)}, {user(6), user(7)}}}); err != nil {
				t.Fatal(err)
			}
			join(t, e, user(11))
			join(t, e, user(12))
			res := join(t, e, user(13))
			if len(res.Formed) != 0 {
				t.Fatalf("Got(%d matches), want none: %s is busy, three are left", len(res.Formed), user(10))
			}
			if st, err := e.svc.QueueStatus(e.ctx, guild, user(10)); err != nil || st.Ticket.ID != 0 {
				t.Errorf("Got(ticket of the busy player) = %d, %v, want dropped", st.Ticket.ID, err)
			}
			if res := join(t, e, user(14)); len(res.Formed) != 1 {
				t.Errorf("Got(%d matches), want 1", len(res.Formed))
			}
		},
		"idle tickets expire": func(t *testing.T, b string) {
			e := newEnv(t, b)
			join(t, e, user(1))
			e.clock.Add(30 * time.Minute)
			join(t, e, user(2))
			e.clock.Add(31 * time.Minute)
			gone, err := e.svc.ExpireQueue(e.ctx)
			if err != nil || len(gone) != 1 || !slices.Equal(gone[0].UserIDs, []string{user(1)}) {
				t.Errorf("Got(ExpireQueue) = %+v, %v, want only %s's ticket", gone, err, user(1))
			}
		},
		"banned players cannot queue": func(t *testing.T, b string) {
			e := newEnv(t, b)
			join(t, e, user(1))
			if err := e.svc.BanFromQueue(e.ctx, ladder.Actor{UserID: user(9)}, guild, user(1), time.Time{}, "x"); ladder.ErrorCode(err) != ladder.CodeForbidden {
				t.Errorf("Got(ban by a player) = %v, want CodeForbidden", err)
			}
			if err := e.svc.BanFromQueue(e.ctx, ladder.Actor{UserID: user(9), Moderator: true}, guild, user(1), e.clock.Now().Add(time.Hour), "spam"); err != nil {
				t.Fatal(err)
			}
			if _, err := e.svc.JoinQueue(e.ctx, ladder.JoinRequest{GuildID: guild, UserID: user(1)}); ladder.ErrorCode(err) != ladder.CodeForbidden {
				t.Errorf("Got(join while banned) = %v, want CodeForbidden", err)
			}
			e.clock.Add(2 * time.Hour)
			join(t, e, user(1))
		},
		"concurrent joins never put a player in two matches": func(t *testing.T, b string) {
			e := newEnv(t, b)
			const n = 24
			var wg sync.WaitGroup
			errs := make(chan error, n)
			for i := 1; i <= n; i++ {
				wg.Go(func() {
					_, err := e.svc.JoinQueue(e.ctx, ladder.JoinRequest{GuildID: guild, UserID: user(i)})
					errs <- err
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Errorf("Got(concurrent join) = %v, want nil", err)
				}
			}
			if _, err := e.svc.MatchmakeAll(e.ctx); err != nil {
				t.Fatal(err)
			}
			ms, err := e.svc.Matches(e.ctx, ladder.MatchFilter{GuildID: guild, States: []ladder.MatchState{ladder.StateOpen}, Limit: 100})
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			for _, m := range ms {
				for _, u := range m.Players() {
					if seen[u] {
						t.Errorf("Got(player %s) in two open matches, want one", u)
					}
					seen[u] = true
				}
			}
			if len(ms) != n/4 || len(seen) != n {
				t.Errorf("Got(%d matches of %d players), want %d of %d", len(ms), len(seen), n/4, n)
			}
		},
	})
}
