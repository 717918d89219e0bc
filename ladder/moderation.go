package ladder

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/ladder/rating"
)

// Correction answers a moderator's resolve, void or correct: the match
// after it, whether it had already been done, and every player whose
// rating the action (and the replay after it) changed.
type Correction struct {
	Match       Match
	AlreadyDone bool
	Changed     []Replayed
	// Refrozen lists the closed seasons whose final standings the
	// correction froze again, and Carried the players whose ratings in
	// the seasons after the match's changed through the carry-over.
	Refrozen []int
	Carried  []Replayed
	// Seen is the match's state and result before the action: what a
	// preview was computed from, for CorrectSeen.
	Seen Seen
}

// Seen is a match's state and result as a moderator saw them when a
// correction was previewed.
type Seen struct {
	State  MatchState
	Winner int
}

// String encodes s as "state.winner" (confirmed.1, voided.-1), which a
// button or a form carries; ParseSeen reads it back.
func (s Seen) String() string { return string(s.State) + "." + strconv.Itoa(s.Winner) }

// ParseSeen reads Seen.String's encoding; CodeInvalid when it is not one.
func ParseSeen(text string) (Seen, error) {
	state, winner, ok := strings.Cut(text, ".")
	w, err := strconv.Atoi(winner)
	switch MatchState(state) {
	case StateOpen, StateReported, StateDisputed, StateConfirmed, StateResolved, StateCancelled, StateVoided:
	default:
		ok = false
	}
	if !ok || err != nil || w < NoResult || w > 2 {
		return Seen{}, Errorf(CodeInvalid, "the previewed state %q is not valid; preview the correction again", text)
	}
	return Seen{State: MatchState(state), Winner: w}, nil
}

// Resolve settles an unrated match (open, reported or disputed) with
// winner (1, 2 or Draw) and rates it. On a rated match it is Correct.
func (s *Service) Resolve(ctx context.Context, actor Actor, guildID string, matchID int64, winner int, reason string) (Correction, error) {
	return s.moderate(ctx, actor, guildID, matchID, winner, reason, "match.resolve", nil)
}

// Correct changes the result of any match to winner and replays the ladder
// from that match on, in one transaction (docs/spec.md 5).
func (s *Service) Correct(ctx context.Context, actor Actor, guildID string, matchID int64, winner int, reason string) (Correction, error) {
	if winner == NoResult {
		// A correction sets a result; removing one is Void, audited as such.
		return Correction{}, Errorf(CodeInvalid, "winner must be 1, 2 or 0 (draw), not %d; void the match to remove its result", winner)
	}
	return s.moderate(ctx, actor, guildID, matchID, winner, reason, "match.correct", nil)
}

// CorrectSeen is Correct applied from a preview of the match as seen: it
// is refused (CodeConflict, nothing changed) when the match has changed
// since, say another moderator voided or corrected it meanwhile, so an old
// Apply button or form does not undo their action with changes nobody
// previewed. The same result again is AlreadyDone, as with Correct.
func (s *Service) CorrectSeen(ctx context.Context, actor Actor, guildID string, matchID int64, winner int, reason string, seen Seen) (Correction, error) {
	if winner == NoResult {
		return Correction{}, Errorf(CodeInvalid, "winner must be 1, 2 or 0 (draw), not %d; void the match to remove its result", winner)
	}
	return s.moderate(ctx, actor, guildID, matchID, winner, reason, "match.correct", &seen)
}

// Void removes a match from the ladder: it is never rated again, and when
// it was rated the ladder is replayed from it on.
func (s *Service) Void(ctx context.Context, actor Actor, guildID string, matchID int64, reason string) (Correction, error) {
	return s.moderate(ctx, actor, guildID, matchID, NoResult, reason, "match.void", nil)
}

// PreviewCorrection shows what Correct (winner 1, 2 or Draw) or Void
// (winner NoResult) would do, without writing anything: it runs the same
// transaction and rolls it back.
func (s *Service) PreviewCorrection(ctx context.Context, actor Actor, guildID string, matchID int64, winner int) (Correction, error) {
	return s.moderate(ctx, actor, guildID, matchID, winner, "", "match.preview", nil)
}

// errPreview rolls a preview's transaction back.
var errPreview = errors.New("preview: roll back")

// moderate runs a resolve, void, correction or its preview (action
// match.preview), refused when seen is given and the match is no longer
// as seen.
func (s *Service) moderate(ctx context.Context, actor Actor, guildID string, matchID int64, winner int, reason, action string, seen *Seen) (Correction, error) {
	preview := action == "match.preview"
	if !actor.Moderator {
		return Correction{}, Errorf(CodeForbidden, "only moderators can do that")
	}
	if winner != 1 && winner != 2 && winner != Draw && winner != NoResult {
		return Correction{}, Errorf(CodeInvalid, "winner must be 1, 2 or 0 (draw), not %d", winner)
	}
	reason, err := CheckReason(reason)
	if err != nil {
		return Correction{}, err
	}
	var res Correction
	err = s.store.InTx(ctx, func(tx Tx) error {
		var err error
		res, err = s.moderateTx(ctx, tx, actor, guildID, matchID, winner, reason, action, seen)
		if err == nil && preview {
			return errPreview
		}
		return err
	})
	if err != nil && !errors.Is(err, errPreview) {
		return Correction{}, fmt.Errorf("ladder: %s: %w", action, err)
	}
	return res, nil
}

func (s *Service) moderateTx(ctx context.Context, tx Tx, actor Actor, guildID string, matchID int64, winner int, reason, action string, seen *Seen) (Correction, error) {
	m, err := lockGuildMatch(ctx, tx, guildID, matchID)
	if err != nil {
		return Correction{}, err
	}
	before := m
	was := Seen{State: m.State, Winner: m.Winner}
	void := winner == NoResult
	switch {
	case void && m.State == StateVoided, !void && m.State.Rated() && m.Winner == winner:
		return Correction{Match: m, AlreadyDone: true, Seen: was}, nil
	case void && m.State == StateCancelled:
		return Correction{}, Errorf(CodeConflict, "match %d was cancelled and is not rated", m.ID)
	case seen != nil && *seen != was:
		return Correction{}, Errorf(CodeConflict, "match %d has changed since the preview; preview the correction again", m.ID)
	}
	if !void && m.State == StateOpen {
		// Its teams are not known while the captains pick: void it instead.
		if err := refuseWhileDrafting(ctx, tx, m); err != nil {
			return Correction{}, err
		}
	}
	wasRated := m.State.Rated()
	m.ResolvedBy = actor.UserID
	if m.PlayedAt.IsZero() {
		m.PlayedAt = s.now()
	}
	var res Correction
	switch {
	case void:
		m.State = StateVoided
		if err := tx.UpdateMatch(ctx, m); err != nil {
			return Correction{}, err
		}
		if wasRated {
			if res.Changed, err = s.replayMatch(ctx, tx, m); err != nil {
				return Correction{}, err
			}
		}
	case m.Seq > 0:
		// Rated now or once (voided or cancelled after rating): it keeps its
		// place in the log and the ladder is replayed from it.
		m.State, m.Winner = StateResolved, winner
		m.RatedAt = s.now()
		if err := tx.UpdateMatch(ctx, m); err != nil {
			return Correction{}, err
		}
		if res.Changed, err = s.replayMatch(ctx, tx, m); err != nil {
			return Correction{}, err
		}
	default:
		m.State, m.Winner = StateResolved, winner
		l, err := tx.LadderOf(ctx, m.QueueID, m.SeasonID)
		if err != nil {
			return Correction{}, err
		}
		// prepare, not rate: carryMatch below carries a closed season's
		// change and reports it.
		prep, w, err := s.prepare(ctx, tx, l, nil, m, "")
		if err != nil {
			return Correction{}, err
		}
		r, err := save(ctx, tx, prep, w)
		if err != nil {
			return Correction{}, err
		}
		m = r.Match
		for _, c := range r.Changes {
			res.Changed = append(res.Changed, Replayed{UserID: c.UserID,
				Before: Standing{UserID: c.UserID, Rating: c.Rating - c.Delta}, After: Standing{UserID: c.UserID, Rating: c.Rating, RD: c.RD}})
		}
	}
	res.Match, res.Seen = m, was
	if res.Refrozen, res.Carried, err = s.carryMatch(ctx, tx, m, res.Changed); err != nil {
		return Correction{}, err
	}
	if err := nameReplayed(ctx, tx, guildID, res.Changed); err != nil {
		return Correction{}, err
	}
	if err := nameReplayed(ctx, tx, guildID, res.Carried); err != nil {
		return Correction{}, err
	}
	// A first rating (the default case) recorded match.resolved with the
	// rated write; voids and re-ratings record their event here.
	if err := withSeriesMaps(ctx, tx, &m); err != nil {
		return Correction{}, err
	}
	if void {
		err = emitMatch(ctx, tx, EventMatchVoided, m, s.now())
	} else if wasRated || before.Seq > 0 {
		err = emitMatch(ctx, tx, EventMatchResolved, m, s.now())
	}
	if err != nil {
		return Correction{}, err
	}
	after := matchAudit(m)
	after["changed"] = res.Changed
	if len(res.Refrozen) > 0 {
		after["refrozen_seasons"], after["carried"] = res.Refrozen, res.Carried
	}
	err = audit(ctx, tx, AuditEntry{GuildID: guildID, ActorID: actor.UserID, Action: action, MatchID: m.ID, Reason: reason, At: s.now()}, matchAudit(before), after)
	return res, err
}

// replayMatch replays m's ladder from m's place in the log.
func (s *Service) replayMatch(ctx context.Context, tx Tx, m Match) ([]Replayed, error) {
	g, err := tx.Guild(ctx, m.GuildID)
	if err != nil {
		return nil, err
	}
	q, err := tx.Queue(ctx, m.QueueID)
	if err != nil {
		return nil, err
	}
	season, err := seasonByID(ctx, tx, m.GuildID, m.SeasonID)
	if err != nil {
		return nil, err
	}
	return replayFrom(ctx, tx, g, q, season, m.Seq, nil)
}

// carryMatch carries a change of m's ladder forward when m belongs to a
// closed season (carryCorrection).
func (s *Service) carryMatch(ctx context.Context, tx Tx, m Match, changed []Replayed) ([]int, []Replayed, error) {
	if len(changed) == 0 {
		return nil, nil, nil
	}
	season, err := seasonByID(ctx, tx, m.GuildID, m.SeasonID)
	if err != nil || season.Running() {
		return nil, nil, err
	}
	g, err := tx.Guild(ctx, m.GuildID)
	if err != nil {
		return nil, nil, err
	}
	q, err := tx.Queue(ctx, m.QueueID)
	if err != nil {
		return nil, nil, err
	}
	return carryCorrection(ctx, tx, g, q, season, changed)
}

func nameReplayed(ctx context.Context, tx Tx, guildID string, rs []Replayed) error {
	for i := range rs {
		p, err := tx.Player(ctx, guildID, rs[i].UserID)
		if err != nil && !isCode(err, CodeNotFound) {
			return err
		}
		rs[i].Name = p.Name
		rs[i].Before.Name, rs[i].After.Name = p.Name, p.Name
	}
	return nil
}

// SetRating sets a player's rating and deviation in a queue's current
// season, in the model's own units (mu and sigma for OpenSkill and
// TrueSkill). The change is a row of the log, so replays keep it.
//
// The values must lie within the model's set bounds (setBoundsOf), checked
// once the queue's model is known, so a set can never make the next update
// explode (RD 9,999 once moved a player by +31.5 million).
func (s *Service) SetRating(ctx context.Context, actor Actor, guildID, queue, userID string, r, dev float64, reason string) (Replayed, error) {
	if math.IsNaN(r) || math.IsInf(r, 0) || math.IsNaN(dev) || math.IsInf(dev, 0) {
		return Replayed{}, Errorf(CodeInvalid, "rating and RD must be finite numbers")
	}
	return s.adjust(ctx, actor, guildID, queue, userID, reason, "set", func(m rating.Model, _ rating.State) (float64, float64, error) {
		rMin, rMax, dMin, dMax := setBoundsOf(m)
		if r < rMin || r > rMax {
			return 0, 0, Errorf(CodeInvalid, "rating %g is outside %g to %g for the %s model", r, rMin, rMax, m.Name())
		}
		if dev < dMin || dev > dMax {
			return 0, 0, Errorf(CodeInvalid, "RD %g is outside %g to %g for the %s model", dev, dMin, dMax, m.Name())
		}
		return r, dev, nil
	})
}

// setBoundsOf returns the range SetRating accepts for a model: its own
// SetBounds when it has them, otherwise the new rating ± 2500 and, for
// models that keep a deviation, 1% to 100% of the new player's (a new
// player is the least certain a model knows how to be), for those that
// keep none, only 0.
func setBoundsOf(m rating.Model) (rMin, rMax, devMin, devMax float64) {
	if b, ok := m.(interface {
		SetBounds() (rMin, rMax, devMin, devMax float64)
	}); ok {
		return b.SetBounds()
	}
	st := m.New()
	if st.Dev == 0 {
		return st.Rating - 2500, st.Rating + 2500, 0, 0
	}
	spread := max(2500, 100*st.Dev)
	return st.Rating - spread, st.Rating + spread, st.Dev / 100, st.Dev
}

// ResetRating puts a player back to the model's new-player rating and
// deviation in a queue's current season; games and record are kept.
func (s *Service) ResetRating(ctx context.Context, actor Actor, guildID, queue, userID, reason string) (Replayed, error) {
	return s.adjust(ctx, actor, guildID, queue, userID, reason, "reset", func(m rating.Model, _ rating.State) (float64, float64, error) {
		st := m.New()
		return st.Rating, st.Dev, nil
	})
}

// adjustTo computes an adjustment's new rating and deviation from the
// model and the player's current state.
type adjustTo func(m rating.Model, current rating.State) (r, dev float64, err error)

func (s *Service) adjust(ctx context.Context, actor Actor, guildID, queue, userID, reason, kind string, to adjustTo) (Replayed, error) {
	if !actor.Moderator {
		return Replayed{}, Errorf(CodeForbidden, "only moderators can change ratings")
	}
	if err := validateUserID(userID); err != nil {
		return Replayed{}, err
	}
	reason, err := CheckReason(reason)
	if err != nil {
		return Replayed{}, err
	}
	var out Replayed
	err = s.store.InTx(ctx, func(tx Tx) error {
		var err error
		out, err = s.adjustTx(ctx, tx, actor, guildID, queue, userID, reason, "", kind, to)
		return err
	})
	if err != nil {
		return Replayed{}, fmt.Errorf("ladder: %s rating: %w", kind, err)
	}
	return out, nil
}

// adjustTx is adjust inside the caller's transaction, so that a lobby
// penalty's rating change commits with the cooldown it goes with.
// reasonCode is the code of a reason the ladder wrote, "" for a
// moderator's words.
func (s *Service) adjustTx(ctx context.Context, tx Tx, actor Actor, guildID, queue, userID, reason, reasonCode, kind string, to adjustTo) (Replayed, error) {
	var out Replayed
	err := func() error {
		g, err := tx.Guild(ctx, guildID)
		if err != nil {
			return err
		}
		q, err := resolveQueue(ctx, tx, guildID, queue)
		if err != nil {
			return err
		}
		if validateSnowflake("player", userID) != nil {
			// Imported histories name players by other keys, and those
			// may be adjusted; no new player is made from anything but a
			// Discord ID.
			if _, err := tx.Player(ctx, guildID, userID); ErrorCode(err) == CodeNotFound {
				return Errorf(CodeInvalid, "player %q is neither a Discord ID nor a player of this ladder", userID)
			} else if err != nil {
				return err
			}
		}
		season, err := tx.CurrentSeason(ctx, guildID)
		if err != nil {
			return err
		}
		model, err := modelFor(q)
		if err != nil {
			return err
		}
		l, err := Ladder{Guild: g, Queue: q, Season: season}.lock(ctx, tx, model, []string{userID}, nil)
		if err != nil {
			return err
		}
		r := l.rows[userID]
		rating, dev, err := to(model, r.State)
		if err != nil {
			return err
		}
		seq, err := tx.NextSeq(ctx)
		if err != nil {
			return err
		}
		before := *r
		st := r.State
		st.Rating, st.Dev = rating, dev
		st.Recent = model.New().Recent
		c := RatingChange{Seq: seq, QueueID: q.ID, SeasonID: season.ID, UserID: userID, Kind: kind,
			Before: r.State, After: st, Record: r.Record, At: s.now()}
		r.State = st
		refresh(r, model, g.PlacementGames)
		if err := tx.InsertChanges(ctx, []RatingChange{c}); err != nil {
			return err
		}
		if err := tx.SaveRatings(ctx, []Rating{*r}); err != nil {
			return err
		}
		out = Replayed{UserID: userID, Before: standingOf(g, model, before), After: standingOf(g, model, *r)}
		rs := []Replayed{out}
		if err := nameReplayed(ctx, tx, guildID, rs); err != nil {
			return err
		}
		out = rs[0]
		return audit(ctx, tx, AuditEntry{GuildID: guildID, ActorID: actor.UserID, Action: "rating." + kind, Target: userID, Reason: reason, ReasonCode: reasonCode, At: s.now()}, out.Before, out.After)
	}()
	return out, err
}

// AuditStore keeps the moderators' audit log and the idempotency keys of
// recorded results.
type AuditStore interface {
	AddAudit(ctx context.Context, e AuditEntry) error
	Audit(ctx context.Context, guildID string, limit int) ([]AuditEntry, error)

	// IdempotentMatch returns the match recorded under key, CodeNotFound if none.
	IdempotentMatch(ctx context.Context, guildID, key string) (int64, error)
	// IdempotentMatches is IdempotentMatch for several keys at once: the
	// matches of the used ones, by key.
	IdempotentMatches(ctx context.Context, guildID string, keys []string) (map[string]int64, error)
	// SaveIdempotency records key → matchID; an existing key gives CodeConflict.
	SaveIdempotency(ctx context.Context, guildID, key string, matchID int64, at time.Time) error
}
