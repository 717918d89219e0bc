package ladder

import (
	"context"
	"maps"
	"slices"
	"time"
)

// RecordResults records finished matches as RecordResult does each, in
// the order given, answering each one's result or error at the same index.
// Results of one guild's queue that arrive together are written in one
// transaction: the queue's calibrator row, which orders that queue's log,
// is locked once for them all, each is rated on the states the ones
// before it left, and on PostgreSQL their writes travel with COMMIT in one
// round trip. That is what lets a busy queue take results faster than one
// transaction at a time (group commit); the log, the ratings and every
// answer are exactly those of recording them one by one in that order.
// A result the batch cannot take alone (a guild's first, a key used twice
// in the batch, a failure of the whole transaction) is recorded by
// RecordResult on its own, so every error is the one RecordResult gives.
func (s *Service) RecordResults(ctx context.Context, ins []ResultInput) ([]MatchResult, []error) {
	out := make([]MatchResult, len(ins))
	errs := make([]error, len(ins))
	alone := make([]bool, len(ins))
	var batch []int
	keys := map[string]bool{}
	now := s.now()
	for i, in := range ins {
		if err := validateResult(in); err != nil {
			errs[i] = err
			continue
		}
		at := in.PlayedAt.UTC().Truncate(time.Microsecond)
		if at.IsZero() {
			at = now
		}
		if err := CheckPlayedAt(at, now); err != nil {
			errs[i] = err
			continue
		}
		ins[i].PlayedAt = at
		if len(batch) > 0 && (in.GuildID != ins[batch[0]].GuildID || in.Queue != ins[batch[0]].Queue) || keys[in.IdempotencyKey] {
			alone[i] = true
			continue
		}
		if in.IdempotencyKey != "" {
			keys[in.IdempotencyKey] = true
		}
		batch = append(batch, i)
	}
	if len(batch) > 1 {
		if err := s.recordBatch(ctx, ins, batch, out, errs); err != nil {
			for _, i := range batch {
				alone[i] = true
			}
		}
	} else {
		for _, i := range batch {
			alone[i] = true
		}
	}
	for i, a := range alone {
		if a {
			out[i], errs[i] = s.RecordResult(ctx, ins[i])
		}
	}
	return out, errs
}

// recordBatch is RecordResults' one transaction for the results at
// indexes batch, all of one guild's queue. An error means nothing was
// written and out and errs at those indexes are untouched.
func (s *Service) recordBatch(ctx context.Context, ins []ResultInput, batch []int, out []MatchResult, errs []error) error {
	res := make([]MatchResult, len(ins))
	bad := make([]error, len(ins))
	var rated []int
	saved, err := s.store.InRatedTxs(ctx, func(tx Tx) ([]RatedWrite, error) {
		clear(res)
		clear(bad)
		rated = rated[:0]
		var todo []int
		users := map[string]bool{}
		var keys []string
		for _, i := range batch {
			if k := ins[i].IdempotencyKey; k != "" {
				keys = append(keys, k)
			}
		}
		used, err := tx.IdempotentMatches(ctx, ins[batch[0]].GuildID, keys)
		if err != nil {
			return nil, err
		}
		for _, i := range batch {
			in := ins[i]
			if id, ok := used[in.IdempotencyKey]; ok && in.IdempotencyKey != "" {
				done, err := matchResult(ctx, tx, id)
				if err != nil {
					return nil, err
				}
				done.AlreadyDone = true
				res[i] = done
				continue
			}
			todo = append(todo, i)
			for _, u := range append(slices.Clone(in.Team1), in.Team2...) {
				users[u] = true
			}
		}
		if len(todo) == 0 {
			return nil, nil
		}
		first := ins[todo[0]]
		all := slices.Sorted(maps.Keys(users))
		ahead := make([][2][]string, len(todo))
		for j, i := range todo {
			ahead[j] = [2][]string{ins[i].Team1, ins[i].Team2}
		}
		expectRated(tx, first.GuildID, first.Queue, ahead...)
		l, have, err := tx.LockLadder(ctx, first.GuildID, first.Queue, all)
		if err != nil {
			return nil, err
		}
		if err := l.lockCalibrator(ctx, tx); err != nil {
			return nil, err
		}
		model, err := modelFor(l.Queue)
		if err != nil {
			return nil, err
		}
		// A result of the wrong size is refused before anything of it is
		// written; every player of the others gets a row before the first
		// result is rated, so that each result reads its players' states
		// from the ones before it in this batch, never from the database.
		clear(users)
		ok := todo[:0]
		for _, i := range todo {
			if err := teamSizeFits(l.Queue, ins[i].Team1, ins[i].Team2); err != nil {
				bad[i] = err
				continue
			}
			ok = append(ok, i)
			for _, u := range append(slices.Clone(ins[i].Team1), ins[i].Team2...) {
				users[u] = true
			}
		}
		todo = ok
		if len(todo) == 0 {
			return nil, nil
		}
		all = slices.Sorted(maps.Keys(users))
		have = slices.DeleteFunc(have, func(r Rating) bool { return !users[r.UserID] })
		lk, err := l.lock(ctx, tx, model, all, have)
		if err != nil {
			return nil, err
		}
		state := make(map[string]Rating, len(all))
		for u, r := range lk.rows {
			state[u] = *r
		}
		var ws []RatedWrite
		for _, i := range todo {
			in := ins[i]
			if len(in.Names) > 0 {
				if err := upsertNames(ctx, tx, in.GuildID, in.Team1, in.Team2, in.Names); err != nil {
					return nil, err
				}
			}
			ps := append(slices.Clone(in.Team1), in.Team2...)
			slices.Sort(ps)
			rows := make([]Rating, len(ps))
			for j, u := range ps {
				rows[j] = state[u]
			}
			source := in.Source
			if source == "" {
				source = "api"
			}
			r, w, err := s.rateNew(ctx, tx, l, rows, in, in.PlayedAt, source)
			if err != nil {
				return nil, err
			}
			for _, rt := range w.Ratings {
				state[rt.UserID] = rt
			}
			res[i] = r
			rated = append(rated, i)
			ws = append(ws, *w)
		}
		return ws, nil
	})
	if err != nil {
		return err
	}
	for j, i := range rated {
		res[i].Match = saved[j]
	}
	for _, i := range batch {
		out[i], errs[i] = res[i], bad[i]
	}
	return nil
}
