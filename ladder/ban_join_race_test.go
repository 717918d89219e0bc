package ladder_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestQueueBanRacesJoin: a moderator bans a player (in one process) at
// the moment the player joins the queue (in another). Whichever comes
// first, a banned player must not be left holding a ticket: the ban takes
// them off the queue, and a join after the ban is refused.
func TestQueueBanRacesJoin(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		ctx := context.Background()
		svcs, _ := twoProcesses(t, backend)
		joiner, banner := svcs[0], svcs[1]
		if _, err := joiner.EnsureGuild(ctx, guild); err != nil {
			t.Fatalf("EnsureGuild() = %v", err)
		}
		for i := range 40 {
			user := fmt.Sprintf("6000000000000%05d", i)
			var wg sync.WaitGroup
			var joinErr, banErr error
			wg.Go(func() {
				_, joinErr = joiner.JoinQueue(ctx, ladder.JoinRequest{GuildID: guild, UserID: user, Name: "p"})
			})
			wg.Go(func() {
				banErr = banner.BanFromQueue(ctx, mod, guild, user, time.Time{}, "race")
			})
			wg.Wait()
			if banErr != nil {
				t.Fatalf("player %d: Got(ban) error = %v", i, banErr)
			}
			if joinErr != nil && ladder.ErrorCode(joinErr) != ladder.CodeForbidden {
				t.Fatalf("player %d: Got(join) error = %v, want the join or a refusal", i, joinErr)
			}
			st, err := joiner.QueueStatus(ctx, guild, user)
			if err != nil {
				t.Fatal(err)
			}
			if st.Ticket.ID != 0 {
				t.Fatalf("player %d: Got(ticket of a banned player) = %+v (join error %v), want none", i, st.Ticket, joinErr)
			}
		}
		// The inviter is banned while their partner accepts the invitation.
		for i := range 20 {
			from, to := fmt.Sprintf("6100000000000%05d", i), fmt.Sprintf("6200000000000%05d", i)
			if _, err := joiner.JoinQueue(ctx, ladder.JoinRequest{GuildID: guild, UserID: from, Name: "a", PartnerID: to}); err != nil {
				t.Fatalf("party %d: Got(invite) error = %v", i, err)
			}
			var wg sync.WaitGroup
			var acceptErr, banErr error
			wg.Go(func() {
				_, acceptErr = joiner.AcceptParty(ctx, guild, to, "b", nil)
			})
			wg.Go(func() {
				banErr = banner.BanFromQueue(ctx, mod, guild, from, time.Time{}, "race")
			})
			wg.Wait()
			if banErr != nil {
				t.Fatalf("party %d: Got(ban) error = %v", i, banErr)
			}
			if acceptErr != nil && ladder.ErrorCode(acceptErr) != ladder.CodeForbidden && ladder.ErrorCode(acceptErr) != ladder.CodeNotFound {
				t.Fatalf("party %d: Got(accept) error = %v, want the party or a refusal", i, acceptErr)
			}
			st, err := joiner.QueueStatus(ctx, guild, from)
			if err != nil {
				t.Fatal(err)
			}
			if st.Ticket.ID != 0 {
				t.Fatalf("party %d: Got(ticket of a banned inviter) = %+v (accept error %v), want none", i, st.Ticket, acceptErr)
			}
		}
	})
}
