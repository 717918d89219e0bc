package storage_test

import (
	"github.com/ladderbot/ladderbot/ladder/rating"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// seasonPlay is a three-season history: season 1 closes, season 2 closes,
// season 3 runs. flip gives season 1's first match the other result and
// skip leaves its second match out; the clock moves the same either way.
// It returns the IDs of season 1's first two matches (0 when skipped).
func seasonPlay(t *testing.T, e *env, flip, skip bool) (first, second int64) {
	t.Helper()
	p := []string{user(1), user(2), user(3), user(4), user(5), user(6)}
	rec := func(t1, t2 []string, winner int) int64 {
		t.Helper()
		r, err := e.svc.RecordResult(e.ctx, result(t1, t2, winner))
		if err != nil {
			t.Fatalf("RecordResult() = %v", err)
		}
		e.clock.Add(time.Hour)
		return r.Match.ID
	}
	end := func(n int) {
		t.Helper()
		if _, err := e.svc.EndSeason(e.ctx, mod, guild, n); err != nil {
			t.Fatalf("EndSeason(%d) = %v", n, err)
		}
		e.clock.Add(24 * time.Hour)
	}
	g, _ := e.svc.Guild(e.ctx, guild)
	g.PlacementGames = 0
	if _, err := e.svc.UpdateGuild(e.ctx, mod, g); err != nil {
		t.Fatal(err)
	}
	first = rec(p[:2], p[2:4], map[bool]int{false: 1, true: 2}[flip])
	if skip {
		e.clock.Add(time.Hour)
	} else {
		second = rec(p[4:6], p[:2], 1)
	}
	rec(p[2:4], p[4:6], 2)
	rec([]string{p[0], p[4]}, []string{p[1], p[5]}, 1)
	end(1)
	rec([]string{p[0], p[2]}, []string{p[1], p[3]}, 1)
	// p[4] and p[5] enter season 2 with one match that is voided: rows
	// with a base and no log.
	voided := rec(p[4:6], p[2:4], 2)
	if _, err := e.svc.Void(e.ctx, mod, guild, voided, "wrong lobby"); err != nil {
		t.Fatalf("Void() = %v", err)
	}
	rec(p[:2], p[2:4], 1)
	end(2)
	rec(p[:2], p[2:4], 2)
	rec([]string{p[0], p[3]}, []string{p[1], p[2]}, 1)
	return first, second
}

// ladderState is every rating row and frozen standing of the guild's
// default queue, by season number.
type ladderState struct {
	ratings   map[int][]ladder.Rating
	standings map[int][]ladder.SeasonResult
}

func snapshotLadder(t *testing.T, e *env) ladderState {
	t.Helper()
	qs, err := e.svc.Queues(e.ctx, guild)
	if err != nil {
		t.Fatal(err)
	}
	out := ladderState{ratings: map[int][]ladder.Rating{}, standings: map[int][]ladder.SeasonResult{}}
	for n := 1; n <= 3; n++ {
		se, err := e.db.Season(e.ctx, guild, n)
		if err != nil {
			t.Fatalf("Season(%d) = %v", n, err)
		}
		if out.ratings[n], err = e.db.Ratings(e.ctx, ladder.Key{QueueID: qs[0].ID, SeasonID: se.ID}, nil); err != nil {
			t.Fatal(err)
		}
		if out.standings[n], err = e.db.SeasonResults(e.ctx, se.ID, qs[0].ID); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func close9(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(a)) }

func sameState(a, b rating.State) bool {
	return close9(a.Rating, b.Rating) && close9(a.Dev, b.Dev) && a.Games == b.Games && a.Last.Equal(b.Last) && a.Recent == b.Recent
}

// compareLadders reports every difference between a corrected ladder and
// one that had the corrected history from the start.
func compareLadders(t *testing.T, got, want ladderState) {
	t.Helper()
	for n := 1; n <= 3; n++ {
		g, w := got.ratings[n], want.ratings[n]
		if len(g) != len(w) {
			t.Errorf("season %d: %d rating rows, want %d", n, len(g), len(w))
			continue
		}
		for i := range g {
			if g[i].UserID != w[i].UserID || !sameState(g[i].State, w[i].State) || !sameState(g[i].Base, w[i].Base) ||
				g[i].Record != w[i].Record || !close9(g[i].Display, w[i].Display) {
				t.Errorf("season %d rating %s = %+v\nwant %+v", n, g[i].UserID, g[i], w[i])
			}
		}
		gs, ws := got.standings[n], want.standings[n]
		if !slices.EqualFunc(gs, ws, func(a, b ladder.SeasonResult) bool {
			return a.UserID == b.UserID && a.Rank == b.Rank && close9(a.Rating, b.Rating) && close9(a.RD, b.RD) &&
				a.Division == b.Division && a.Badge == b.Badge && a.Wins == b.Wins && a.Losses == b.Losses
		}) {
			t.Errorf("season %d standings = %+v\nwant %+v", n, gs, ws)
		}
	}
}

// TestClosedSeasonCorrection corrects and voids matches of a closed season
// and checks the ladder equals one that had the corrected history all along:
// the frozen standings of seasons 1 and 2, the bases carried into seasons 2
// and 3 and every rating after them.
func TestClosedSeasonCorrection(t *testing.T) {
	suite(t, map[string]func(t *testing.T, b string){
		"correct": func(t *testing.T, b string) {
			e := newEnv(t, b)
			first, _ := seasonPlay(t, e, false, false)
			before := snapshotLadder(t, e)
			pre, err := e.svc.PreviewCorrection(e.ctx, mod, guild, first, 2)
			if err != nil || !slices.Equal(pre.Refrozen, []int{1, 2}) || len(pre.Carried) == 0 {
				t.Fatalf("PreviewCorrection() = refrozen %v, carried %d, %v; want seasons 1 and 2 and carried changes", pre.Refrozen, len(pre.Carried), err)
			}
			compareLadders(t, snapshotLadder(t, e), before)
			c, err := e.svc.Correct(e.ctx, mod, guild, first, 2, "reported backwards")
			if err != nil || !slices.Equal(c.Refrozen, []int{1, 2}) || len(c.Carried) == 0 {
				t.Fatalf("Correct() = refrozen %v, carried %d, %v; want seasons 1 and 2 and carried changes", c.Refrozen, len(c.Carried), err)
			}
			want := newEnv(t, b)
			seasonPlay(t, want, true, false)
			compareLadders(t, snapshotLadder(t, e), snapshotLadder(t, want))
			mustVerify(t, e)
		},
		"void": func(t *testing.T, b string) {
			e := newEnv(t, b)
			_, second := seasonPlay(t, e, false, false)
			if _, err := e.svc.Void(e.ctx, mod, guild, second, "never played"); err != nil {
				t.Fatalf("Void() = %v", err)
			}
			want := newEnv(t, b)
			seasonPlay(t, want, false, true)
			compareLadders(t, snapshotLadder(t, e), snapshotLadder(t, want))
			mustVerify(t, e)
		},
	})
}
