package ladder

import (
	"context"
	"fmt"
	"sort"

	"github.com/ladderbot/ladderbot/ladder/rating"
)

// VerifyReport is what Verify found: how much it replayed and every
// difference between the stored ratings and the replay of the log.
type VerifyReport struct {
	Ladders int
	Matches int
	Players int
	Diffs   []VerifyDiff
}

// VerifyDiff is one stored rating row that differs from the replay.
type VerifyDiff struct {
	GuildID  string
	QueueID  int64
	SeasonID int64
	UserID   string
	Stored   Rating
	Replayed Rating
	// Problem says what differs.
	Problem string
}

// Verify replays every ladder of the guild (every guild when guildID is "")
// from each player's season base and compares the result with the stored
// ratings and records (docs/spec.md 5: stored ratings always equal the replay).
func (s *Service) Verify(ctx context.Context, guildID string) (VerifyReport, error) {
	var guilds []Guild
	if guildID == "" {
		gs, err := s.store.Guilds(ctx)
		if err != nil {
			return VerifyReport{}, fmt.Errorf("ladder: verify: %w", err)
		}
		guilds = gs
	} else {
		g, err := s.store.Guild(ctx, guildID)
		if err != nil {
			return VerifyReport{}, fmt.Errorf("ladder: verify: %w", err)
		}
		guilds = []Guild{g}
	}
	var rep VerifyReport
	for _, g := range guilds {
		qs, err := s.store.Queues(ctx, g.ID)
		if err != nil {
			return rep, fmt.Errorf("ladder: verify: %w", err)
		}
		ss, err := s.store.Seasons(ctx, g.ID)
		if err != nil {
			return rep, fmt.Errorf("ladder: verify: %w", err)
		}
		for _, q := range qs {
			for _, season := range ss {
				if err := s.verifyLadder(ctx, g, q, season, &rep); err != nil {
					return rep, fmt.Errorf("ladder: verify guild %s queue %s season %d: %w", g.ID, q.Name, season.Number, err)
				}
			}
			if err := s.verifyCalibrator(ctx, g, q, &rep); err != nil {
				return rep, fmt.Errorf("ladder: verify guild %s queue %s calibrator: %w", g.ID, q.Name, err)
			}
		}
	}
	return rep, nil
}

func (s *Service) verifyLadder(ctx context.Context, g Guild, q Queue, season Season, rep *VerifyReport) error {
	k := Key{QueueID: q.ID, SeasonID: season.ID}
	model, err := modelFor(q)
	if err != nil {
		return err
	}
	stored, err := s.store.Ratings(ctx, k, nil)
	if err != nil {
		return err
	}
	adjs, err := s.store.Adjustments(ctx, k)
	if err != nil {
		return err
	}
	// The log is read and folded a page at a time (logPage matches, with
	// the adjustments among them), so that memory follows the ladder's
	// players, not the length of its log.
	ms, err := s.store.RatedMatchesAfter(ctx, k, -1, logPage)
	if err != nil {
		return err
	}
	if len(stored) == 0 && len(ms) == 0 {
		return nil
	}
	rep.Ladders++
	rep.Players += len(stored)
	models, err := modelsOf(ctx, s.store, q)
	if err != nil {
		return err
	}
	f := &folder{model: model, rows: make(map[string]*Rating, len(stored)), predict: true, models: models}
	replayed := make([]Rating, len(stored))
	for i, r := range stored {
		replayed[i] = Rating{QueueID: r.QueueID, SeasonID: r.SeasonID, UserID: r.UserID, State: r.Base, Base: r.Base, Stale: r.Stale}
		f.rows[r.UserID] = &replayed[i]
	}
	var foldErr error
	predicted := ""
	for len(ms) > 0 {
		rep.Matches += len(ms)
		if foldErr == nil {
			// The adjustments up to the page's last match, in order
			// among its matches.
			last := ms[len(ms)-1].Seq
			j := sort.Search(len(adjs), func(i int) bool { return adjs[i].Seq > last })
			f.preds = f.preds[:0]
			if foldErr = f.fold(mergeEvents(ms, adjs[:j]), false); foldErr == nil && predicted == "" {
				logged, err := logPredictions(ctx, s.store, models, k, ms)
				if err != nil {
					return err
				}
				predicted = verifyPredictions(f.preds, logged)
			}
			adjs = adjs[j:]
		}
		if len(ms) < logPage {
			break
		}
		if ms, err = s.store.RatedMatchesAfter(ctx, k, ms[len(ms)-1].Seq, logPage); err != nil {
			return err
		}
	}
	if foldErr == nil && len(adjs) > 0 {
		foldErr = f.fold(mergeEvents(nil, adjs), false)
	}
	if foldErr != nil {
		rep.Diffs = append(rep.Diffs, VerifyDiff{GuildID: g.ID, QueueID: q.ID, SeasonID: season.ID, Problem: foldErr.Error()})
		return nil
	}
	if predicted != "" {
		rep.Diffs = append(rep.Diffs, VerifyDiff{GuildID: g.ID, QueueID: q.ID, SeasonID: season.ID, Problem: predicted})
	}
	for i, r := range stored {
		p := replayed[i]
		refresh(&p, model, g.PlacementGames)
		problem := ""
		switch {
		case !sameState(r.State, p.State):
			problem = fmt.Sprintf("rating %v ± %v after %d games, replay gives %v ± %v after %d games",
				r.State.Rating, r.State.Dev, r.State.Games, p.State.Rating, p.State.Dev, p.State.Games)
		case r.Record != p.Record:
			problem = fmt.Sprintf("record %+v, replay gives %+v", r.Record, p.Record)
		case r.Display != p.Display || r.DisplayDev != p.DisplayDev || r.Provisional != p.Provisional:
			problem = "derived columns (display, provisional) are out of date"
		}
		if problem != "" {
			rep.Diffs = append(rep.Diffs, VerifyDiff{GuildID: g.ID, QueueID: q.ID, SeasonID: season.ID, UserID: r.UserID, Stored: r, Replayed: p, Problem: problem})
		}
	}
	return nil
}

func sameState(a, b rating.State) bool {
	return a.Rating == b.Rating && a.Dev == b.Dev && a.Games == b.Games && a.Last.Equal(b.Last) && a.Recent == b.Recent
}

// verifyCalibrator compares queue q's stored calibrator row, which rated
// writes move one result at a time, with a fold of the queue's whole log:
// they must be equal to the bit. A row never built (no rated write since
// calibrators became rows) holds nothing to compare.
func (s *Service) verifyCalibrator(ctx context.Context, g Guild, q Queue, rep *VerifyReport) error {
	row, err := s.store.CalibratorOf(ctx, q.ID)
	if err != nil {
		return err
	}
	if !row.Built {
		return nil
	}
	cal, last, err := foldQueue(ctx, s.store, q, row.Sided)
	if err != nil {
		return err
	}
	if row.Cal != cal || row.Seq != last {
		rep.Diffs = append(rep.Diffs, VerifyDiff{GuildID: g.ID, QueueID: q.ID, Problem: fmt.Sprintf(
			"calibration: the stored calibrator (%d results, up to seq %d, weights %v) differs from a fold of the log (%d results, up to seq %d, weights %v)",
			row.Cal.N, row.Seq, row.Cal.W, cal.N, last, cal.W)})
	}
	return nil
}
