package ladder

import (
	"context"
	"fmt"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"slices"
	"sort"
)

// event is one step of a ladder's log in replay order: a rated match or a
// moderator adjustment of one player.
type event struct {
	seq   int64
	match *Match
	adj   *RatingChange
}

// mergeEvents orders rated matches and adjustments by Seq. Within one Seq
// (an adjustment never shares one with a match) the input order is kept.
func mergeEvents(ms []Match, adjs []RatingChange) []event {
	evs := make([]event, 0, len(ms)+len(adjs))
	for i := range ms {
		evs = append(evs, event{seq: ms[i].Seq, match: &ms[i]})
	}
	for i := range adjs {
		evs = append(evs, event{seq: adjs[i].Seq, adj: &adjs[i]})
	}
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].seq < evs[j].seq })
	return evs
}

// applyAdjustment is how a moderator's set or reset replays: it sets the
// rating, deviation and model memory, and keeps games and the last match time.
func applyAdjustment(st rating.State, adj RatingChange) rating.State {
	st.Rating, st.Dev, st.Recent = adj.After.Rating, adj.After.Dev, adj.After.Recent
	return st
}

// folder replays events over per-player rows.
type folder struct {
	model rating.Model
	rows  map[string]*Rating
	// log receives the new log rows when non-nil.
	log []RatingChange
	// predict makes fold record the model's raw P(team 1 wins) of every
	// match in preds, for verify's calibration check (issue 18).
	predict bool
	preds   []float64
	// models, when not nil, gives the model in force at each match's seq:
	// a queue that adopted new constants mid-log (issue 18).
	models *modelLog
	a      [rating.MaxTeamSize]rating.State
	b      [rating.MaxTeamSize]rating.State
}

// fold applies evs in order. Every player of evs must have a row.
func (f *folder) fold(evs []event, keepLog bool) error {
	for _, ev := range evs {
		if ev.adj != nil {
			r, ok := f.rows[ev.adj.UserID]
			if !ok {
				return fmt.Errorf("replay: adjustment of %s without a rating row", ev.adj.UserID)
			}
			before := r.State
			r.State = applyAdjustment(r.State, *ev.adj)
			if keepLog {
				c := *ev.adj
				c.Before, c.After, c.Record = before, r.State, r.Record
				f.log = append(f.log, c)
			}
			continue
		}
		m := ev.match
		n := len(m.Teams[0])
		if n > rating.MaxTeamSize || len(m.Teams[1]) != n {
			return fmt.Errorf("replay: match %d has teams of %d and %d", m.ID, n, len(m.Teams[1]))
		}
		for t, dst := range [2][]rating.State{f.a[:n], f.b[:n]} {
			for i, u := range m.Teams[t] {
				r, ok := f.rows[u]
				if !ok {
					return fmt.Errorf("replay: match %d: player %s has no rating row", m.ID, u)
				}
				dst[i] = r.State
			}
		}
		if f.models != nil {
			f.model = f.models.at(m.Seq)
		}
		score := Score(m.Winner)
		if f.predict {
			f.preds = append(f.preds, f.model.Predict(f.a[:n], f.b[:n], m.PlayedAt))
		}
		f.model.Update(f.a[:n], f.b[:n], score, m.PlayedAt)
		for t, src := range [2][]rating.State{f.a[:n], f.b[:n]} {
			own := score
			if t == 1 {
				own = 1 - score
			}
			for i, u := range m.Teams[t] {
				r := f.rows[u]
				if keepLog {
					f.log = append(f.log, RatingChange{
						Seq: m.Seq, QueueID: m.QueueID, SeasonID: m.SeasonID, MatchID: m.ID, UserID: u,
						Team: t + 1, Kind: "match", Before: r.State, After: src[i], Record: r.Record, At: m.PlayedAt,
					})
				}
				r.State = src[i]
				r.Record.add(own)
			}
		}
	}
	return nil
}

// Replayed is one player's rating before and after a replay.
type Replayed struct {
	UserID string
	Name   string
	Before Standing
	After  Standing
}

// replayFrom re-rates ladder (q, season) from log position fromSeq on, after
// the caller changed or voided the match there: it locks every player whose
// rows the replay touches, rewrites their log rows and ratings, and returns
// whose rating changed. starts, when not nil, gives some players a new
// state to enter the replay with in place of the one their log recorded
// (a season's base changed by a correction of the season before).
func replayFrom(ctx context.Context, tx Tx, g Guild, q Queue, season Season, fromSeq int64, starts map[string]rating.State) ([]Replayed, error) {
	model, err := modelFor(q)
	if err != nil {
		return nil, err
	}
	k := Key{QueueID: q.ID, SeasonID: season.ID}
	// The replay rewrites log rows the queue's calibrator has folded: it
	// is rebuilt at the end, its row locked first, before any rating row,
	// as every rated write locks it.
	cal, err := tx.LockCalibrator(ctx, q.ID)
	if err != nil {
		return nil, err
	}
	var (
		old     []RatingChange
		ms      []Match
		rows    []Rating
		lockedU []string
	)
	// Lock, then read; if the log names players not yet locked (a result
	// committed in between), lock them too and read again.
	for {
		if old, err = tx.Changes(ctx, k, fromSeq); err != nil {
			return nil, err
		}
		if ms, err = tx.RatedMatches(ctx, k, fromSeq); err != nil {
			return nil, err
		}
		users := map[string]bool{}
		for _, c := range old {
			users[c.UserID] = true
		}
		for _, m := range ms {
			for _, u := range m.Players() {
				users[u] = true
			}
		}
		all := make([]string, 0, len(users))
		for u := range users {
			all = append(all, u)
		}
		slices.Sort(all)
		if slices.Equal(all, lockedU) {
			break
		}
		// A corrected match may name a player whose row never existed only
		// if the log was edited by hand, but a replay must not fail on it.
		lk, err := Ladder{Guild: g, Queue: q, Season: season}.lock(ctx, tx, model, all, nil)
		if err != nil {
			return nil, err
		}
		rows, lockedU = lk.sorted(), all
	}
	models, err := modelsOf(ctx, tx, q)
	if err != nil {
		return nil, err
	}
	f := &folder{model: model, rows: make(map[string]*Rating, len(rows)), models: models}
	before := make(map[string]Rating, len(rows))
	for i := range rows {
		r := rows[i]
		before[r.UserID] = r
		f.rows[r.UserID] = &rows[i]
	}
	// Each player starts from the state before their first row at or after fromSeq.
	var adjs []RatingChange
	seen := map[string]bool{}
	for _, c := range old {
		if !seen[c.UserID] {
			seen[c.UserID] = true
			f.rows[c.UserID].State, f.rows[c.UserID].Record = c.Before, c.Record
			if st, ok := starts[c.UserID]; ok {
				f.rows[c.UserID].State = st
			}
		}
		if c.Kind != "match" {
			adjs = append(adjs, c)
		}
	}
	if err := f.fold(mergeEvents(ms, adjs), true); err != nil {
		return nil, err
	}
	// Only the locked players' rows are rewritten: a result of other players
	// committed after the reads above is not part of this replay and keeps its rows.
	if err := tx.DeleteChanges(ctx, k, fromSeq, lockedU); err != nil {
		return nil, err
	}
	if err := tx.InsertChanges(ctx, f.log); err != nil {
		return nil, err
	}
	var out []Replayed
	save := make([]Rating, 0, len(rows))
	for _, u := range lockedU {
		r := f.rows[u]
		refresh(r, model, g.PlacementGames)
		save = append(save, *r)
		b := before[u]
		if b.State != r.State || b.Record != r.Record {
			out = append(out, Replayed{UserID: u, Before: standingOf(g, model, b), After: standingOf(g, model, *r)})
		}
	}
	if err := tx.SaveRatings(ctx, save); err != nil {
		return nil, err
	}
	if err := rebuildCalibrator(ctx, tx, q, cal); err != nil {
		return nil, err
	}
	return out, nil
}

// standingOf converts a stored row of a ladder rated by model to a Standing
// without rank or name; its GXE is the model's (ModelGXE).
func standingOf(g Guild, model rating.Model, r Rating) Standing {
	return Standing{
		UserID: r.UserID, Rating: r.Display, RD: r.DisplayDev, GXE: ratingGXE(model, r),
		Division: g.Division(r.Display), Wins: r.Wins, Losses: r.Losses, Draws: r.Draws, Streak: r.Streak,
		Games: r.State.Games, Provisional: r.Provisional, Stale: r.Stale, LastMatch: r.State.Last,
	}
}
