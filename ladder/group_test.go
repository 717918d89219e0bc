package ladder_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// gateFunc is a JoinGate of a function.
type gateFunc func(q ladder.Queue, who []ladder.Entrant) error

func (g gateFunc) AllowJoin(_ context.Context, q ladder.Queue, who []ladder.Entrant, _ time.Time) error {
	return g(q, who)
}

func TestFormGroup(t *testing.T) {
	group := func(t *testing.T, e *env, rebalance bool, within func(context.Context, ladder.Tx, ladder.Match) error) (ladder.FormedMatch, error) {
		t.Helper()
		qs, err := e.svc.Queues(e.ctx, guild)
		if err != nil {
			t.Fatal(err)
		}
		return e.svc.FormGroup(e.ctx, ladder.GroupRequest{GuildID: guild, QueueID: qs[0].ID, Rebalance: rebalance, Source: "rematch",
			ChannelID: "300000000000000001", Teams: [2][]string{{users[0], users[1]}, {users[2], users[3]}}, Within: within})
	}
	open := func(t *testing.T, e *env) []ladder.Match {
		t.Helper()
		ms, err := e.svc.Matches(e.ctx, ladder.MatchFilter{GuildID: guild, States: []ladder.MatchState{ladder.StateOpen}, Limit: 5})
		if err != nil {
			t.Fatal(err)
		}
		return ms
	}
	behaviours(t, []behaviour{
		{"same teams, a queued player taken off", func(t *testing.T, e *env) {
			if _, err := e.svc.JoinQueue(e.ctx, ladder.JoinRequest{GuildID: guild, UserID: users[3]}); err != nil {
				t.Fatal(err)
			}
			f, err := group(t, e, false, nil)
			if err != nil {
				t.Fatalf("Got(FormGroup) = %v", err)
			}
			if !slices.Equal(f.Match.Teams[0], []string{users[0], users[1]}) || f.Match.Source != "rematch" || f.Ready.MatchID != f.Match.ID {
				t.Errorf("Got(match) = %+v ready %+v, want the same teams with a ready check", f.Match, f.Ready)
			}
			if st, _ := e.svc.QueueStatus(e.ctx, guild, users[3]); st.Ticket.ID != 0 {
				t.Errorf("Got(ticket of a player of the group) = %d, want taken off", st.Ticket.ID)
			}
		}},
		{"rebalanced by rating", func(t *testing.T, e *env) {
			for i, r := range []float64{1800, 1700, 1300, 1200} {
				if _, err := e.svc.SetRating(e.ctx, mod, guild, "", users[i], r, 60, "test"); err != nil {
					t.Fatal(err)
				}
			}
			f, err := group(t, e, true, nil)
			if err != nil {
				t.Fatalf("Got(FormGroup) = %v", err)
			}
			teams := [2][]string{slices.Sorted(slices.Values(f.Match.Teams[0])), slices.Sorted(slices.Values(f.Match.Teams[1]))}
			want1, want2 := []string{users[0], users[3]}, []string{users[1], users[2]}
			if !(slices.Equal(teams[0], want1) && slices.Equal(teams[1], want2) || slices.Equal(teams[0], want2) && slices.Equal(teams[1], want1)) {
				t.Errorf("Got(rebalanced teams) = %v, want %v against %v", teams, want1, want2)
			}
		}},
		{"a party with an outsider is refused", func(t *testing.T, e *env) {
			if _, err := e.svc.JoinQueue(e.ctx, ladder.JoinRequest{GuildID: guild, UserID: users[2], PartnerID: users[4]}); err != nil {
				t.Fatal(err)
			}
			if _, err := e.svc.AcceptParty(e.ctx, guild, users[4], "", nil); err != nil {
				t.Fatal(err)
			}
			_, err := group(t, e, false, nil)
			if ladder.ErrorCode(err) != ladder.CodeConflict || !strings.Contains(err.Error(), "queued with <@"+users[4]+">") {
				t.Errorf("Got(FormGroup) = %v, want a conflict naming the partner", err)
			}
			if st, _ := e.svc.QueueStatus(e.ctx, guild, users[4]); st.Ticket.ID == 0 || len(open(t, e)) != 0 {
				t.Errorf("Got(partner's ticket %d, open matches %d), want the party kept and no match", st.Ticket.ID, len(open(t, e)))
			}
		}},
		{"the caller's refusal undoes the match", func(t *testing.T, e *env) {
			_, err := group(t, e, false, func(context.Context, ladder.Tx, ladder.Match) error {
				return ladder.Errorf(ladder.CodeConflict, "formed already")
			})
			if ladder.ErrorCode(err) != ladder.CodeConflict || len(open(t, e)) != 0 {
				t.Errorf("Got(FormGroup) = %v with %d open matches, want the conflict and none", err, len(open(t, e)))
			}
		}},
		{"the gate refuses", func(t *testing.T, e *env) {
			e.svc.SetJoinGate(gateFunc(func(q ladder.Queue, who []ladder.Entrant) error {
				for _, w := range who {
					if w.UserID == users[2] {
						return ladder.Errorf(ladder.CodeForbidden, "<@%s> lacks the role", w.UserID)
					}
				}
				return nil
			}))
			_, err := group(t, e, false, nil)
			if ladder.ErrorCode(err) != ladder.CodeForbidden || len(open(t, e)) != 0 {
				t.Errorf("Got(FormGroup) = %v with %d open matches, want the gate's refusal and none", err, len(open(t, e)))
			}
		}},
	})
}

// TestClearQueue: every ticket leaves the queue and is returned once.
func TestClearQueue(t *testing.T) {
	behaviours(t, []behaviour{{"clear", func(t *testing.T, e *env) {
		for _, u := range users[:3] {
			if _, err := e.svc.JoinQueue(e.ctx, ladder.JoinRequest{GuildID: guild, UserID: u}); err != nil {
				t.Fatal(err)
			}
		}
		qs, _ := e.svc.Queues(e.ctx, guild)
		ts, err := e.svc.ClearQueue(e.ctx, qs[0].ID)
		if err != nil || len(ts) != 3 {
			t.Fatalf("Got(ClearQueue) = %d tickets, %v, want 3", len(ts), err)
		}
		if ts, err := e.svc.ClearQueue(e.ctx, qs[0].ID); err != nil || len(ts) != 0 {
			t.Errorf("Got(ClearQueue again) = %d tickets, %v, want none", len(ts), err)
		}
	}}})
}
