package storage_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// TestTicketsOrder checks the queue's tickets as matchmaking reads them
// (one statement, tickets joined to their members): in join order, ties
// by ticket ID, each ticket's members by user ID whatever order they
// joined in, and only the queue's own tickets.
func TestTicketsOrder(t *testing.T) {
	suite(t, map[string]func(t *testing.T, b string){
		"parties and solos": func(t *testing.T, b string) {
			e := newEnv(t, b)
			other := ladder.NewQueue(guild, "other", 2)
			if _, err := e.svc.CreateQueue(e.ctx, mod, other); err != nil {
				t.Fatalf("CreateQueue(other) = %v", err)
			}
			at := time.Date(2026, 11, 26, 20, 0, 0, 0, time.UTC)
			var want []ladder.Ticket
			err := e.db.InTx(e.ctx, func(lt ladder.Tx) error {
				qs, err := lt.Queues(e.ctx, guild)
				if err != nil {
					return err
				}
				byName := map[string]int64{}
				for _, q := range qs {
					if q.Name != "other" {
						byName["main"] = q.ID
					}
					byName[q.Name] = q.ID
				}
				add := func(queue string, joined time.Time, users ...string) (ladder.Ticket, error) {
					return lt.AddTicket(e.ctx, ladder.Ticket{GuildID: guild, QueueID: byName[queue], ChannelID: "300000000000000001",
						UserIDs: users, JoinedAt: joined, ExpiresAt: joined.Add(time.Hour)})
				}
				late, err := add("main", at.Add(2*time.Second), user(3), user(1))
				if err != nil {
					return err
				}
				first, err := add("main", at, user(5))
				if err != nil {
					return err
				}
				if _, err := add("other", at.Add(-time.Minute), user(7), user(6)); err != nil {
					return err
				}
				tie, err := add("main", at.Add(2*time.Second), user(4), user(2))
				if err != nil {
					return err
				}
				late.UserIDs, tie.UserIDs = []string{user(1), user(3)}, []string{user(2), user(4)}
				want = []ladder.Ticket{first, late, tie}
				return nil
			})
			if err != nil {
				t.Fatalf("adding tickets: %v", err)
			}
			var got []ladder.Ticket
			err = e.db.InTx(e.ctx, func(lt ladder.Tx) error {
				got, err = lt.Tickets(e.ctx, want[0].QueueID)
				return err
			})
			if err != nil {
				t.Fatalf("Tickets() = %v", err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Tickets() =\n%+v\nwant\n%+v", got, want)
			}
		},
	})
}
