package ladder

import (
	"context"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"slices"
)

// carryCorrection follows a correction of a match of a closed season
// through the seasons after it, in the correction's transaction: the
// closed season's final standings are frozen again from the corrected
// ratings, and every later season that players entered with a carry-over
// of a changed final rating (docs/spec.md 4's soft reset) gets their new base and
// is replayed from the first of them. Frozen standings of the later
// closed seasons are frozen again too. It returns the numbers of the
// seasons whose standings it froze again and the players whose ratings
// in later seasons changed. Its caller (carryMatch) calls it only for a
// closed season and a correction that changed someone's rating.
func carryCorrection(ctx context.Context, tx Tx, g Guild, q Queue, season Season, changed []Replayed) ([]int, []Replayed, error) {
	model, err := modelFor(q)
	if err != nil {
		return nil, nil, err
	}
	var (
		refrozen []int
		carried  []Replayed
	)
	users := replayedUsers(changed)
	for !season.Running() {
		if err := refreeze(ctx, tx, g, q, season); err != nil {
			return nil, nil, err
		}
		refrozen = append(refrozen, season.Number)
		next, err := tx.Season(ctx, g.ID, season.Number+1)
		if isCode(err, CodeNotFound) {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		out, err := rebaseSeason(ctx, tx, g, q, model, season, next, users)
		if err != nil {
			return nil, nil, err
		}
		if len(out) == 0 {
			break
		}
		carried = append(carried, out...)
		users, season = replayedUsers(out), next
	}
	return refrozen, carried, nil
}

// refreeze replaces a closed season's frozen standings of q with the
// standings of its ratings as they are now.
func refreeze(ctx context.Context, tx Tx, g Guild, q Queue, season Season) error {
	rs, err := freeze(ctx, tx, g, q, season)
	if err != nil {
		return err
	}
	if err := tx.DeleteSeasonResults(ctx, season.ID, q.ID); err != nil {
		return err
	}
	return tx.SaveSeasonResults(ctx, rs)
}

// rebaseSeason gives the users who have a row in next the carry-over of
// their final state of prev as their base, and replays next from the first
// event of any of them whose base changed. It returns whose rating in
// next changed.
func rebaseSeason(ctx context.Context, tx Tx, g Guild, q Queue, model rating.Model, prev, next Season, users []string) ([]Replayed, error) {
	finals, err := tx.Ratings(ctx, Key{QueueID: q.ID, SeasonID: prev.ID}, users)
	if err != nil {
		return nil, err
	}
	nk := Key{QueueID: q.ID, SeasonID: next.ID}
	rows, err := tx.LockRatings(ctx, nk, users)
	if err != nil {
		return nil, err
	}
	final := make(map[string]rating.State, len(finals))
	for _, r := range finals {
		final[r.UserID] = r.State
	}
	fresh := model.New()
	starts := map[string]rating.State{}
	var rebased []Rating
	for _, r := range rows {
		p, ok := final[r.UserID]
		if !ok {
			continue
		}
		base := CarryOver(p, fresh, g.SeasonCarry)
		if base == r.Base {
			continue
		}
		r.Base = base
		starts[r.UserID] = base
		rebased = append(rebased, r)
	}
	if len(rebased) == 0 {
		return nil, nil
	}
	if err := tx.SaveBases(ctx, rebased); err != nil {
		return nil, err
	}
	log, err := tx.Changes(ctx, nk, 0)
	if err != nil {
		return nil, err
	}
	from := int64(-1)
	played := map[string]bool{}
	for _, c := range log {
		if _, ok := starts[c.UserID]; ok {
			played[c.UserID] = true
			if from < 0 || c.Seq < from {
				from = c.Seq
			}
		}
	}
	// A player whose only match of next was voided has a row and no log:
	// their rating is their base.
	var out []Replayed
	var idle []Rating
	for _, r := range rebased {
		if played[r.UserID] {
			continue
		}
		before := r
		r.State = r.Base
		refresh(&r, model, g.PlacementGames)
		idle = append(idle, r)
		out = append(out, Replayed{UserID: r.UserID, Before: standingOf(g, model, before), After: standingOf(g, model, r)})
	}
	if err := tx.SaveRatings(ctx, idle); err != nil {
		return nil, err
	}
	if from < 0 {
		return out, nil
	}
	replayed, err := replayFrom(ctx, tx, g, q, next, from, starts)
	if err != nil {
		return nil, err
	}
	return append(out, replayed...), nil
}

func replayedUsers(rs []Replayed) []string {
	us := make([]string, 0, len(rs))
	for _, r := range rs {
		us = append(us, r.UserID)
	}
	slices.Sort(us)
	return slices.Compact(us)
}
