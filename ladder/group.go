package ladder

import (
	"context"
	"fmt"
	"slices"

	"github.com/ladderbot/ladderbot/ladder/matchmaking"
)

// GroupRequest asks to open one match for a fixed group of players who
// asked to play together again (a rematch), without waiting in the queue.
type GroupRequest struct {
	GuildID string
	QueueID int64
	// Teams are the group's teams; with Rebalance they are only the group,
	// split again as evenly as their current ratings allow.
	Teams     [2][]string
	Rebalance bool
	ChannelID string
	// Source is the match's source, e.g. "rematch".
	Source string
	// Within runs in the transaction that opens the match, after it is
	// stored; its error undoes the match. The caller records there what
	// must change with the match (that a rematch was played), so the two
	// are one unit of work.
	Within func(ctx context.Context, tx Tx, m Match) error
}

// FormGroup opens a match of the group's players in a queue, as a
// matchmaking pass would (ready check and captains' draft by the queue's
// lobby settings), after the queue's gate lets every player in. Players
// still queued are taken off the queue (a party with someone outside the
// group is refused); a banned player, one on a cooldown or one in another
// match is refused.
func (s *Service) FormGroup(ctx context.Context, req GroupRequest) (FormedMatch, error) {
	var users []string
	for _, t := range req.Teams {
		users = append(users, t...)
	}
	if err := validateTeams(req.Teams); err != nil {
		return FormedMatch{}, err
	}
	q, err := s.store.Queue(ctx, req.QueueID)
	if err != nil {
		return FormedMatch{}, fmt.Errorf("ladder: form group: %w", err)
	}
	if q.GuildID != req.GuildID {
		return FormedMatch{}, Errorf(CodeNotFound, "queue %d not found", req.QueueID)
	}
	now := s.now()
	who := make([]Entrant, len(users))
	for i, u := range users {
		who[i] = Entrant{UserID: u}
	}
	if err := s.allowJoin(ctx, q, who, now); err != nil {
		return FormedMatch{}, fmt.Errorf("ladder: form group: %w", err)
	}
	var f FormedMatch
	err = s.inQueueTx(ctx, func(qt Tx) error {
		if err := qt.LockQueue(ctx, q.ID); err != nil {
			return err
		}
		q, err := qt.Queue(ctx, q.ID)
		if err != nil {
			return err
		}
		if q.Disabled {
			return Errorf(CodeInvalid, "queue %s is closed", q.Name)
		}
		tickets := map[int64]Ticket{}
		var ids []int64
		for i, u := range users {
			t, err := s.free(ctx, qt, req.GuildID, u, now)
			if err != nil {
				return err
			}
			if t.ID != 0 {
				// A party with someone outside the group is not broken up
				// behind that player's back.
				for _, m := range t.UserIDs {
					if !slices.Contains(users, m) {
						return Errorf(CodeConflict, "<@%s> is queued with <@%s>; leave the queue first", u, m)
					}
				}
				if err := qt.DeleteTickets(ctx, []int64{t.ID}); err != nil {
					return err
				}
			}
			seat := int64(i + 1)
			tickets[seat] = Ticket{GuildID: req.GuildID, QueueID: q.ID, ChannelID: req.ChannelID, UserIDs: []string{u}, JoinedAt: now}
			ids = append(ids, seat)
		}
		teams, p, err := s.groupTeams(ctx, qt, q, req, ids, tickets)
		if err != nil {
			return err
		}
		l, err := qt.Lobby(ctx, q.ID)
		if err != nil {
			return err
		}
		source := req.Source
		if source == "" {
			source = "queue"
		}
		m, err := s.CreateMatchTx(ctx, qt, NewMatch{GuildID: q.GuildID, QueueID: q.ID, Teams: teams,
			Quality: p.Quality, ChannelID: req.ChannelID, Source: source, Drafted: drafted(l, q)})
		if err != nil {
			return err
		}
		rc, err := s.openReadyCheck(ctx, qt, m, l, ids, tickets, now)
		if err != nil {
			return err
		}
		d, err := s.openDraft(ctx, qt, m, l, rc, now)
		if err != nil {
			return err
		}
		if req.Within != nil {
			if err := req.Within(ctx, qt, m); err != nil {
				return err
			}
		}
		f = FormedMatch{Match: m, Proposal: p, Queue: q, Ready: rc, Draft: d}
		return nil
	})
	if err != nil {
		return FormedMatch{}, fmt.Errorf("ladder: form group: %w", err)
	}
	return f, nil
}

// groupTeams are the group's teams — as asked, or split again as evenly
// as the matchmaker's ratings allow — and the proposal that explains them.
func (s *Service) groupTeams(ctx context.Context, qt Tx, q Queue, req GroupRequest, ids []int64, tickets map[int64]Ticket) ([2][]string, matchmaking.Proposal, error) {
	ts := make([]Ticket, len(ids))
	for i, id := range ids {
		ts[i] = tickets[id]
		ts[i].ID = id
	}
	entries, err := s.queueEntries(ctx, qt, q, ts, s.now())
	if err != nil {
		return [2][]string{}, matchmaking.Proposal{}, err
	}
	members := make([]matchmaking.Member, len(entries))
	for i, e := range entries {
		members[i] = e.Members[0]
	}
	teams := [2][]string{slices.Clone(req.Teams[0]), slices.Clone(req.Teams[1])}
	if req.Rebalance {
		ratings := make([]float64, len(members))
		for i, m := range members {
			ratings[i] = m.Rating
		}
		split, err := matchmaking.BalanceLobby(ratings, q.TeamSize)
		if err != nil {
			return [2][]string{}, matchmaking.Proposal{}, Errorf(CodeInvalid, "cannot split the group: %v", err)
		}
		teams = [2][]string{nil, nil}
		for _, i := range split.A {
			teams[0] = append(teams[0], members[i].UserID)
		}
		for _, i := range split.B {
			teams[1] = append(teams[1], members[i].UserID)
		}
	}
	by := make(map[string]matchmaking.Member, len(members))
	for _, m := range members {
		by[m.UserID] = m
	}
	var side [2][]matchmaking.Member
	for t := range 2 {
		for _, u := range teams[t] {
			side[t] = append(side[t], by[u])
		}
	}
	ev := q.Matchmaking().Evaluate(side[0], side[1])
	return teams, matchmaking.Proposal{EntryIDs: ids, Teams: teams, Quality: ev.Quality, DeltaEff: ev.DeltaEff, REff: ev.REff}, nil
}

// ClearQueue takes every ticket off a queue — its open hours ended — and
// returns them, so their players can be told.
func (s *Service) ClearQueue(ctx context.Context, queueID int64) ([]Ticket, error) {
	var out []Ticket
	err := s.inQueueTx(ctx, func(qt Tx) error {
		if err := qt.LockQueue(ctx, queueID); err != nil {
			return err
		}
		ts, err := qt.Tickets(ctx, queueID)
		if err != nil || len(ts) == 0 {
			out = nil
			return err
		}
		ids := make([]int64, len(ts))
		for i, t := range ts {
			ids[i] = t.ID
		}
		out = ts
		return qt.DeleteTickets(ctx, ids)
	})
	if err != nil {
		return nil, fmt.Errorf("ladder: clear queue %d: %w", queueID, err)
	}
	return out, nil
}
