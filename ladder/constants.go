package ladder

import (
	"context"
	"sort"
	"time"

	"github.com/ladderbot/ladderbot/ladder/rating"
)

// Constants is one adoption of new model constants by a queue,
// a row of the rating log: from Seq on, the queue's matches are rated with
// Model and Params; before it, with Before. Replay and verify read these
// rows so that a queue whose constants changed mid-log replays exactly.
type Constants struct {
	Seq     int64
	QueueID int64
	Model   string
	// Before are the constants in force until Seq, Params those from Seq.
	Before, Params map[string]float64
	// Gain ± SE is the adoption rule's verdict on N recent matches.
	Gain, SE float64
	N        int
	// Source is "season" (the season-close job) or "moderator".
	Source  string
	ActorID string
	At      time.Time
}

// ConstantsStore is the persistence of the constants log.
type ConstantsStore interface {
	// AddConstants appends an adoption; c.Seq must come from NextSeq.
	AddConstants(ctx context.Context, c Constants) error
	// ConstantsLog returns a queue's adoptions in Seq order.
	ConstantsLog(ctx context.Context, queueID int64) ([]Constants, error)
}

// modelLog is the model in force at each seq of a queue's log: models[i]
// rates the matches with seqs[i-1] < seq < seqs[i] (the last one every
// match after the last adoption).
type modelLog struct {
	seqs   []int64
	models []rating.Model
}

// modelsOf builds q's modelLog from its constants log. Without adoptions
// it is q's model throughout, so a queue that never tuned replays as before.
func modelsOf(ctx context.Context, tx Tx, q Queue) (*modelLog, error) {
	cs, err := tx.ConstantsLog(ctx, q.ID)
	if err != nil {
		return nil, err
	}
	if len(cs) == 0 {
		m, err := modelFor(q)
		if err != nil {
			return nil, err
		}
		return &modelLog{models: []rating.Model{m}}, nil
	}
	first, err := rating.NewModel(cs[0].Model, cs[0].Before)
	if err != nil {
		return nil, err
	}
	l := &modelLog{models: []rating.Model{first}}
	for _, c := range cs {
		m, err := rating.NewModel(c.Model, c.Params)
		if err != nil {
			return nil, err
		}
		l.seqs = append(l.seqs, c.Seq)
		l.models = append(l.models, m)
	}
	return l, nil
}

// at returns the model that rates the match at seq.
func (l *modelLog) at(seq int64) rating.Model {
	i := sort.Search(len(l.seqs), func(i int) bool { return l.seqs[i] > seq })
	return l.models[i]
}

// tuned reports whether the log holds any adoption.
func (l *modelLog) tuned() bool { return len(l.seqs) > 0 }
