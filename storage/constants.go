package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// constantsRow is a row of rating_constants (migration 00030): one adoption
// of model constants by a queue, numbered in the rating log.
type constantsRow struct {
	Seq          int64 `gorm:"primaryKey;autoIncrement:false"`
	QueueID      int64
	Model        string
	BeforeParams string `gorm:"column:before_params"`
	Params       string
	Gain         float64
	SE           float64 `gorm:"column:se"`
	N            int
	Source       string
	ActorID      string
	At           time.Time
}

func (constantsRow) TableName() string { return "rating_constants" }

// AddConstants implements ladder.Tx.
func (t *tx) AddConstants(ctx context.Context, c ladder.Constants) error {
	before, err := json.Marshal(c.Before)
	if err != nil {
		return fmt.Errorf("storage: add constants: %w", err)
	}
	params, err := json.Marshal(c.Params)
	if err != nil {
		return fmt.Errorf("storage: add constants: %w", err)
	}
	r := constantsRow{Seq: c.Seq, QueueID: c.QueueID, Model: c.Model, BeforeParams: string(before), Params: string(params),
		Gain: c.Gain, SE: c.SE, N: c.N, Source: c.Source, ActorID: c.ActorID, At: c.At.UTC()}
	return wrap("add constants", t.q(ctx).Create(&r).Error, "")
}

// ConstantsLog implements ladder.Tx.
func (t *tx) ConstantsLog(ctx context.Context, queueID int64) ([]ladder.Constants, error) {
	var rows []constantsRow
	if err := t.q(ctx).Where("queue_id = ?", queueID).Order("seq").Find(&rows).Error; err != nil {
		return nil, wrap("constants log", err, "")
	}
	out := make([]ladder.Constants, 0, len(rows))
	for _, r := range rows {
		c := ladder.Constants{Seq: r.Seq, QueueID: r.QueueID, Model: r.Model, Gain: r.Gain, SE: r.SE, N: r.N,
			Source: r.Source, ActorID: r.ActorID, At: r.At.UTC()}
		if err := json.Unmarshal([]byte(r.BeforeParams), &c.Before); err != nil {
			return nil, fmt.Errorf("storage: constants %d: %w", r.Seq, err)
		}
		if err := json.Unmarshal([]byte(r.Params), &c.Params); err != nil {
			return nil, fmt.Errorf("storage: constants %d: %w", r.Seq, err)
		}
		out = append(out, c)
	}
	return out, nil
}
