package ladder

import (
	"context"
	"fmt"

	"github.com/ladderbot/ladderbot/ladder/rating"
)

// loggedPrediction is one rated match of a queue's log as the calibrator
// sees it: the model's raw P(team 1 wins) from the states the log says the
// players entered the match with, and the result.
type loggedPrediction struct {
	seq   int64
	p     float64
	score float64
}

// logPage is how many matches of a ladder's log a fold of the whole log
// (verify, the calibrator's fold) reads at once: its memory is a page,
// whatever the length of the log.
const logPage = 1000

// logPredictions returns the model's raw prediction for each of ms, rated
// matches of ladder k in log order (a page of its log), rebuilt from the
// Before states of their log rows. It reads the log rather than the
// matches' stored PTeam1, which is the chance shown when the match formed
// and is not rewritten by a correction: the log is, so a replay after a
// correction changes the predictions exactly as it changes the ratings.
func logPredictions(ctx context.Context, tx Tx, models *modelLog, k Key, ms []Match) ([]loggedPrediction, error) {
	if len(ms) == 0 {
		return nil, nil
	}
	cs, err := tx.MatchChangesBetween(ctx, k, ms[0].Seq, ms[len(ms)-1].Seq)
	if err != nil {
		return nil, err
	}
	type key struct {
		seq  int64
		user string
	}
	before := make(map[key]rating.State, len(cs))
	for _, c := range cs {
		if c.Kind == "match" {
			before[key{c.Seq, c.UserID}] = c.Before
		}
	}
	out := make([]loggedPrediction, 0, len(ms))
	var teams [2][]rating.State
	for _, m := range ms {
		for t := range 2 {
			teams[t] = teams[t][:0]
			for _, u := range m.Teams[t] {
				st, ok := before[key{m.Seq, u}]
				if !ok {
					return nil, fmt.Errorf("calibration: match %d: player %s has no log row", m.ID, u)
				}
				teams[t] = append(teams[t], st)
			}
		}
		out = append(out, loggedPrediction{seq: m.Seq, p: models.at(m.Seq).Predict(teams[0], teams[1], m.PlayedAt), score: Score(m.Winner)})
	}
	return out, nil
}

// predictionCursor reads the logged predictions of a ladder in log order,
// a page of logPage matches at a time.
type predictionCursor struct {
	tx     Tx
	models *modelLog
	k      Key
	after  int64
	buf    []loggedPrediction
	done   bool
}

// head returns the next prediction without taking it; false at the log's
// end.
func (c *predictionCursor) head(ctx context.Context) (loggedPrediction, bool, error) {
	for len(c.buf) == 0 && !c.done {
		ms, err := c.tx.RatedMatchesAfter(ctx, c.k, c.after, logPage)
		if err != nil {
			return loggedPrediction{}, false, err
		}
		if c.buf, err = logPredictions(ctx, c.tx, c.models, c.k, ms); err != nil {
			return loggedPrediction{}, false, err
		}
		c.done = len(ms) < logPage
		if len(ms) > 0 {
			c.after = ms[len(ms)-1].Seq
		}
	}
	if len(c.buf) == 0 {
		return loggedPrediction{}, false, nil
	}
	return c.buf[0], true, nil
}

// foldCalibrator feeds cal the rated matches of q with Seq ≥ fromSeq, in
// log order, and returns the highest Seq it saw (fromSeq − 1 when none).
// The seasons' logs are read page by page and merged by Seq.
func foldCalibrator(ctx context.Context, tx Tx, q Queue, cal *rating.Calibrator, fromSeq int64) (int64, error) {
	models, err := modelsOf(ctx, tx, q)
	if err != nil {
		return 0, err
	}
	ss, err := tx.Seasons(ctx, q.GuildID)
	if err != nil {
		return 0, err
	}
	cs := make([]*predictionCursor, len(ss))
	for i, season := range ss {
		cs[i] = &predictionCursor{tx: tx, models: models, k: Key{QueueID: q.ID, SeasonID: season.ID}, after: fromSeq - 1}
	}
	last := fromSeq - 1
	for {
		next := -1
		var lp loggedPrediction
		for i, c := range cs {
			h, ok, err := c.head(ctx)
			if err != nil {
				return 0, err
			}
			if ok && (next < 0 || h.seq < lp.seq) {
				next, lp = i, h
			}
		}
		if next < 0 {
			return last, nil
		}
		cs[next].buf = cs[next].buf[1:]
		cal.Observe(lp.p, 0, lp.score)
		last = lp.seq
	}
}

// calibrator returns q's calibrator as of the log tx sees: its stored
// row, one read whatever the length of the log. A row not yet built (a
// queue from before calibrators were rows, until its next rated write) is
// folded from the log here without being stored: only rated writes and
// replays write the row, under its lock.
func (s *Service) calibrator(ctx context.Context, tx Tx, q Queue) (*rating.Calibrator, error) {
	row, err := tx.CalibratorOf(ctx, q.ID)
	if err != nil {
		return nil, err
	}
	if row, err = builtCalibrator(ctx, tx, q, row); err != nil {
		return nil, err
	}
	return &row.Cal, nil
}

// Calibrator returns the calibration state of a queue ("" is the default)
// of a guild: the map from the model's prediction to the win chance shown
// to players, learnt from the queue's confirmed log.
func (s *Service) Calibrator(ctx context.Context, guildID, queue string) (*rating.Calibrator, error) {
	q, err := resolveQueue(ctx, s.store, guildID, queue)
	if err != nil {
		return nil, fmt.Errorf("ladder: calibrator: %w", err)
	}
	cal, err := s.calibrator(ctx, s.store, q)
	if err != nil {
		return nil, fmt.Errorf("ladder: calibrator: %w", err)
	}
	return cal, nil
}

// verifyPredictions compares the raw predictions the replay made (the
// calibrator's inputs) with those the stored log gives. Equal inputs in the
// same order give a bit-identical calibrator, so this is verify's check that
// the calibration shown equals the replay's.
func verifyPredictions(replayed []float64, logged []loggedPrediction) string {
	if len(replayed) != len(logged) {
		return fmt.Sprintf("calibration: the log gives %d predictions, the replay %d", len(logged), len(replayed))
	}
	for i, p := range replayed {
		if p != logged[i].p {
			return fmt.Sprintf("calibration: match at seq %d: the log predicts %v, the replay %v", logged[i].seq, logged[i].p, p)
		}
	}
	return ""
}
