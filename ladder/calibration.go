package ladder

import (
	"context"
	"fmt"
	"sort"

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

// logPredictions returns the model's raw prediction for every rated match
// of ladder k, in log order, rebuilt from the Before states of its log rows
// (issue 18). It reads the log rather than the matches' stored PTeam1,
// which is the chance shown when the match formed and is not rewritten by
// a correction: the log is, so a replay after a correction changes the
// predictions exactly as it changes the ratings.
func logPredictions(ctx context.Context, tx Tx, models *modelLog, k Key, fromSeq int64) ([]loggedPrediction, error) {
	ms, err := tx.RatedMatches(ctx, k, fromSeq)
	if err != nil {
		return nil, err
	}
	if len(ms) == 0 {
		return nil, nil
	}
	cs, err := tx.Changes(ctx, k, fromSeq)
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

// foldCalibrator feeds cal the rated matches of q with Seq ≥ fromSeq, in
// log order, and returns the highest Seq it saw (fromSeq − 1 when none).
func foldCalibrator(ctx context.Context, tx Tx, q Queue, cal *rating.Calibrator, fromSeq int64) (int64, error) {
	models, err := modelsOf(ctx, tx, q)
	if err != nil {
		return 0, err
	}
	ss, err := tx.Seasons(ctx, q.GuildID)
	if err != nil {
		return 0, err
	}
	var all []loggedPrediction
	for _, season := range ss {
		ps, err := logPredictions(ctx, tx, models, Key{QueueID: q.ID, SeasonID: season.ID}, fromSeq)
		if err != nil {
			return 0, err
		}
		all = append(all, ps...)
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].seq < all[j].seq })
	last := fromSeq - 1
	for _, lp := range all {
		cal.Observe(lp.p, 0, lp.score)
		last = lp.seq
	}
	return last, nil
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
// to players, learnt from the queue's confirmed log (issue 18).
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
