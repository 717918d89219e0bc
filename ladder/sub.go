package ladder

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/ladderbot/ladderbot/ladder/rating"
)

// SubRequest is a player's request to be replaced in an open match.
type SubRequest struct {
	MatchID   int64
	UserID    string
	CreatedAt time.Time
	// FilledBy is who took the seat; "" while the request is open.
	FilledBy string
	FilledAt time.Time
}

// SubStore is the persistence of substitutes, one of the concerns of Tx.
type SubStore interface {
	// AddSubRequest stores a request and answers false when the player
	// already has one for the match.
	AddSubRequest(ctx context.Context, r SubRequest) (bool, error)
	// SubRequests returns a match's requests, oldest first.
	SubRequests(ctx context.Context, matchID int64) ([]SubRequest, error)
	// FillSubRequest records who took the seat of userID.
	FillSubRequest(ctx context.Context, matchID int64, userID, by string, at time.Time) error
	// ReplacePlayer writes m's teams, in which in has taken out's seat, and
	// moves out's row of the match's players to in. in already in an
	// active match gives CodeConflict.
	ReplacePlayer(ctx context.Context, m Match, out, in string) error
}

// SubResult answers a substitute request, acceptance or a moderator's swap.
type SubResult struct {
	Match Match
	// Out left the seat In took ("" until someone takes it).
	Out, In     string
	AlreadyDone bool
}

// RequestSub asks for a substitute for the actor in their open match (id 0:
// the open one). The match must be on: a match in its ready check is
// settled by the check. Asking again answers AlreadyDone.
func (s *Service) RequestSub(ctx context.Context, actor Actor, guildID string, matchID int64) (SubResult, error) {
	var res SubResult
	err := s.store.InTx(ctx, func(tx Tx) error {
		res = SubResult{}
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
		now := s.now()
		added, err := tx.AddSubRequest(ctx, SubRequest{MatchID: m.ID, UserID: actor.UserID, CreatedAt: now})
		if err != nil {
			return err
		}
		res = SubResult{Match: m, Out: actor.UserID, AlreadyDone: !added}
		if !added {
			return nil
		}
		return audit(ctx, tx, AuditEntry{GuildID: guildID, ActorID: actor.UserID, Action: "sub.request", MatchID: m.ID, Target: actor.UserID, At: now}, nil, nil)
	})
	if err != nil {
		return SubResult{}, fmt.Errorf("ladder: request sub: %w", err)
	}
	return res, nil
}

// subbable refuses a seat change in a match that is not open or whose
// ready check still runs.
func subbable(ctx context.Context, tx Tx, m Match) error {
	if m.State != StateOpen {
		return Errorf(CodeConflict, "match %d is %s: only an open match takes substitutes", m.ID, m.State)
	}
	return refuseUntilStarted(ctx, tx, m)
}

// AcceptSub seats the actor in place of out (out "" the oldest open
// request) in match matchID. The first eligible player wins: not in the
// match, not queued, not in another match, not banned, not on cooldown.
// The match row's lock orders racing accepts, so one takes the seat and
// the others are told it is taken; the same player accepting again
// answers AlreadyDone. The win probability is computed anew; whoever is
// seated when the result is reported is rated, the replaced player not.
func (s *Service) AcceptSub(ctx context.Context, actor Actor, guildID string, matchID int64, out, name string) (SubResult, error) {
	var res SubResult
	err := s.store.InTx(ctx, func(tx Tx) error {
		res = SubResult{}
		m, err := lockGuildMatch(ctx, tx, guildID, matchID)
		if err != nil {
			return err
		}
		rs, err := tx.SubRequests(ctx, m.ID)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(rs, func(r SubRequest) bool { return (out == "" && r.FilledBy == "") || r.UserID == out })
		if i < 0 && out == "" && len(rs) > 0 {
			// Every seat offered is taken: say by whom (the actor, maybe).
			i = slices.IndexFunc(rs, func(r SubRequest) bool { return r.FilledBy == actor.UserID })
			if i < 0 {
				i = len(rs) - 1
			}
		}
		if i < 0 {
			return Errorf(CodeNotFound, "nobody in match %d asked for a substitute", m.ID)
		}
		r := rs[i]
		switch {
		case r.FilledBy == actor.UserID:
			res = SubResult{Match: m, Out: r.UserID, In: actor.UserID, AlreadyDone: true}
			return nil
		case r.FilledBy != "":
			return Errorf(CodeConflict, "<@%s> already took that seat in match %d", r.FilledBy, m.ID)
		}
		now := s.now()
		if err := upsertNames(ctx, tx, guildID, []string{actor.UserID}, nil, map[string]string{actor.UserID: name}); err != nil {
			return err
		}
		before := m
		if m, err = s.seat(ctx, tx, m, r.UserID, actor.UserID, now); err != nil {
			return err
		}
		if err := tx.FillSubRequest(ctx, m.ID, r.UserID, actor.UserID, now); err != nil {
			return err
		}
		res = SubResult{Match: m, Out: r.UserID, In: actor.UserID}
		return audit(ctx, tx, AuditEntry{GuildID: guildID, ActorID: actor.UserID, Action: "sub.accept", MatchID: m.ID, Target: r.UserID, At: now},
			matchAudit(before), matchAudit(m))
	})
	if err != nil {
		return SubResult{}, fmt.Errorf("ladder: accept sub: %w", err)
	}
	return res, nil
}

// ForceSub is a moderator seating in in place of out, with or without a
// request; in must be eligible as for AcceptSub. Audited.
func (s *Service) ForceSub(ctx context.Context, actor Actor, guildID string, matchID int64, out, in string) (SubResult, error) {
	if !actor.Moderator {
		return SubResult{}, Errorf(CodeForbidden, "only moderators can force a substitute")
	}
	if err := validateSnowflake("user", in); err != nil {
		return SubResult{}, err
	}
	var res SubResult
	err := s.store.InTx(ctx, func(tx Tx) error {
		m, err := lockGuildMatch(ctx, tx, guildID, matchID)
		if err != nil {
			return err
		}
		if m.Team(out) == 0 && m.Team(in) != 0 {
			res = SubResult{Match: m, Out: out, In: in, AlreadyDone: true}
			return nil
		}
		now := s.now()
		before := m
		if m, err = s.seat(ctx, tx, m, out, in, now); err != nil {
			return err
		}
		if rs, err := tx.SubRequests(ctx, m.ID); err != nil {
			return err
		} else if slices.ContainsFunc(rs, func(r SubRequest) bool { return r.UserID == out && r.FilledBy == "" }) {
			if err := tx.FillSubRequest(ctx, m.ID, out, in, now); err != nil {
				return err
			}
		}
		res = SubResult{Match: m, Out: out, In: in}
		return audit(ctx, tx, AuditEntry{GuildID: guildID, ActorID: actor.UserID, Action: "sub.force", MatchID: m.ID, Target: out, At: now},
			matchAudit(before), matchAudit(m))
	})
	if err != nil {
		return SubResult{}, fmt.Errorf("ladder: force sub: %w", err)
	}
	return res, nil
}

// seat puts in into out's seat of the locked match m after checking that
// in may play, and stores the new teams and win probability.
func (s *Service) seat(ctx context.Context, tx Tx, m Match, out, in string, now time.Time) (Match, error) {
	if err := subbable(ctx, tx, m); err != nil {
		return Match{}, err
	}
	team := m.Team(out)
	if team == 0 {
		return Match{}, Errorf(CodeNotFound, "<@%s> is not a player of match %d", out, m.ID)
	}
	if m.Team(in) != 0 {
		return Match{}, Errorf(CodeConflict, "<@%s> already plays in match %d", in, m.ID)
	}
	t, err := s.free(ctx, tx, m.GuildID, in, now)
	if err != nil {
		return Match{}, err
	}
	if t.ID != 0 {
		return Match{}, Errorf(CodeConflict, "<@%s> is queued; leave the queue first to take a seat", in)
	}
	m.Teams = [2][]string{slices.Clone(m.Teams[0]), slices.Clone(m.Teams[1])}
	m.Teams[team-1][slices.Index(m.Teams[team-1], out)] = in
	if m.PTeam1, m.PRaw, err = s.predict(ctx, tx, m, now); err != nil {
		return Match{}, err
	}
	if err := tx.ReplacePlayer(ctx, m, out, in); err != nil {
		return Match{}, err
	}
	return m, tx.UpdateMatch(ctx, m)
}

// predict is the chance shown that team 1 of m wins, from the current
// ratings and calibrated on the queue's log as when a match opens, and the
// model's raw prediction it calibrates.
func (s *Service) predict(ctx context.Context, tx Tx, m Match, now time.Time) (shown, raw float64, err error) {
	q, err := tx.Queue(ctx, m.QueueID)
	if err != nil {
		return 0, 0, err
	}
	model, err := modelFor(q)
	if err != nil {
		return 0, 0, err
	}
	rs, err := tx.Ratings(ctx, Key{QueueID: m.QueueID, SeasonID: m.SeasonID}, m.Players())
	if err != nil {
		return 0, 0, err
	}
	var teams [2][]rating.State
	for t := range 2 {
		for _, u := range m.Teams[t] {
			st := model.New()
			for _, r := range rs {
				if r.UserID == u {
					st = r.State
				}
			}
			teams[t] = append(teams[t], st)
		}
	}
	cal, err := s.calibrator(ctx, tx, q)
	if err != nil {
		return 0, 0, err
	}
	raw = model.Predict(teams[0], teams[1], now)
	return cal.Predict(raw, 0), raw, nil
}
