package ladder

import (
	"github.com/ladderbot/ladderbot/ladder/matchmaking"

	"context"
	"fmt"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"slices"
	"time"
)

// Matchmake runs one matchmaking pass over a queue (docs/spec.md 3) and opens the
// matches it forms. The pass and the match creation are one transaction
// holding the queue's lock, so two processes never form matches from the
// same tickets; the tickets of each formed match leave the queue in the
// same transaction that opens the match.
func (s *Service) Matchmake(ctx context.Context, queueID int64) ([]FormedMatch, error) {
	var formed []FormedMatch
	err := s.inQueueTx(ctx, func(qt Tx) error {
		var err error
		formed, err = s.matchmakeTx(ctx, qt, queueID, nil)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("ladder: matchmake queue %d: %w", queueID, err)
	}
	return formed, nil
}

// matchmakeTx is Matchmake's pass inside the caller's transaction: a join
// that adds a ticket runs it in its own transaction, so that queueing and
// the pass the new ticket calls for are one commit rather than two. known,
// when not nil, is the queue as the transaction read it already.
func (s *Service) matchmakeTx(ctx context.Context, qt Tx, queueID int64, known *Queue) ([]FormedMatch, error) {
	if err := qt.LockQueue(ctx, queueID); err != nil {
		return nil, err
	}
	var q Queue
	if known != nil && known.ID == queueID {
		q = *known
	} else {
		var err error
		if q, err = qt.Queue(ctx, queueID); err != nil {
			return nil, err
		}
	}
	ts, err := qt.Tickets(ctx, queueID)
	if err != nil || queuedPlayers(ts) < 2*q.TeamSize {
		return nil, err // too few to form a match: skip loading ratings
	}
	if ts, err = dropBusy(ctx, qt, q.GuildID, ts); err != nil || queuedPlayers(ts) < 2*q.TeamSize {
		return nil, err
	}
	now := s.now()
	entries, err := s.queueEntries(ctx, qt, q, ts, now)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]Ticket, len(ts))
	for _, t := range ts {
		byID[t.ID] = t
	}
	proposals, err := s.formMatches(ctx, qt, q, entries, now)
	if err != nil {
		return nil, err
	}
	var formed []FormedMatch
	for _, p := range proposals {
		if err := qt.DeleteTickets(ctx, p.EntryIDs); err != nil {
			return nil, err
		}
		channel := q.ChannelID
		if channel == "" {
			channel = byID[p.EntryIDs[0]].ChannelID
		}
		l, err := qt.Lobby(ctx, q.ID)
		if err != nil {
			return nil, err
		}
		m, err := s.CreateMatchTx(ctx, qt, NewMatch{GuildID: q.GuildID, QueueID: q.ID, Teams: p.Teams,
			Quality: p.Quality, ChannelID: channel, Source: "queue", Drafted: drafted(l, q)})
		if err != nil {
			return nil, err
		}
		if err := qt.RecordWait(ctx, m.ID, q.ID, meanWait(p.EntryIDs, byID, now), now); err != nil {
			return nil, err
		}
		rc, err := s.openReadyCheck(ctx, qt, m, l, p.EntryIDs, byID, now)
		if err != nil {
			return nil, err
		}
		d, err := s.openDraft(ctx, qt, m, l, rc, now)
		if err != nil {
			return nil, err
		}
		formed = append(formed, FormedMatch{Match: m, Proposal: p, Queue: q, Ready: rc, Draft: d})
	}
	return formed, nil
}

// dropBusy deletes the tickets of players who are in an open or reported
// match — a moderator may have opened one for a queued player — so that
// the pass never tries to put anyone in a second active match, which the
// database would refuse and so fail the whole pass.
func dropBusy(ctx context.Context, qt Tx, guildID string, ts []Ticket) ([]Ticket, error) {
	var users []string
	for _, t := range ts {
		users = append(users, t.UserIDs...)
	}
	active, err := qt.ActivePlayers(ctx, guildID, users)
	if err != nil || len(active) == 0 {
		return ts, err
	}
	var drop []int64
	keep := ts[:0:0]
	for _, t := range ts {
		if slices.ContainsFunc(t.UserIDs, func(u string) bool { return slices.Contains(active, u) }) {
			drop = append(drop, t.ID)
		} else {
			keep = append(keep, t)
		}
	}
	return keep, qt.DeleteTickets(ctx, drop)
}

// meanWait is how long the players of a match's tickets had waited, on
// average, at now.
func meanWait(ids []int64, byID map[int64]Ticket, now time.Time) time.Duration {
	var sum time.Duration
	n := 0
	for _, id := range ids {
		t := byID[id]
		sum += time.Duration(len(t.UserIDs)) * now.Sub(t.JoinedAt)
		n += len(t.UserIDs)
	}
	if n == 0 {
		return 0
	}
	return sum / time.Duration(n)
}

func queuedPlayers(ts []Ticket) int {
	n := 0
	for _, t := range ts {
		n += len(t.UserIDs)
	}
	return n
}

// queueEntries turns tickets into matchmaking entries with each member's
// current rating and deviation in the queue's ladder. Team-glicko's RD is
// grown for the time idle (docs/spec.md 2.1 step 1), as the match would see it.
func (s *Service) queueEntries(ctx context.Context, qt Tx, q Queue, ts []Ticket, now time.Time) ([]matchmaking.Entry, error) {
	season, err := qt.CurrentSeason(ctx, q.GuildID)
	if err != nil {
		return nil, err
	}
	model, err := modelFor(q)
	if err != nil {
		return nil, err
	}
	var users []string
	for _, t := range ts {
		users = append(users, t.UserIDs...)
	}
	rs, err := qt.Ratings(ctx, Key{QueueID: q.ID, SeasonID: season.ID}, users)
	if err != nil {
		return nil, err
	}
	states := make(map[string]rating.State, len(rs))
	for _, r := range rs {
		states[r.UserID] = r.State
	}
	tg, _ := rating.Unwrap(model).(*rating.TeamGlicko)
	members := make([]matchmaking.Member, 0, len(users))
	entries := make([]matchmaking.Entry, 0, len(ts))
	for _, t := range ts {
		start := len(members)
		for _, u := range t.UserIDs {
			st, ok := states[u]
			if !ok {
				st = model.New()
			}
			m := matchmaking.Member{UserID: u, Rating: st.Rating, RD: st.Dev}
			if tg != nil {
				m.RD = tg.GrownRD(&st, now)
			} else {
				m.Rating, m.RD = model.Display(st)
			}
			members = append(members, m)
		}
		entries = append(entries, matchmaking.Entry{ID: t.ID, Members: members[start:len(members):len(members)], JoinedAt: t.JoinedAt})
	}
	return entries, nil
}

// MatchmakeAll runs Matchmake on every queue that has tickets; the
// scheduler calls it every few seconds so that q_min widens for waiting
// players even when nobody joins.
func (s *Service) MatchmakeAll(ctx context.Context) ([]FormedMatch, error) {
	var ids []int64
	err := s.inQueueTx(ctx, func(qt Tx) error {
		var err error
		ids, err = qt.QueuesWithTickets(ctx)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("ladder: matchmake: %w", err)
	}
	var all []FormedMatch
	for _, id := range ids {
		f, err := s.Matchmake(ctx, id)
		if err != nil {
			return all, err
		}
		all = append(all, f...)
	}
	return all, nil
}

// ExpireQueue drops the tickets that waited past the guild's queue timeout
// (docs/spec.md 3, default 60 min) and the invitations nobody answered, and returns
// the dropped tickets so their players can be told.
func (s *Service) ExpireQueue(ctx context.Context) ([]Ticket, error) {
	var out []Ticket
	now := s.now()
	err := s.inQueueTx(ctx, func(qt Tx) error {
		out = out[:0]
		if _, err := qt.DeleteExpiredInvites(ctx, now); err != nil {
			return err
		}
		ts, err := qt.ExpiredTickets(ctx, now, 1000)
		if err != nil || len(ts) == 0 {
			return err
		}
		ids := make([]int64, len(ts))
		for i, t := range ts {
			ids[i] = t.ID
		}
		out = append(out, ts...)
		return qt.DeleteTickets(ctx, ids)
	})
	if err != nil {
		return nil, fmt.Errorf("ladder: expire queue: %w", err)
	}
	return out, nil
}

// QueueInfo is one queue's size for /queue status.
type QueueInfo struct {
	Queue   Queue
	Tickets int
	Players int
}

// QueueStatus is what /queue status shows: every queue's size, the
// player's own ticket and wait, and a pending invitation to them.
type QueueStatus struct {
	Queues []QueueInfo
	// Ticket is the player's ticket (ID 0 when not queued); Wait its age.
	Ticket Ticket
	Wait   time.Duration
	// Invite is an invitation waiting for the player (ID 0 when none).
	Invite Invite
}

// QueueStatus returns the guild's queue sizes and userID's place.
func (s *Service) QueueStatus(ctx context.Context, guildID, userID string) (QueueStatus, error) {
	var st QueueStatus
	now := s.now()
	err := s.inQueueTx(ctx, func(qt Tx) error {
		st = QueueStatus{}
		qs, err := qt.Queues(ctx, guildID)
		if err != nil {
			return err
		}
		for _, q := range qs {
			ts, err := qt.Tickets(ctx, q.ID)
			if err != nil {
				return err
			}
			info := QueueInfo{Queue: q, Tickets: len(ts)}
			for _, t := range ts {
				info.Players += len(t.UserIDs)
			}
			st.Queues = append(st.Queues, info)
		}
		if userID == "" {
			return nil
		}
		t, err := qt.TicketOf(ctx, guildID, userID)
		switch {
		case err == nil:
			st.Ticket, st.Wait = t, now.Sub(t.JoinedAt)
		case ErrorCode(err) != CodeNotFound:
			return err
		}
		in, err := qt.InviteTo(ctx, guildID, userID)
		switch {
		case err == nil && now.Before(in.ExpiresAt):
			st.Invite = in
		case err != nil && ErrorCode(err) != CodeNotFound:
			return err
		}
		return nil
	})
	if err != nil {
		return QueueStatus{}, fmt.Errorf("ladder: queue status: %w", err)
	}
	return st, nil
}

// BanFromQueue keeps a player out of the guild's queues until until (zero:
// until unbanned) and takes them off the queue (moderators only, audited).
func (s *Service) BanFromQueue(ctx context.Context, actor Actor, guildID, userID string, until time.Time, reason string) error {
	if !actor.Moderator {
		return Errorf(CodeForbidden, "only moderators can ban from the queue")
	}
	if err := validateSnowflake("user", userID); err != nil {
		return err
	}
	reason, err := CheckReason(reason)
	if err != nil {
		return err
	}
	now := s.now()
	err = s.inQueueTx(ctx, func(qt Tx) error {
		// A join upserts the player's row before it reads the bans and
		// keeps the row locked until it commits (an upsert locks the row
		// it meets even when it writes nothing). Taking the same row first
		// orders the ban with a join in another process: a join before
		// the ban has its ticket committed when the ban reads it below,
		// and a join after it reads the ban. Otherwise a join that read
		// "not banned" while the ban ran committed its ticket after the
		// ban had looked for one, and the banned player stayed queued.
		if err := qt.UpsertPlayers(ctx, []Player{{GuildID: guildID, UserID: userID}}); err != nil {
			return err
		}
		b := QueueBan{GuildID: guildID, UserID: userID, Until: until, Reason: reason, BannedBy: actor.UserID, CreatedAt: now}
		if err := qt.SaveBan(ctx, b); err != nil {
			return err
		}
		if t, err := qt.TicketOf(ctx, guildID, userID); err == nil {
			if err := qt.DeleteTickets(ctx, []int64{t.ID}); err != nil {
				return err
			}
		} else if ErrorCode(err) != CodeNotFound {
			return err
		}
		if err := qt.DeleteInvites(ctx, guildID, userID); err != nil {
			return err
		}
		return audit(ctx, qt, AuditEntry{GuildID: guildID, ActorID: actor.UserID, Action: "queue_ban", Target: userID, Reason: reason, At: now}, nil, b)
	})
	if err != nil {
		return fmt.Errorf("ladder: queue ban: %w", err)
	}
	return nil
}

// UnbanFromQueue lifts a queue ban (moderators only, audited).
func (s *Service) UnbanFromQueue(ctx context.Context, actor Actor, guildID, userID string) error {
	if !actor.Moderator {
		return Errorf(CodeForbidden, "only moderators can lift a queue ban")
	}
	now := s.now()
	err := s.inQueueTx(ctx, func(qt Tx) error {
		if err := qt.DeleteBan(ctx, guildID, userID); err != nil {
			return reword(err, CodeNotFound, "<@%s> is not banned from the queue", userID)
		}
		return audit(ctx, qt, AuditEntry{GuildID: guildID, ActorID: actor.UserID, Action: "queue_unban", Target: userID, At: now}, nil, nil)
	})
	if err != nil {
		return fmt.Errorf("ladder: queue unban: %w", err)
	}
	return nil
}
