package ladder

import (
	"cmp"
	"context"
	"maps"
	"slices"
)

// ConfirmInput is one confirm of Confirms: Actor confirms match MatchID of
// guild GuildID, as Confirm does.
type ConfirmInput struct {
	Actor   Actor
	GuildID string
	MatchID int64
}

// Confirms confirms matches as Confirm does each, answering each one's
// result or error at the same index. Confirms of one guild's queue that
// arrive together are rated in one transaction, as RecordResults rates
// results: the queue's lock is taken once for them all, each is rated on
// the states the ones before it left, and on PostgreSQL their writes
// travel with COMMIT in one round trip. A busy queue's confirms then share
// the lock and the commit rather than queueing for them one by one; the
// log, the ratings and every answer are those of confirming them one by
// one in that order.
//
// The shared transaction takes only the common case: a reported match
// of the guild confirmed by a player of the other team (or a moderator),
// in the queue and season of the batch's first, none of whose players is
// in an earlier match of the batch. Any other confirm (match 0, a match
// named again, one already rated, refused, of another guild or queue)
// and every confirm of a batch whose transaction fails is run by Confirm
// on its own after the batch, so every refusal and every AlreadyDone is
// the one Confirm gives; the few of those that rate (another queue's, a
// player's second match) come after the batch's in the log.
func (s *Service) Confirms(ctx context.Context, ins []ConfirmInput) ([]MatchResult, []error) {
	out := make([]MatchResult, len(ins))
	errs := make([]error, len(ins))
	alone := make([]bool, len(ins))
	var batch []int
	for i, in := range ins {
		if in.MatchID <= 0 || len(batch) > 0 && in.GuildID != ins[batch[0]].GuildID {
			alone[i] = true
			continue
		}
		batch = append(batch, i)
	}
	if len(batch) > 1 {
		rated, err := s.confirmBatch(ctx, ins, batch, out)
		for _, i := range batch {
			alone[i] = err != nil || !rated[i]
		}
	} else {
		for _, i := range batch {
			alone[i] = true
		}
	}
	for i, a := range alone {
		if a {
			out[i], errs[i] = s.Confirm(ctx, ins[i].Actor, ins[i].GuildID, ins[i].MatchID)
		}
	}
	return out, errs
}

// confirmBatch is Confirms' one transaction for the confirms at indexes
// batch, all of one guild. It answers the indexes it rated, whose results
// it sets in out; the others are left for Confirm. An error means nothing
// was written.
func (s *Service) confirmBatch(ctx context.Context, ins []ConfirmInput, batch []int, out []MatchResult) (map[int]bool, error) {
	var (
		rated []int
		res   []MatchResult
	)
	saved, err := s.store.InRatedTxs(ctx, func(tx Tx) ([]RatedWrite, error) {
		rated, res = rated[:0], res[:0]
		var (
			ms    []Match
			idx   []int
			users = map[string]bool{}
		)
		ids := make([]int64, len(batch))
		for j, i := range batch {
			ids[j] = ins[i].MatchID
		}
		slices.Sort(ids)
		locked, err := tx.LockMatches(ctx, slices.Compact(ids))
		if err != nil {
			return nil, err
		}
		for _, i := range batch {
			in := ins[i]
			if slices.ContainsFunc(ms, func(m Match) bool { return m.ID == in.MatchID }) {
				continue // named twice: Confirm answers the second
			}
			k, ok := slices.BinarySearchFunc(locked, in.MatchID, func(m Match, id int64) int { return cmp.Compare(m.ID, id) })
			if !ok {
				continue
			}
			m := locked[k]
			if m.GuildID != in.GuildID || m.State != StateReported {
				continue
			}
			team := m.Team(in.Actor.UserID)
			if team == 0 && !in.Actor.Moderator || team != 0 && team == m.Team(m.ReportedBy) {
				continue
			}
			if len(ms) > 0 && (m.QueueID != ms[0].QueueID || m.SeasonID != ms[0].SeasonID) {
				continue
			}
			// A player of an earlier match of the batch: Confirm rates it
			// after the batch, on the rows the batch wrote.
			if slices.ContainsFunc(m.Players(), func(u string) bool { return users[u] }) {
				continue
			}
			for _, u := range m.Players() {
				users[u] = true
			}
			ms, idx = append(ms, m), append(idx, i)
		}
		if len(ms) == 0 {
			return nil, nil
		}
		all := slices.Sorted(maps.Keys(users))
		of, err := tx.LadderOf(ctx, ms[0].QueueID, ms[0].SeasonID)
		if err != nil {
			return nil, err
		}
		// What the writes will read goes with the lock (RatedAhead).
		expect := make([]Match, len(ms))
		for j, m := range ms {
			expect[j] = m
			expect[j].State, expect[j].Winner = StateConfirmed, m.ReportedWinner
		}
		expectRatedMatches(tx, of.Guild.ID, of.Queue.Name, expect)
		l, have, err := tx.LockLadder(ctx, of.Guild.ID, of.Queue.Name, all)
		if err != nil {
			return nil, err
		}
		if l.Queue.ID != ms[0].QueueID || l.Season.ID != ms[0].SeasonID {
			// The match's season has ended since it was played (or its
			// queue renamed): Confirm rates it in its own ladder.
			return nil, nil
		}
		if err := l.lockCalibrator(ctx, tx); err != nil {
			return nil, err
		}
		// Every player of the batch gets its row before the first match
		// is rated (new players' rows made at once), so that each match
		// reads its players' states from the matches before it in this
		// batch, never from the database.
		model, err := modelFor(l.Queue)
		if err != nil {
			return nil, err
		}
		if have == nil {
			have = []Rating{} // none of them has a row: lock makes them
		}
		lk, err := l.lock(ctx, tx, model, all, have)
		if err != nil {
			return nil, err
		}
		state := make(map[string]Rating, len(lk.rows))
		for u, r := range lk.rows {
			state[u] = *r
		}
		ws := make([]RatedWrite, 0, len(ms))
		for j, m := range ms {
			m.State, m.Winner = StateConfirmed, m.ReportedWinner
			ps := m.Players()
			slices.Sort(ps)
			rows := make([]Rating, len(ps))
			for k, u := range ps {
				rows[k] = state[u]
			}
			r, w, err := s.prepare(ctx, tx, l, rows, m, "")
			if err != nil {
				return nil, err
			}
			for _, rt := range w.Ratings {
				state[rt.UserID] = rt
			}
			res, rated, ws = append(res, r), append(rated, idx[j]), append(ws, *w)
		}
		return ws, nil
	})
	if err != nil {
		return nil, err
	}
	done := make(map[int]bool, len(rated))
	for j, i := range rated {
		res[j].Match = saved[j]
		out[i] = res[j]
		done[i] = true
	}
	return done, nil
}
