package storage

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/ladderbot/ladderbot/ladder"
)

// calibratorColumns are the columns of a calibrators row, in
// calibratorRow.ptrs order.
const calibratorColumns = `queue_id, guild_id, seq, state, sided`

// lockCalibratorByNamePG locks the calibrator row of a guild's queue by
// the queue's name ("" the default queue, the first), for LockLadder's
// round trip: before the rating rows, as every rated write takes it.
const lockCalibratorByNamePG = `SELECT ` + calibratorColumns + ` FROM calibrators
WHERE queue_id = (SELECT q2.id FROM queues q2 WHERE q2.guild_id = $1 AND (q2.name = $2 OR $2 = '') ORDER BY q2.id LIMIT 1)
FOR UPDATE`

// lockCalibratorOfMatchPG locks the calibrator row of a match's queue, for
// LockMatchLadder's round trip, after the match and before the ratings.
const lockCalibratorOfMatchPG = `SELECT ` + calibratorColumns + ` FROM calibrators
WHERE queue_id = (SELECT queue_id FROM matches WHERE id = $1) FOR UPDATE`

// calibratorRow is one row of calibrators.
type calibratorRow struct {
	QueueID int64
	GuildID string
	Seq     int64
	State   string
	Sided   bool
}

func (r *calibratorRow) ptrs() []any {
	return []any{&r.QueueID, &r.GuildID, &r.Seq, &r.State, &r.Sided}
}

func (r calibratorRow) row() (ladder.CalibratorRow, error) {
	out := ladder.CalibratorRow{QueueID: r.QueueID, GuildID: r.GuildID, Seq: r.Seq, Sided: r.Sided, Built: r.State != ""}
	if !out.Built {
		return out, nil
	}
	cal, err := ladder.DecodeCalibrator(r.State)
	if err != nil {
		return ladder.CalibratorRow{}, err
	}
	out.Cal = cal
	return out, nil
}

// scanCalibrator scans the calibrator row of one query, nil when there
// is none.
func scanCalibrator(rows pgx.Rows) (*ladder.CalibratorRow, error) {
	defer rows.Close()
	if !rows.Next() {
		return nil, rows.Err()
	}
	var r calibratorRow
	if err := rows.Scan(r.ptrs()...); err != nil {
		return nil, err
	}
	row, err := r.row()
	if err != nil {
		return nil, err
	}
	rows.Close()
	return &row, rows.Err()
}

// LockCalibrator implements ladder.CalibratorStore.
func (t *tx) LockCalibrator(ctx context.Context, queueID int64) (ladder.CalibratorRow, error) {
	row, err := t.readCalibrator(ctx, queueID, t.forUpdate())
	if err == nil || !isNotFound(err) {
		return row, err
	}
	// A queue created without its row (by hand, or a restored backup of
	// an old schema): create it unbuilt, then lock it.
	if err := t.q(ctx).Exec(`INSERT INTO calibrators (queue_id, guild_id) SELECT id, guild_id FROM queues WHERE id = ? ON CONFLICT (queue_id) DO NOTHING`, queueID).Error; err != nil {
		return ladder.CalibratorRow{}, wrap("lock calibrator", err, "")
	}
	return t.readCalibrator(ctx, queueID, t.forUpdate())
}

// CalibratorOf implements ladder.CalibratorStore: a queue without a row
// has the calibrator of no history, unbuilt.
func (t *tx) CalibratorOf(ctx context.Context, queueID int64) (ladder.CalibratorRow, error) {
	row, err := t.readCalibrator(ctx, queueID, "")
	if isNotFound(err) {
		return ladder.CalibratorRow{QueueID: queueID}, nil
	}
	return row, err
}

// readCalibrator reads the row with the queue's model and constants as
// they are now, in one statement: under the row's lock they are the
// constants in force until the transaction ends (an adoption takes the
// lock too).
func (t *tx) readCalibrator(ctx context.Context, queueID int64, lock string) (ladder.CalibratorRow, error) {
	if lock != "" {
		lock += " OF c"
	}
	q := `SELECT c.queue_id, c.guild_id, c.seq, c.state, c.sided, q.model, q.params
FROM calibrators c JOIN queues q ON q.id = c.queue_id WHERE c.queue_id = ?` + lock
	rows, err := t.q(ctx).Raw(q, queueID).Rows()
	if err != nil {
		return ladder.CalibratorRow{}, wrap("calibrator", err, "")
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return ladder.CalibratorRow{}, wrap("calibrator", err, "")
		}
		return ladder.CalibratorRow{}, ladder.Errorf(ladder.CodeNotFound, "queue %d not found", queueID)
	}
	var r calibratorRow
	var qr queueRow
	if err := rows.Scan(append(r.ptrs(), &qr.Model, &qr.Params)...); err != nil {
		return ladder.CalibratorRow{}, wrap("calibrator", err, "")
	}
	out, err := r.row()
	if err != nil {
		return ladder.CalibratorRow{}, err
	}
	qd, err := qr.queue()
	if err != nil {
		return ladder.CalibratorRow{}, err
	}
	out.Model, out.Params = qd.Model, qd.Params
	return out, nil
}

// SaveCalibrator implements ladder.CalibratorStore.
func (t *tx) SaveCalibrator(ctx context.Context, row ladder.CalibratorRow) error {
	state, err := ladder.EncodeCalibrator(row.Cal)
	if err != nil {
		return err
	}
	res := t.q(ctx).Exec(`UPDATE calibrators SET seq = ?, state = ?, sided = ? WHERE queue_id = ?`, row.Seq, state, row.Sided, row.QueueID)
	return wrap("save calibrator", found(res), "queue has no calibrator row")
}

// createCalibrator inserts a new queue's calibrator row, unbuilt.
func (t *tx) createCalibrator(ctx context.Context, q ladder.Queue) error {
	return wrap("create calibrator", t.q(ctx).Exec(`INSERT INTO calibrators (queue_id, guild_id) VALUES (?, ?)`, q.ID, q.GuildID).Error, "")
}

func isNotFound(err error) bool {
	var c *ladder.Error
	return errors.As(err, &c) && c.Code == ladder.CodeNotFound
}
