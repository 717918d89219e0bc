package ladder

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/ladderbot/ladderbot/ladder/rating"
)

// CalibratorRow is a queue's calibrator as stored: the state after folding
// every rated match of the queue up to log position Seq. Every rated write
// moves it by one result in the same transaction (prepare), so opening a
// match reads one row instead of refolding the queue's log; only a replay
// (a correction, a void) rebuilds it from the log, and verify proves it
// equal to a fold of the log.
type CalibratorRow struct {
	QueueID int64
	GuildID string
	// Seq is the log position of the last result folded in.
	Seq int64
	// Built is false for a row that has never been folded (a queue that
	// existed before calibrators were rows): the first rated write folds
	// the queue's log once.
	Built bool
	// Sided is the queue's setting that team order means something; it is
	// the calibrator's Sided.
	Sided bool
	Cal   rating.Calibrator
	// Model and Params are the queue's model and constants read with the
	// row (LockCalibrator): under its lock, the ones in force.
	Model  string
	Params map[string]float64
}

// CalibratorStore keeps each queue's calibrator row.
type CalibratorStore interface {
	// LockCalibrator reads queue queueID's row, with the queue's model and
	// constants, and locks it until the transaction ends. Every rated write
	// of the queue takes this lock before its players' rating rows, so
	// results of one queue fold in the order of their log positions; an
	// adoption of constants takes it too. A missing row is created unbuilt.
	LockCalibrator(ctx context.Context, queueID int64) (CalibratorRow, error)
	// SaveCalibrator writes the row.
	SaveCalibrator(ctx context.Context, row CalibratorRow) error
	// CalibratorOf reads the row without locking it.
	CalibratorOf(ctx context.Context, queueID int64) (CalibratorRow, error)
}

// EncodeCalibrator is the stored form of a calibrator (JSON: encoding/json
// writes each float64 so that it reads back bit for bit).
func EncodeCalibrator(c rating.Calibrator) (string, error) {
	b, err := json.Marshal(c)
	if err != nil {
		return "", fmt.Errorf("ladder: encode calibrator: %w", err)
	}
	return string(b), nil
}

// DecodeCalibrator reads EncodeCalibrator's form.
func DecodeCalibrator(s string) (rating.Calibrator, error) {
	var c rating.Calibrator
	if err := json.Unmarshal([]byte(s), &c); err != nil {
		return rating.Calibrator{}, fmt.Errorf("ladder: decode calibrator: %w", err)
	}
	return c, nil
}

// newCalibrator is the calibrator of a queue with no history.
func newCalibrator(sided bool) rating.Calibrator {
	c := *rating.NewCalibrator(rating.DefaultCalPrior, rating.DefaultCalMemory)
	c.Sided = sided
	return c
}

// builtCalibrator returns row made ready to move by one result: a row never
// folded is folded from the queue's whole log first (once per queue).
func builtCalibrator(ctx context.Context, tx Tx, q Queue, row CalibratorRow) (CalibratorRow, error) {
	if row.Built {
		return row, nil
	}
	cal, last, err := foldQueue(ctx, tx, q, row.Sided)
	if err != nil {
		return CalibratorRow{}, err
	}
	row.Cal, row.Seq, row.Built = cal, last, true
	return row, nil
}

// rebuildCalibrator refolds queue q's calibrator from its whole log and
// stores it, after a replay rewrote log rows it had folded. The caller
// holds the row's lock (LockCalibrator) from before it locked any rating row.
func rebuildCalibrator(ctx context.Context, tx Tx, q Queue, row CalibratorRow) error {
	cal, last, err := foldQueue(ctx, tx, q, row.Sided)
	if err != nil {
		return err
	}
	row.Cal, row.Seq, row.Built = cal, max(last, 0), true
	return tx.SaveCalibrator(ctx, row)
}

// foldQueue folds a new calibrator over every rated match of q, every
// season, in log order: the definition the stored row must equal.
func foldQueue(ctx context.Context, tx Tx, q Queue, sided bool) (rating.Calibrator, int64, error) {
	cal := newCalibrator(sided)
	last, err := foldCalibrator(ctx, tx, q, &cal, 0)
	if err != nil {
		return rating.Calibrator{}, 0, err
	}
	return cal, max(last, 0), nil
}

// observeResult moves a queue's calibrator by one result: the model's raw
// prediction p for team 1 from the states the players enter the match
// with, and team 1's score. It is what foldCalibrator does for the same
// match read back from the log.
func (row *CalibratorRow) observeResult(p, score float64) {
	row.Cal.Observe(p, 0, score)
}

// SetQueueSides sets whether the team order of a queue's matches means
// something (home and away, attack and defence). Only on such a queue does
// the calibration learn an edge for team 1; elsewhere the order is the
// matchmaker's and the shown chance is symmetric. The calibrator is
// refolded from the queue's log in the new mode, in the same transaction.
func (s *Service) SetQueueSides(ctx context.Context, actor Actor, guildID, queue string, sided bool) error {
	if !actor.Moderator {
		return Errorf(CodeForbidden, "only moderators can change queues")
	}
	err := s.store.InTx(ctx, func(tx Tx) error {
		q, err := resolveQueue(ctx, tx, guildID, queue)
		if err != nil {
			return err
		}
		row, err := tx.LockCalibrator(ctx, q.ID)
		if err != nil {
			return err
		}
		if row.Sided == sided {
			return nil
		}
		before := map[string]bool{"sided": row.Sided}
		row.Sided = sided
		if err := rebuildCalibrator(ctx, tx, q, row); err != nil {
			return err
		}
		return audit(ctx, tx, AuditEntry{GuildID: guildID, ActorID: actor.UserID, Action: "queue.sides", Target: q.Name, At: s.now()},
			before, map[string]bool{"sided": sided})
	})
	if err != nil {
		return fmt.Errorf("ladder: set sides: %w", err)
	}
	return nil
}

// QueueSided reports a queue's sides setting (SetQueueSides).
func (s *Service) QueueSided(ctx context.Context, guildID, queue string) (bool, error) {
	q, err := resolveQueue(ctx, s.store, guildID, queue)
	if err != nil {
		return false, fmt.Errorf("ladder: sides: %w", err)
	}
	row, err := s.store.CalibratorOf(ctx, q.ID)
	if err != nil {
		return false, fmt.Errorf("ladder: sides: %w", err)
	}
	return row.Sided, nil
}
