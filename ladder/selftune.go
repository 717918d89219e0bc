package ladder

import (
	"context"
	"fmt"
	"sort"

	"github.com/ladderbot/ladderbot/ladder/rating"
)

// TuneProposal is a self-tuning round of a queue (issue 18): the constants
// in force, the ones fitted on its confirmed log, and the adoption rule's
// verdict on the most recent fifth, which the fit never saw.
type TuneProposal struct {
	Queue Queue
	// Matches is the length of the log the round saw.
	Matches int
	rating.SelfTuneResult
	// Adopted is true once the proposal is recorded in the log.
	Adopted bool
}

// queueDataset is every rated match of q, every season, in log order, as
// the rating package's Dataset. Seasons are replayed as one history: the
// constants describe how the community plays, which a season reset does
// not change.
func queueDataset(ctx context.Context, tx Tx, q Queue) (*rating.Dataset, error) {
	ss, err := tx.Seasons(ctx, q.GuildID)
	if err != nil {
		return nil, err
	}
	var ms []Match
	for _, season := range ss {
		part, err := tx.RatedMatches(ctx, Key{QueueID: q.ID, SeasonID: season.ID}, 0)
		if err != nil {
			return nil, err
		}
		ms = append(ms, part...)
	}
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].Seq < ms[j].Seq })
	recs := make([]rating.MatchRecord, len(ms))
	for i, m := range ms {
		recs[i] = rating.MatchRecord{Seq: i, Date: m.PlayedAt, Team1: m.Teams[0], Team2: m.Teams[1], Winner: m.Winner}
	}
	return rating.NewDataset(recs)
}

// proposeTune runs one SelfTune round on q's confirmed log. It reads outside
// any transaction: a round replays the log some dozens of times, and a
// result committed meanwhile only makes the verdict one match older.
func (s *Service) proposeTune(ctx context.Context, q Queue) (TuneProposal, error) {
	d, err := queueDataset(ctx, s.store, q)
	if err != nil {
		return TuneProposal{}, err
	}
	res, err := d.SelfTune(ctx, q.Model, q.Params, d.Len(), rating.SelfTuneOptions{})
	if err != nil {
		return TuneProposal{}, err
	}
	return TuneProposal{Queue: q, Matches: d.Len(), SelfTuneResult: res}, nil
}

// TunePreview shows a moderator what self-tuning would do to a queue ("" is
// the default) now: current against proposed constants and the gain ± SE of
// the adoption rule. It changes nothing.
func (s *Service) TunePreview(ctx context.Context, actor Actor, guildID, queue string) (TuneProposal, error) {
	if !actor.Moderator {
		return TuneProposal{}, Errorf(CodeForbidden, "only moderators can tune a queue")
	}
	q, err := resolveQueue(ctx, s.store, guildID, queue)
	if err != nil {
		return TuneProposal{}, fmt.Errorf("ladder: tune preview: %w", err)
	}
	p, err := s.proposeTune(ctx, q)
	if err != nil {
		return TuneProposal{}, fmt.Errorf("ladder: tune preview: %w", err)
	}
	return p, nil
}

// TuneApply runs the round again and adopts its constants, but only by the
// adoption rule: a moderator decides when, never whether the data agrees.
// A verdict against adoption answers CodeConflict with the numbers.
func (s *Service) TuneApply(ctx context.Context, actor Actor, guildID, queue string) (TuneProposal, error) {
	if !actor.Moderator {
		return TuneProposal{}, Errorf(CodeForbidden, "only moderators can tune a queue")
	}
	q, err := resolveQueue(ctx, s.store, guildID, queue)
	if err != nil {
		return TuneProposal{}, fmt.Errorf("ladder: tune apply: %w", err)
	}
	p, err := s.proposeTune(ctx, q)
	if err != nil {
		return TuneProposal{}, fmt.Errorf("ladder: tune apply: %w", err)
	}
	if !p.Adopt {
		return p, Errorf(CodeConflict, "the adoption rule keeps the current constants: gain %.4f ± %.4f on %d recent matches is not above two standard errors",
			p.Gain, p.SE, p.N)
	}
	if err := s.adopt(ctx, actor, p, "moderator"); err != nil {
		return p, fmt.Errorf("ladder: tune apply: %w", err)
	}
	p.Adopted = true
	return p, nil
}

// adopt records p's candidate constants in the rating log at the next seq
// and makes them the queue's, in one transaction: matches rated from then
// on use them, and replay uses each adoption from its seq. A queue whose
// constants changed since the round ran (another adoption, a moderator's
// /config) answers CodeConflict rather than record a stale Before.
func (s *Service) adopt(ctx context.Context, actor Actor, p TuneProposal, source string) error {
	return s.store.InTx(ctx, func(tx Tx) error {
		// The calibrator row's lock waits for the rated writes in flight
		// and holds off new ones until the adoption commits (every rated
		// write takes it before it reads the queue's constants), so every
		// result's seq falls on the side of the adoption whose constants it
		// was rated with.
		if _, err := tx.LockCalibrator(ctx, p.Queue.ID); err != nil {
			return err
		}
		q, err := tx.QueueForUpdate(ctx, p.Queue.ID)
		if err != nil {
			return err
		}
		cur, err := rating.ResolveParams(q.Model, q.Params)
		if err != nil {
			return err
		}
		if q.Model != p.Queue.Model || !sameParams(cur, p.Current) {
			return Errorf(CodeConflict, "queue %s changed its constants while tuning; run it again", q.Name)
		}
		seq, err := tx.NextSeq(ctx)
		if err != nil {
			return err
		}
		c := Constants{Seq: seq, QueueID: q.ID, Model: q.Model, Before: p.Current, Params: p.Candidate,
			Gain: p.Gain, SE: p.SE, N: p.N, Source: source, ActorID: actor.UserID, At: s.now()}
		if err := tx.AddConstants(ctx, c); err != nil {
			return err
		}
		old := q
		q.Params = p.Candidate
		if err := tx.UpdateQueue(ctx, q); err != nil {
			return err
		}
		return audit(ctx, tx, AuditEntry{GuildID: q.GuildID, ActorID: actor.UserID, Action: "queue.tune", Target: q.Name, At: s.now()}, old.Params, q.Params)
	})
}

// selfTuneQueues is the season boundary of issue 18: every queue of the
// guild with SelfTune on runs a round and adopts its constants if, and only
// if, the adoption rule says so. It returns the rounds it ran.
func (s *Service) selfTuneQueues(ctx context.Context, guildID string) ([]TuneProposal, error) {
	qs, err := s.store.Queues(ctx, guildID)
	if err != nil {
		return nil, err
	}
	var out []TuneProposal
	for _, q := range qs {
		if !q.SelfTune {
			continue
		}
		p, err := s.proposeTune(ctx, q)
		if err != nil {
			return out, fmt.Errorf("queue %s: %w", q.Name, err)
		}
		if p.Adopt {
			if err := s.adopt(ctx, Actor{UserID: SchedulerActor, Moderator: true}, p, "season"); err != nil {
				return out, fmt.Errorf("queue %s: %w", q.Name, err)
			}
			p.Adopted = true
		}
		out = append(out, p)
	}
	return out, nil
}

func sameParams(a, b map[string]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
