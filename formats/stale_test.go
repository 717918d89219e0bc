package formats_test

import (
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestMapPickAfterCancel: a match cancelled while its map is being
// picked picks none: its vote, ban and pick menus are stale, a click on
// them is refused and neither the pick nor the match's map changes.
func TestMapPickAfterCancel(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		cancel := func(e env, m ladder.Match) {
			t.Helper()
			if _, err := e.svc.Cancel(e.ctx, ladder.Actor{UserID: user(1)}, guild, m.ID, ""); err != nil {
				t.Fatal(err)
			}
		}
		refused := func(what string, e env, m ladder.Match, game int, err error) {
			t.Helper()
			if ladder.ErrorCode(err) != ladder.CodeConflict || !strings.Contains(err.Error(), "cancelled") {
				t.Errorf("Got(%s after the cancel) = %v, want refused: the match is cancelled", what, err)
			}
			p, err := e.fm.Pick(e.ctx, guild, m.ID, game)
			if err != nil || p.State != formats.StatePicking || p.Chosen != "" {
				t.Errorf("Got(pick after %s) = %s %q, %v, want it still unchosen", what, p.State, p.Chosen, err)
			}
			if got, err := e.svc.Match(e.ctx, guild, m.ID); err != nil || got.State != ladder.StateCancelled || (game == 1 && got.Map != "") {
				t.Errorf("Got(match after %s) = %s %q, %v, want cancelled without a map", what, got.State, got.Map, err)
			}
			if n := len(e.audits(t, "maps.chosen")); n != 0 && game == 1 {
				t.Errorf("Got(maps.chosen audits after %s) = %d, want 0", what, n)
			}
		}

		// A vote: three players vote after the cancel, the last of whom
		// would have closed it.
		e := newEnv(t, b, formats.ModeVote, "Dust", "Mirage", "Nuke")
		m := e.open(t)
		if _, err := e.fm.Start(e.ctx, m); err != nil {
			t.Fatal(err)
		}
		if _, err := e.fm.Vote(e.ctx, ladder.Actor{UserID: user(1)}, guild, m.ID, 1, "Nuke"); err != nil {
			t.Fatal(err)
		}
		cancel(e, m)
		for i := 2; i <= 4; i++ {
			_, err := e.fm.Vote(e.ctx, ladder.Actor{UserID: user(i)}, guild, m.ID, 1, "Nuke")
			refused("a vote", e, m, 1, err)
		}

		// Bans: the banner's ban that would leave one map.
		e = newEnv(t, b, formats.ModeBan, "Dust", "Mirage")
		m = e.open(t)
		res, err := e.fm.Start(e.ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		cancel(e, m)
		_, err = e.fm.Ban(e.ctx, ladder.Actor{UserID: res.Pick.Banners[0]}, guild, m.ID, 1, 0, "Dust")
		refused("a ban", e, m, 1, err)

		// The losers' pick of game 2 of a series.
		e = newEnv(t, b, formats.ModeNone, "Dust", "Mirage", "Nuke")
		e.bestOf3(t, formats.ModeLoser, formats.RateSeries)
		m = e.open(t)
		if _, err := e.fm.Start(e.ctx, m); err != nil {
			t.Fatal(err)
		}
		e.game(t, m, 1, 1)
		cancel(e, m)
		left := e.seriesOf(t, m).NextPick.Pool
		if len(left) == 0 {
			left = []string{"Nuke"}
		}
		_, err = e.fm.PickMap(e.ctx, ladder.Actor{UserID: user(3)}, guild, m.ID, 2, left[0])
		refused("the losers' pick", e, m, 2, err)
	})
}

// TestSeriesDisputeAfterCancel: a disputed game of a series that ends
// without it (cancelled, voided, ended early by a moderator) no longer
// waits for a moderator: /mod disputes does not list it, since a
// moderator could not settle it there.
func TestSeriesDisputeAfterCancel(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b, formats.ModeNone)
		e.series(t, formats.RateSeries)
		end := map[string]func(m ladder.Match) error{
			"cancelled": func(m ladder.Match) error {
				_, err := e.svc.Cancel(e.ctx, ladder.Actor{UserID: user(1)}, guild, m.ID, "")
				return err
			},
			"voided": func(m ladder.Match) error {
				_, err := e.svc.Void(e.ctx, admin, guild, m.ID, "no show")
				return err
			},
			"ended early": func(m ladder.Match) error {
				_, _, err := e.fm.EndSeries(e.ctx, admin, guild, m.ID)
				return err
			},
		}
		for _, how := range []string{"cancelled", "voided", "ended early"} {
			m := e.open(t)
			e.play(t, m, 1)
			if _, err := e.fm.ReportGame(e.ctx, ladder.Actor{UserID: user(1)}, guild, m.ID, 2, true); err != nil {
				t.Fatal(err)
			}
			if _, err := e.fm.DisputeGame(e.ctx, ladder.Actor{UserID: user(3)}, guild, m.ID, 2, "we won"); err != nil {
				t.Fatal(err)
			}
			if ds, err := e.fm.Disputes(e.ctx, guild, 10); err != nil || len(ds) != 1 {
				t.Fatalf("Got(disputes before the series is %s) = %d, %v, want 1", how, len(ds), err)
			}
			if err := end[how](m); err != nil {
				t.Fatalf("%s: %v", how, err)
			}
			if ds, err := e.fm.Disputes(e.ctx, guild, 10); err != nil || len(ds) != 0 {
				t.Errorf("Got(disputes after the series is %s) = %+v, %v, want none", how, ds, err)
			}
		}
	})
}
