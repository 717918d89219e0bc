// Package derived wires the rows derived from the rated log into
// storage's extension point of the rated write: the integrity counters and
// flags (package integrity), the predictors' points and the MVP counts
// (package community), and the seasons' partnerships and busiest hours
// (community's counts); and the integrity review of a season's new
// accounts when it ends. Each process that writes results calls Wire once at
// start-up (cli does, for every command that opens the database to write);
// the functions then run inside the transaction of every rated write,
// replay and correction, so the derived rows commit or roll back with the
// change of the log that moves them. `ladderbot verify` rebuilds them from
// the log and compares.
package derived

import (
	"context"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// Wire registers the derived rows' functions on db; in folds the
// integrity counters with its thresholds.
func Wire(db *storage.DB, in *integrity.Service) {
	db.OnRated(func(ctx context.Context, tx storage.DerivedTx, ws []ladder.RatedWrite) error {
		if err := in.Rated(ctx, tx, ws); err != nil {
			return err
		}
		if err := community.RatedCounts(ctx, tx, ws); err != nil {
			return err
		}
		return community.Rated(ctx, tx, ws)
	})
	db.OnRatedLoads(integrity.Loads)
	db.OnRewrite(func(ctx context.Context, tx storage.DerivedTx, k ladder.Key, fromSeq int64) error {
		return in.Rewritten(ctx, tx, k, fromSeq)
	})
	db.OnSeasonEnd(func(ctx context.Context, tx storage.DerivedTx, seasonID int64) error {
		return in.SeasonEnded(ctx, tx, seasonID)
	})
	db.OnMatchUpdate(func(ctx context.Context, tx storage.DerivedTx, old, m ladder.Match) error {
		if err := community.UpdatedCounts(ctx, tx, old, m); err != nil {
			return err
		}
		return community.Updated(ctx, tx, m)
	})
}
