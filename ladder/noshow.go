package ladder

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// NoShow is a side's report that players of an open match never showed up.
// The other side confirms it or disputes the match as with any
// report; at Deadline it confirms itself, as reports do (docs/spec.md 5).
type NoShow struct {
	MatchID    int64
	ReportedBy string
	Absent     []string
	CreatedAt  time.Time
	Deadline   time.Time
	// State is "pending", then "confirmed".
	State string
}

// NoShowStore is the persistence of no-show reports, one of the concerns of Tx.
type NoShowStore interface {
	// AddNoShow stores a pending report; a match has at most one (CodeConflict).
	AddNoShow(ctx context.Context, n NoShow) error
	// NoShow returns a match's report; CodeNotFound when none.
	NoShow(ctx context.Context, matchID int64) (NoShow, error)
	// ConfirmNoShowRow moves a pending report to confirmed and answers
	// false when it was not pending.
	ConfirmNoShowRow(ctx context.Context, matchID int64) (bool, error)
	// DueNoShows returns up to limit pending reports whose deadline is not after t.
	DueNoShows(ctx context.Context, t time.Time, limit int) ([]int64, error)
}

// NoShowResult answers a no-show report or its confirmation.
type NoShowResult struct {
	Match       Match
	NoShow      NoShow
	Penalised   []Cooldown
	AlreadyDone bool
}

// ReportNoShow records that absent players of the actor's open match (id 0:
// the open one) never showed up. The match must be on (its ready check
// passed); the reporter cannot name themselves. Repeating the same report
// answers AlreadyDone.
func (s *Service) ReportNoShow(ctx context.Context, actor Actor, guildID string, matchID int64, absent []string) (NoShowResult, error) {
	var res NoShowResult
	err := s.store.InTx(ctx, func(tx Tx) error {
		res = NoShowResult{}
		m, err := lockPlayerMatch(ctx, tx, guildID, actor.UserID, matchID)
		if err != nil {
			return err
		}
		if m.Team(actor.UserID) == 0 {
			return Errorf(CodeForbidden, "you are not a player of match %d", m.ID)
		}
		if err := subbable(ctx, tx, m); err != nil {
			return err
		}
		absent = slices.Compact(slices.Sorted(slices.Values(absent)))
		if len(absent) == 0 {
			return Errorf(CodeInvalid, "name the players who did not show up")
		}
		for _, u := range absent {
			if u == actor.UserID {
				return Errorf(CodeInvalid, "you cannot report yourself as absent")
			}
			if m.Team(u) == 0 {
				return Errorf(CodeInvalid, "<@%s> is not a player of match %d", u, m.ID)
			}
		}
		if n, err := tx.NoShow(ctx, m.ID); err == nil {
			if n.ReportedBy == actor.UserID && slices.Equal(n.Absent, absent) {
				res = NoShowResult{Match: m, NoShow: n, AlreadyDone: true}
				return nil
			}
			return Errorf(CodeConflict, "a no-show is already reported in match %d; confirm it or dispute the match", m.ID)
		} else if ErrorCode(err) != CodeNotFound {
			return err
		}
		g, err := tx.Guild(ctx, guildID)
		if err != nil {
			return err
		}
		now := s.now()
		n := NoShow{MatchID: m.ID, ReportedBy: actor.UserID, Absent: absent, CreatedAt: now, Deadline: now.Add(g.ConfirmWindow), State: "pending"}
		if err := tx.AddNoShow(ctx, n); err != nil {
			return err
		}
		res = NoShowResult{Match: m, NoShow: n}
		return audit(ctx, tx, AuditEntry{GuildID: guildID, ActorID: actor.UserID, Action: "noshow.report", MatchID: m.ID, At: now}, nil, n)
	})
	if err != nil {
		return NoShowResult{}, fmt.Errorf("ladder: report no-show: %w", err)
	}
	return res, nil
}

// ConfirmNoShow accepts a reported no-show: the match is cancelled, never
// rated, and the absent players get the next cooldown of their
// escalation. Only a present player of the other side than the reporter,
// or a moderator, confirms; confirming again answers AlreadyDone.
func (s *Service) ConfirmNoShow(ctx context.Context, actor Actor, guildID string, matchID int64) (NoShowResult, error) {
	var res NoShowResult
	err := s.store.InTx(ctx, func(tx Tx) error {
		res = NoShowResult{}
		m, err := lockGuildMatch(ctx, tx, guildID, matchID)
		if err != nil {
			return err
		}
		n, err := tx.NoShow(ctx, m.ID)
		if err != nil {
			return err
		}
		team := m.Team(actor.UserID)
		switch {
		case actor.Moderator || actor == System:
		case team == 0:
			return Errorf(CodeForbidden, "you are not a player of match %d", m.ID)
		case team == m.Team(n.ReportedBy) || slices.Contains(n.Absent, actor.UserID):
			return Errorf(CodeForbidden, "a present player of the other team must confirm the no-show in match %d", m.ID)
		}
		return s.confirmNoShow(ctx, tx, actor, m, n, &res)
	})
	if err != nil {
		return NoShowResult{}, fmt.Errorf("ladder: confirm no-show: %w", err)
	}
	return res, nil
}

func (s *Service) confirmNoShow(ctx context.Context, tx Tx, actor Actor, m Match, n NoShow, res *NoShowResult) error {
	res.Match, res.NoShow = m, n
	if n.State != "pending" || m.State == StateCancelled {
		res.AlreadyDone = true
		return nil
	}
	if m.State != StateOpen {
		return Errorf(CodeConflict, "match %d is %s; a moderator settles it", m.ID, m.State)
	}
	if _, err := tx.ConfirmNoShowRow(ctx, m.ID); err != nil {
		return err
	}
	now := s.now()
	before := m
	m.State, m.ResolvedBy = StateCancelled, actor.UserID
	if err := tx.UpdateMatch(ctx, m); err != nil {
		return err
	}
	if err := audit(ctx, tx, AuditEntry{GuildID: m.GuildID, ActorID: actor.UserID, Action: "noshow.confirm", MatchID: m.ID,
		At: now}.because(noShowOfReason(n.Absent)), matchAudit(before), matchAudit(m)); err != nil {
		return err
	}
	l, err := tx.Lobby(ctx, m.QueueID)
	if err != nil {
		return err
	}
	res.Penalised, err = s.penalise(ctx, tx, l, m, n.Absent, Reason{Key: ReasonNoShow}, now)
	res.Match, res.NoShow.State = m, "confirmed"
	return err
}

// ExpireNoShows confirms the no-show reports nobody answered by their
// deadline, as the auto-confirm job does for results.
func (s *Service) ExpireNoShows(ctx context.Context) ([]NoShowResult, error) {
	due, err := s.store.DueNoShows(ctx, s.now(), 200)
	if err != nil {
		return nil, fmt.Errorf("ladder: expire no-shows: %w", err)
	}
	var out []NoShowResult
	for _, id := range due {
		var res NoShowResult
		err := s.store.InTx(ctx, func(tx Tx) error {
			res = NoShowResult{}
			m, err := tx.LockMatch(ctx, id)
			if err != nil {
				return err
			}
			n, err := tx.NoShow(ctx, id)
			if err != nil {
				return err
			}
			if n.Deadline.After(s.now()) || m.State != StateOpen {
				res.AlreadyDone = true
				return nil
			}
			return s.confirmNoShow(ctx, tx, System, m, n, &res)
		})
		if err != nil {
			return out, fmt.Errorf("ladder: expire no-show of match %d: %w", id, err)
		}
		if !res.AlreadyDone {
			out = append(out, res)
		}
	}
	return out, nil
}
