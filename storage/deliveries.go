package storage

import (
	"context"
	"hash/fnv"
	"time"
)

// deliveryTTL is how long a delivered interaction ID is remembered: an
// interaction's token lasts 15 minutes, after which nothing can answer a
// redelivery anyway.
const deliveryTTL = 15 * time.Minute

// pruneEvery is how often, on average, FirstDelivery also deletes expired
// IDs: one insert in pruneEvery, chosen by the ID's hash, so no process
// keeps a counter and the table stays near 15 minutes of interactions.
const pruneEvery = 256

// FirstDelivery records that the interaction id was delivered at at and
// reports whether no process had recorded it before (bot.Deliveries). The
// primary key decides between processes racing on one ID.
func (db *DB) FirstDelivery(ctx context.Context, id string, at time.Time) (bool, error) {
	res := db.db.WithContext(ctx).Exec(`INSERT INTO interaction_deliveries (id, seen_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING`, id, at.UTC())
	if res.Error != nil {
		return false, wrap("interaction delivery", res.Error, "")
	}
	if prunes(id) {
		err := db.db.WithContext(ctx).Exec(`DELETE FROM interaction_deliveries WHERE seen_at < ?`, at.Add(-deliveryTTL).UTC()).Error
		if err != nil {
			db.log.WarnContext(ctx, "storage: pruning interaction deliveries", "err", err)
		}
	}
	return res.RowsAffected == 1, nil
}

// prunes reports whether the insert of id also prunes.
func prunes(id string) bool {
	h := fnv.New32a()
	h.Write([]byte(id))
	return h.Sum32()%pruneEvery == 0
}
