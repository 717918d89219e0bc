package storage

import (
	"context"
	"slices"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/ladder"
)

// The extension point of the rated write: rows derived from the rated log
// (the integrity counters and flags, the predictors' points, the MVP
// counts) are written by functions registered at start-up (OnRated,
// OnRewrite), which storage calls inside the transaction that changes the
// log, after it saved the change. The derived rows then commit or roll
// back with the result that changes them, and no job has to catch up on
// the log. `ladderbot verify` rebuilds them from the log and compares.

// DerivedTx is what a derived-rows function may do in the transaction of
// the change: the stores its packages declare.
type DerivedTx interface {
	integrity.SeasonStore
	community.TallyStore
	community.CountsStore
}

// RatedFunc is called after a transaction saved rated writes, with the
// writes in log order, each Match carrying its ID and Seq and each change
// its MatchID and Seq. An error rolls the transaction back.
type RatedFunc func(ctx context.Context, tx DerivedTx, ws []ladder.RatedWrite) error

// RewriteFunc is called when a replay rewrites ladder k's log from
// fromSeq on (a moderator's correction or void of the match at fromSeq, or
// a closed season's correction carried into k), in the replay's
// transaction, after the match's new state is saved.
type RewriteFunc func(ctx context.Context, tx DerivedTx, k ladder.Key, fromSeq int64) error

// MatchFunc is called when UpdateMatch changes a match that has a place
// in the log (Seq > 0) outside a rated write — a moderator's correction
// or void — in that transaction, with the match as it was (old) and as
// saved (m).
type MatchFunc func(ctx context.Context, tx DerivedTx, old, m ladder.Match) error

// SeasonFunc is called when a season ends (ladder.Tx's EndSeason), in
// that transaction, after the season is marked ended.
type SeasonFunc func(ctx context.Context, tx DerivedTx, seasonID int64) error

// derivers are the registered functions.
type derivers struct {
	rated   []RatedFunc
	rewrite []RewriteFunc
	update  []MatchFunc
	season  []SeasonFunc
	// loads lists the integrity reads a rated write's fold will make.
	loads func([]ladder.RatedWrite) []integrity.Load
}

// OnRated registers f, to be called in every rated write's transaction
// (InRatedTx, InRatedTxs, SaveRated, SaveImported). Register before the
// first transaction; storage does not guard the list.
func (db *DB) OnRated(f RatedFunc) { db.derive.rated = append(db.derive.rated, f) }

// OnRatedLoads registers f, which lists the integrity reads that the
// functions registered by OnRated make for rated writes (integrity.Loads).
// On PostgreSQL they are then sent with the write, in its round trip, and
// IntegrityLoad answers from them. Register before the first transaction.
func (db *DB) OnRatedLoads(f func([]ladder.RatedWrite) []integrity.Load) { db.derive.loads = f }

// OnRewrite registers f, to be called in every replay's transaction.
// Register before the first transaction.
func (db *DB) OnRewrite(f RewriteFunc) { db.derive.rewrite = append(db.derive.rewrite, f) }

// OnMatchUpdate registers f, to be called when a logged match is updated.
// Register before the first transaction.
func (db *DB) OnMatchUpdate(f MatchFunc) { db.derive.update = append(db.derive.update, f) }

// OnSeasonEnd registers f, to be called in the transaction that ends a
// season. Register before the first transaction.
func (db *DB) OnSeasonEnd(f SeasonFunc) { db.derive.season = append(db.derive.season, f) }

// deriving reports whether functions are registered for rated writes: on
// PostgreSQL the rated write then leaves COMMIT to the transaction's end,
// after them.
func (t *tx) deriving() bool { return t.derive != nil && len(t.derive.rated) > 0 }

// rated calls the registered functions for the writes ws, saved as saved.
func (t *tx) rated(ctx context.Context, ws []ladder.RatedWrite, saved []ladder.Match) error {
	if !t.deriving() || len(ws) == 0 {
		return nil
	}
	out := make([]ladder.RatedWrite, len(ws))
	for i, w := range ws {
		if w.Match.ID == 0 {
			if t.created == nil {
				t.created = map[int64]bool{}
			}
			t.created[saved[i].ID] = true
		}
		w.Match = saved[i]
		w.Changes = slices.Clone(w.Changes)
		for j := range w.Changes {
			w.Changes[j].MatchID, w.Changes[j].Seq = saved[i].ID, saved[i].Seq
		}
		out[i] = w
	}
	for _, f := range t.derive.rated {
		if err := f(ctx, t, out); err != nil {
			return err
		}
	}
	return nil
}

// rewritten calls the registered functions for a replay of k from fromSeq.
func (t *tx) rewritten(ctx context.Context, k ladder.Key, fromSeq int64) error {
	if t.derive == nil {
		return nil
	}
	for _, f := range t.derive.rewrite {
		if err := f(ctx, t, k, fromSeq); err != nil {
			return err
		}
	}
	return nil
}

// seasonEnded calls the registered functions for the end of season
// seasonID.
func (t *tx) seasonEnded(ctx context.Context, seasonID int64) error {
	if t.derive == nil {
		return nil
	}
	for _, f := range t.derive.season {
		if err := f(ctx, t, seasonID); err != nil {
			return err
		}
	}
	return nil
}

// updating reports whether functions are registered for an update of
// match m: the update then reads the match as it was first.
func (t *tx) updating(m ladder.Match) bool {
	return t.derive != nil && len(t.derive.update) > 0 && m.Seq != 0
}

// updated calls the registered functions for an update of logged match m
// from old.
func (t *tx) updated(ctx context.Context, old, m ladder.Match) error {
	if !t.updating(m) {
		return nil
	}
	for _, f := range t.derive.update {
		if err := f(ctx, t, old, m); err != nil {
			return err
		}
	}
	return nil
}

// later runs a write whose result nobody reads: on PostgreSQL in a
// transaction it is deferred to the transaction's next round trip, COMMIT's
// at the latest; elsewhere it runs at once. text is in gorm's ? placeholders
// ("IN ?" takes a slice).
func (t *tx) later(ctx context.Context, text string, args ...any) error {
	if t.pg != nil {
		if t.pg.committed {
			return errCommitted
		}
		t.pg.later = append(t.pg.later, queued{sql: pgSQL(text), args: args})
		return nil
	}
	return t.q(ctx).Exec(text, args...).Error
}
