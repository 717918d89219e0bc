package joins

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// RematchWindow is how long after its result a match's players may ask
// for a rematch.
const RematchWindow = ladder.RematchWindow

// Rematch is a rated match's rematch offer.
type Rematch struct {
	MatchID   int64
	GuildID   string
	QueueID   int64
	ExpiresAt time.Time
}

// RematchResult says what a press of Rematch did.
type RematchResult struct {
	// Match is the rated match the rematch is of.
	Match ladder.Match
	// Voters pressed Rematch, first first; Players is how many must.
	Voters    []string
	Players   int
	ExpiresAt time.Time
	// Formed is the rematch once every player pressed (Match.ID 0 before).
	Formed ladder.FormedMatch
	// AlreadyDone is set when the player had pressed already, or the
	// rematch was formed before this press.
	AlreadyDone bool
}

// Offers reports whether a rated match offers a rematch now: its queue's
// rematch setting is on and the window has not ended. The result post
// shows the Rematch button only then.
func (s *Service) Offers(ctx context.Context, m ladder.Match, q ladder.Queue, at time.Time) (bool, error) {
	if !rated(m) {
		return false, nil
	}
	st, err := s.Settings(ctx, q)
	if err != nil {
		return false, err
	}
	return st.Rematch != RematchOff && at.Before(m.RatedAt.Add(RematchWindow)), nil
}

func rated(m ladder.Match) bool {
	return m.State == ladder.StateConfirmed || m.State == ladder.StateResolved
}

// PressRematch records a player's press of a rated match's Rematch
// button. Once every player of the match has pressed it within
// RematchWindow of the result, they play one more match in the same
// queue — the same teams, or split again (the queue's rematch setting) —
// opened in one transaction with the mark that the rematch was played,
// so a rematch forms once however many processes see the last press.
// Each press passes the queue's gate as a join would (open hours,
// requirements with the presser's roles).
func (s *Service) PressRematch(ctx context.Context, guildID string, matchID int64, who ladder.Entrant) (RematchResult, error) {
	m, err := s.lad.Match(ctx, guildID, matchID)
	if err != nil {
		return RematchResult{}, err
	}
	if m.Team(who.UserID) == 0 {
		return RematchResult{}, ladder.Errorf(ladder.CodeForbidden, "only the players of match #%d can ask for its rematch", m.ID)
	}
	if !rated(m) {
		return RematchResult{}, ladder.Errorf(ladder.CodeInvalid, "match #%d is %s: only a rated match offers a rematch", m.ID, m.State)
	}
	qs, err := s.lad.Queues(ctx, guildID)
	if err != nil {
		return RematchResult{}, err
	}
	i := slices.IndexFunc(qs, func(q ladder.Queue) bool { return q.ID == m.QueueID })
	if i < 0 {
		return RematchResult{}, ladder.Errorf(ladder.CodeNotFound, "the queue of match #%d no longer exists", m.ID)
	}
	q := qs[i]
	st, err := s.Settings(ctx, q)
	if err != nil {
		return RematchResult{}, err
	}
	if st.Rematch == RematchOff {
		return RematchResult{}, ladder.Errorf(ladder.CodeInvalid, "queue %s offers no rematches", q.Name)
	}
	now := s.lad.Now()
	res := RematchResult{Match: m, Players: len(m.Players()), ExpiresAt: m.RatedAt.Add(RematchWindow)}
	if !now.Before(res.ExpiresAt) {
		return res, ladder.Errorf(ladder.CodeInvalid, "the rematch of match #%d expired at <t:%d:T>: rematches are asked for within %s of the result", m.ID, res.ExpiresAt.Unix(), RematchWindow)
	}
	if err := s.AllowJoin(ctx, q, []ladder.Entrant{who}, now); err != nil {
		return res, err
	}
	before, added, formed, err := s.store.VoteRematch(ctx, Rematch{MatchID: m.ID, GuildID: guildID, QueueID: q.ID, ExpiresAt: res.ExpiresAt}, who.UserID, now)
	if err != nil {
		return res, fmt.Errorf("joins: rematch vote: %w", err)
	}
	res.Voters = before
	if formed != 0 {
		return s.alreadyFormed(ctx, res, formed)
	}
	for _, u := range m.Players() {
		if !slices.Contains(res.Voters, u) {
			// Others still have to press; a replayed or doubled press
			// of a player who pressed already is said to be done.
			res.AlreadyDone = !added
			return res, nil
		}
	}
	// Everyone pressed: a press of a player who had, too, forms the
	// rematch, so one whose forming was refused (a player was in a
	// match then) is tried again.
	channel, err := s.homeOf(ctx, q, m)
	if err != nil {
		return res, err
	}
	f, err := s.lad.FormGroup(ctx, ladder.GroupRequest{GuildID: guildID, QueueID: q.ID, Teams: m.Teams,
		Rebalance: st.Rematch == RematchRebalance, ChannelID: channel, Source: "rematch",
		Within: func(ctx context.Context, tx ladder.Tx, nm ladder.Match) error {
			rt, ok := tx.(RematchTx)
			if !ok {
				return ladder.Errorf(ladder.CodeInternal, "joins: the store cannot record rematches")
			}
			won, err := rt.FormRematch(ctx, m.ID, nm.ID)
			if err != nil {
				return err
			}
			if !won {
				return ladder.Errorf(ladder.CodeConflict, "the rematch of match #%d was formed already", m.ID)
			}
			return nil
		}})
	if ladder.ErrorCode(err) == ladder.CodeConflict {
		// Another press formed it first (or a player is in a match now):
		// say which.
		if _, _, formed, verr := s.store.VoteRematch(ctx, Rematch{MatchID: m.ID, GuildID: guildID, QueueID: q.ID, ExpiresAt: res.ExpiresAt}, who.UserID, now); verr == nil && formed != 0 {
			return s.alreadyFormed(ctx, res, formed)
		}
	}
	if err != nil {
		return res, err
	}
	res.Formed = f
	return res, nil
}

// homeOf is where a rematch is announced, as a queue's match would be: the
// queue's channel, else the channel the match's room was opened from (the
// room itself closes soon), else the match's channel.
func (s *Service) homeOf(ctx context.Context, q ladder.Queue, m ladder.Match) (string, error) {
	if q.ChannelID != "" {
		return q.ChannelID, nil
	}
	home, err := s.store.RoomHome(ctx, m.ID)
	if err != nil || home != "" {
		return home, err
	}
	return m.ChannelID, nil
}

func (s *Service) alreadyFormed(ctx context.Context, res RematchResult, formed int64) (RematchResult, error) {
	nm, err := s.lad.Match(ctx, res.Match.GuildID, formed)
	if err != nil {
		return res, err
	}
	res.AlreadyDone = true
	res.Formed = ladder.FormedMatch{Match: nm}
	return res, nil
}
