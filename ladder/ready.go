package ladder

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// openReadyCheck starts the ready check of a match the queue just formed,
// in the matchmaking transaction, when the queue's ready window is on. It
// keeps each player's ticket and original join time so that a failed check
// puts the ready ones back at the front of the queue.
func (s *Service) openReadyCheck(ctx context.Context, lt Tx, m Match, l Lobby, entryIDs []int64, tickets map[int64]Ticket, now time.Time) (ReadyCheck, error) {
	if l.ReadyWindow == 0 {
		return ReadyCheck{}, nil
	}
	rc := ReadyCheck{MatchID: m.ID, GuildID: m.GuildID, QueueID: m.QueueID, Deadline: now.Add(l.ReadyWindow), State: ReadyPending}
	for i, id := range entryIDs {
		t := tickets[id]
		for _, u := range t.UserIDs {
			rc.Seats = append(rc.Seats, Seat{UserID: u, Ticket: i, JoinedAt: t.JoinedAt, ChannelID: t.ChannelID})
		}
	}
	return rc, lt.AddReadyCheck(ctx, rc)
}

// ReadyResult answers a Ready or Not ready click and each check the
// deadline job closes.
type ReadyResult struct {
	Match Match
	Check ReadyCheck
	// AlreadyDone says the click changed nothing (already ready, or the
	// check is over); Check.State then says how it ended.
	AlreadyDone bool
	// Requeued are the tickets of the ready players put back at the front
	// of the queue when the check failed; Penalised the cooldowns given.
	Requeued  []Ticket
	Penalised []Cooldown
	// Draft is the match's captains draft, started when the check
	// passed; MatchID 0 when the queue picks balanced teams.
	Draft Draft
}

// Ready records a player's answer to a match's ready check. Ready marks
// them ready and, when everyone is, the match is on; Not ready (ready
// false) fails the check at once: the match is cancelled, the others go
// back to the queue and the player gets a cooldown. The match row's lock
// orders a click against the deadline job and other clicks, across
// processes, so the check ends once.
func (s *Service) Ready(ctx context.Context, actor Actor, guildID string, matchID int64, ready bool) (ReadyResult, error) {
	var res ReadyResult
	err := s.store.InTx(ctx, func(lt Tx) error {
		res = ReadyResult{}
		m, err := lockGuildMatch(ctx, lt, guildID, matchID)
		if err != nil {
			return err
		}
		rc, err := lt.ReadyCheck(ctx, m.ID)
		if ErrorCode(err) == CodeNotFound {
			return Errorf(CodeConflict, "match %d has no ready check", m.ID)
		}
		if err != nil {
			return err
		}
		res.Match, res.Check = m, rc
		if !rc.Seated(actor.UserID) {
			return Errorf(CodeForbidden, "you are not a player of match %d", m.ID)
		}
		now := s.now()
		switch {
		case rc.State != ReadyPending:
			res.AlreadyDone = true
			return nil
		case m.State != StateOpen:
			// A moderator ended the match during its check (voided it):
			// the check ended with it, and a click must not cancel it.
			return Errorf(CodeConflict, "match %d is %s; its ready check is over", m.ID, m.State)
		case !rc.Deadline.After(now):
			// The deadline passed and the job has not run yet: close the
			// check as the job would, whatever was clicked.
			return s.failReadyCheck(ctx, lt, &res, rc.Missing(), ReasonReadyMissed, now)
		case !ready:
			return s.failReadyCheck(ctx, lt, &res, []string{actor.UserID}, ReasonReadyDeclined, now)
		case rc.IsReady(actor.UserID):
			res.AlreadyDone = true
			return nil
		}
		if err := lt.SetReady(ctx, m.ID, actor.UserID, now); err != nil {
			return err
		}
		for i := range rc.Seats {
			if rc.Seats[i].UserID == actor.UserID {
				rc.Seats[i].ReadyAt = now
			}
		}
		res.Check = rc
		if len(rc.Missing()) > 0 {
			return nil
		}
		won, err := lt.SetReadyState(ctx, m.ID, ReadyPassed)
		if err != nil {
			return err
		}
		if !won {
			return Errorf(CodeConflict, "the ready check of match %d changed meanwhile; try again", m.ID)
		}
		res.Check.State = ReadyPassed
		res.Draft, err = s.startDraft(ctx, lt, m, now)
		return err
	})
	if err != nil {
		return ReadyResult{}, fmt.Errorf("ladder: ready: %w", err)
	}
	return res, nil
}

// failReadyCheck ends a pending check as failed: the match is cancelled
// (never rated), the ready players go back to the queue with their
// original join time, so ahead of everyone who joined after them, and the
// missing ones get the next cooldown of their escalation. cause is
// ReasonReadyMissed or ReasonReadyDeclined. Every step is audited.
func (s *Service) failReadyCheck(ctx context.Context, lt Tx, res *ReadyResult, missing []string, cause string, now time.Time) error {
	m, rc := res.Match, res.Check
	won, err := lt.SetReadyState(ctx, m.ID, ReadyFailed)
	if err != nil {
		return err
	}
	if !won {
		return Errorf(CodeConflict, "the ready check of match %d changed meanwhile; try again", m.ID)
	}
	rc.State = ReadyFailed
	before := m
	m.State, m.ResolvedBy = StateCancelled, System.UserID
	if err := lt.UpdateMatch(ctx, m); err != nil {
		return err
	}
	if err := audit(ctx, lt, AuditEntry{GuildID: m.GuildID, ActorID: System.UserID, Action: "match.cancel", MatchID: m.ID,
		At: now}.because(readyFailedReason(missing, cause)), matchAudit(before), matchAudit(m)); err != nil {
		return err
	}
	g, err := lt.Guild(ctx, m.GuildID)
	if err != nil {
		return err
	}
	groups := map[int]*Ticket{}
	var order []int
	for _, seat := range rc.Seats {
		if slices.Contains(missing, seat.UserID) {
			continue
		}
		t, ok := groups[seat.Ticket]
		if !ok {
			t = &Ticket{GuildID: m.GuildID, QueueID: m.QueueID, ChannelID: seat.ChannelID, JoinedAt: seat.JoinedAt, ExpiresAt: now.Add(queueTimeout(g))}
			groups[seat.Ticket] = t
			order = append(order, seat.Ticket)
		}
		t.UserIDs = append(t.UserIDs, seat.UserID)
	}
	for _, i := range order {
		t, err := lt.AddTicket(ctx, *groups[i])
		if err != nil {
			return err
		}
		res.Requeued = append(res.Requeued, t)
	}
	l, err := lt.Lobby(ctx, m.QueueID)
	if err != nil {
		return err
	}
	if res.Penalised, err = s.penalise(ctx, lt, l, m, missing, Reason{Key: cause}, now); err != nil {
		return err
	}
	res.Match, res.Check = m, rc
	return nil
}

// ExpireReadyChecks fails every pending ready check whose deadline has
// passed (the ready-check job). Checks are rows, so a check that ran out
// while every process was down is closed at the next start. A click that
// wins the race against the job leaves it nothing to do.
func (s *Service) ExpireReadyChecks(ctx context.Context) ([]ReadyResult, error) {
	var due []int64
	err := s.store.InTx(ctx, func(lt Tx) error {
		var err error
		due, err = lt.DueReadyChecks(ctx, s.now(), 200)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("ladder: expire ready checks: %w", err)
	}
	var out []ReadyResult
	for _, id := range due {
		var res ReadyResult
		err := s.store.InTx(ctx, func(lt Tx) error {
			res = ReadyResult{}
			m, err := lt.LockMatch(ctx, id)
			if err != nil {
				return err
			}
			rc, err := lt.ReadyCheck(ctx, id)
			if err != nil {
				return err
			}
			now := s.now()
			res.Match, res.Check = m, rc
			if rc.State != ReadyPending || rc.Deadline.After(now) {
				res.AlreadyDone = true
				return nil
			}
			if m.State != StateOpen {
				// The match ended during its check (a moderator voided
				// it): the check ends too, without cancelling the match,
				// requeueing anyone or penalising the missing.
				res.AlreadyDone = true
				_, err := lt.SetReadyState(ctx, m.ID, ReadyFailed)
				return err
			}
			return s.failReadyCheck(ctx, lt, &res, rc.Missing(), ReasonReadyMissed, now)
		})
		if err != nil {
			return out, fmt.Errorf("ladder: expire ready check of match %d: %w", id, err)
		}
		if !res.AlreadyDone {
			out = append(out, res)
		}
	}
	return out, nil
}

// ReadyCheck returns a match's ready check; CodeNotFound when it has none.
func (s *Service) ReadyCheck(ctx context.Context, guildID string, matchID int64) (ReadyCheck, error) {
	var rc ReadyCheck
	err := s.store.InTx(ctx, func(lt Tx) error {
		var err error
		rc, err = lt.ReadyCheck(ctx, matchID)
		return err
	})
	if err != nil {
		return ReadyCheck{}, fmt.Errorf("ladder: ready check: %w", err)
	}
	if rc.GuildID != guildID {
		return ReadyCheck{}, Errorf(CodeNotFound, "match %d has no ready check", matchID)
	}
	return rc, nil
}

// refuseUntilStarted refuses a report (or a substitute, a no-show) of a
// match that is not on yet: until everyone is ready and the captains
// have picked their teams, there is no match to report.
func refuseUntilStarted(ctx context.Context, tx Tx, m Match) error {
	if m.Source != "queue" {
		return nil
	}
	rc, err := tx.ReadyCheck(ctx, m.ID)
	switch {
	case ErrorCode(err) == CodeNotFound:
	case err != nil:
		return err
	case rc.State == ReadyPending:
		return Errorf(CodeConflict, "match %d has not started: everyone must click Ready first", m.ID)
	}
	return refuseWhileDrafting(ctx, tx, m)
}
