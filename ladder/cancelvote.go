package ladder

import (
	"context"
	"fmt"
	"math"
	"time"
)

// CancelVoteResult answers a cancel vote: the votes so far, how many are
// needed, and whether this vote cancelled the match.
type CancelVoteResult struct {
	Match       Match
	Votes       []string
	Needed      int
	Cancelled   bool
	AlreadyDone bool
}

// minAbandonAfter is the lowest abandon_after Lobby.Validate accepts, so
// the job never looks at matches younger than it.
const minAbandonAfter = 10 * time.Minute

// votesNeeded is the smallest number of votes above share of n players.
func votesNeeded(share float64, n int) int {
	return min(n, int(math.Floor(share*float64(n)))+1)
}

// CancelVote records a player's vote to cancel their match (id 0: their
// open match). When the votes pass the queue's share (a majority by
// default) the match is cancelled, never rated, and audited. Voting twice
// answers AlreadyDone.
func (s *Service) CancelVote(ctx context.Context, actor Actor, guildID string, matchID int64) (CancelVoteResult, error) {
	var res CancelVoteResult
	err := s.store.InTx(ctx, func(lt Tx) error {
		res = CancelVoteResult{}
		m, err := lockPlayerMatch(ctx, lt, guildID, actor.UserID, matchID)
		if err != nil {
			return err
		}
		res.Match = m
		if m.Team(actor.UserID) == 0 {
			return Errorf(CodeForbidden, "you are not a player of match %d", m.ID)
		}
		if m.State == StateCancelled {
			res.AlreadyDone, res.Cancelled = true, true
			res.Votes, err = lt.CancelVotes(ctx, m.ID)
			return err
		}
		if !m.State.Active() {
			return Errorf(CodeConflict, "match %d is %s and cannot be cancelled by a vote", m.ID, m.State)
		}
		l, err := lt.Lobby(ctx, m.QueueID)
		if err != nil {
			return err
		}
		now := s.now()
		added, err := lt.AddCancelVote(ctx, m.ID, actor.UserID, now)
		if err != nil {
			return err
		}
		if res.Votes, err = lt.CancelVotes(ctx, m.ID); err != nil {
			return err
		}
		res.Needed = votesNeeded(l.CancelShare, len(m.Players()))
		res.AlreadyDone = !added
		if len(res.Votes) < res.Needed {
			return nil
		}
		before := m
		m.State, m.ResolvedBy = StateCancelled, System.UserID
		if err := lt.UpdateMatch(ctx, m); err != nil {
			return err
		}
		if rc, err := lt.ReadyCheck(ctx, m.ID); err == nil && rc.State == ReadyPending {
			if _, err := lt.SetReadyState(ctx, m.ID, ReadyFailed); err != nil {
				return err
			}
		}
		res.Match, res.Cancelled, res.AlreadyDone = m, true, false
		return audit(ctx, lt, AuditEntry{GuildID: guildID, ActorID: actor.UserID, Action: "match.cancel_vote", MatchID: m.ID,
			At: now}.because(cancelVoteReason(len(res.Votes), len(m.Players()))), matchAudit(before), matchAudit(m))
	})
	if err != nil {
		return CancelVoteResult{}, fmt.Errorf("ladder: cancel vote: %w", err)
	}
	return res, nil
}

// AbandonMatches cancels the open matches nobody reported within their
// queue's abandon_after of being formed (the abandon job), never rated and
// audited, and returns them so their channels can be told. A match whose
// players are still in a ready check is the ready check's to end.
func (s *Service) AbandonMatches(ctx context.Context) ([]Match, error) {
	now := s.now()
	var cands []Match
	err := s.store.InTx(ctx, func(lt Tx) error {
		var err error
		cands, err = lt.OpenMatchesBefore(ctx, now.Add(-minAbandonAfter), 500)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("ladder: abandon matches: %w", err)
	}
	var out []Match
	for _, c := range cands {
		var done *Match
		err := s.store.InTx(ctx, func(lt Tx) error {
			done = nil
			l, err := lt.Lobby(ctx, c.QueueID)
			if err != nil {
				return err
			}
			m, err := lt.LockMatch(ctx, c.ID)
			if err != nil {
				return err
			}
			if m.State != StateOpen || m.CreatedAt.Add(l.AbandonAfter).After(now) {
				return nil
			}
			if rc, err := lt.ReadyCheck(ctx, m.ID); err == nil && rc.State == ReadyPending {
				return nil
			}
			before := m
			m.State, m.ResolvedBy = StateCancelled, System.UserID
			if err := lt.UpdateMatch(ctx, m); err != nil {
				return err
			}
			done = &m
			return audit(ctx, lt, AuditEntry{GuildID: m.GuildID, ActorID: System.UserID, Action: "match.abandon", MatchID: m.ID,
				At: now}.because(noReportReason(l.AbandonAfter)), matchAudit(before), matchAudit(m))
		})
		if err != nil {
			return out, fmt.Errorf("ladder: abandon match %d: %w", c.ID, err)
		}
		if done != nil {
			out = append(out, *done)
		}
	}
	return out, nil
}
