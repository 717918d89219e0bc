package formats_test

import (
	"testing"

	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// sub has a moderator seat in in place of out in match m.
func (e env) sub(t *testing.T, m ladder.Match, out, in string) {
	t.Helper()
	if _, err := e.svc.ForceSub(e.ctx, admin, guild, m.ID, out, in); err != nil {
		t.Fatalf("ForceSub(%s for %s) = %v", in, out, err)
	}
}

// TestSeriesReportSurvivesSub: a game reported by a player who is then
// substituted stays their team's report: the teammates cannot confirm or
// dispute it (only the other team does), and the substitute may change it
// as the reporter could.
func TestSeriesReportSurvivesSub(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b, formats.ModeNone)
		e.series(t, formats.RateSeries)
		m := e.open(t)
		if _, err := e.fm.ReportGame(e.ctx, ladder.Actor{UserID: user(1)}, guild, m.ID, 1, true); err != nil {
			t.Fatal(err)
		}
		e.sub(t, m, user(1), user(9))
		if r, err := e.fm.ConfirmGame(e.ctx, ladder.Actor{UserID: user(2)}, guild, m.ID, 1); ladder.ErrorCode(err) != ladder.CodeForbidden {
			t.Errorf("Got(the reporter's teammate confirms after the reporter left) = %+v, %v, want forbidden", r.Confirmed, err)
		}
		if r, err := e.fm.ReportGame(e.ctx, ladder.Actor{UserID: user(2)}, guild, m.ID, 1, true); err != nil || r.Confirmed || !r.AlreadyDone {
			t.Errorf("Got(the reporter's teammate reports the same) = confirmed %v, already done %v, %v, want already done", r.Confirmed, r.AlreadyDone, err)
		}
		if _, err := e.fm.DisputeGame(e.ctx, ladder.Actor{UserID: user(9)}, guild, m.ID, 1, "no"); ladder.ErrorCode(err) != ladder.CodeForbidden {
			t.Errorf("Got(the substitute disputes their own team's report) = %v, want forbidden", err)
		}
		sr := e.seriesOf(t, ladder.Match{ID: m.ID})
		if p, ok := sr.Pending(); !ok || p.Confirmed() || p.Winner != 1 {
			t.Fatalf("Got(game 1) = %+v, %v, want team 1's report waiting", p, ok)
		}
		res, err := e.fm.ConfirmGame(e.ctx, ladder.Actor{UserID: user(3)}, guild, m.ID, 1)
		if err != nil || !res.Confirmed || res.Series.Score() != "1-0" {
			t.Fatalf("Got(the other team confirms) = %+v, %v, want 1-0", res, err)
		}
	})
}

// TestMapPickSurvivesSub: a substitute takes their seat's part in a
// running map pick: the banner's turn, and a vote of their own.
func TestMapPickSurvivesSub(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b, formats.ModeBan, "Dust", "Mirage", "Nuke")
		m := e.open(t)
		res, err := e.fm.Start(e.ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		out := res.Pick.Banners[0]
		e.sub(t, m, out, user(9))
		if _, err := e.fm.Ban(e.ctx, ladder.Actor{UserID: out}, guild, m.ID, 1, 0, "Dust"); ladder.ErrorCode(err) != ladder.CodeForbidden {
			t.Errorf("Got(the replaced banner bans) = %v, want forbidden", err)
		}
		if r, err := e.fm.Ban(e.ctx, ladder.Actor{UserID: user(9)}, guild, m.ID, 1, 0, "Dust"); err != nil || len(r.Banned) != 1 {
			t.Fatalf("Got(the substitute bans in the replaced banner's turn) = %+v, %v, want a ban", r.Banned, err)
		}

		// A vote: the replaced player's vote is theirs, not the seat's;
		// the vote closes once every player of the match has voted.
		e = newEnv(t, b, formats.ModeVote, "Dust", "Mirage", "Nuke")
		m = e.open(t)
		if _, err := e.fm.Start(e.ctx, m); err != nil {
			t.Fatal(err)
		}
		vote := func(u, name string) formats.Result {
			t.Helper()
			r, err := e.fm.Vote(e.ctx, ladder.Actor{UserID: u}, guild, m.ID, 1, name)
			if err != nil {
				t.Fatalf("Vote(%s) = %v", u, err)
			}
			return r
		}
		vote(user(1), "Nuke")
		e.sub(t, m, user(1), user(9))
		for _, u := range []string{user(2), user(3), user(4)} {
			if r := vote(u, "Dust"); r.Chosen {
				t.Fatalf("Got(vote of %s) = chosen %s, want the vote open until the substitute votes", u, r.Pick.Chosen)
			}
		}
		if r := vote(user(9), "Mirage"); !r.Chosen || r.Pick.Chosen != "Dust" || len(r.Pick.Votes) != 4 {
			t.Fatalf("Got(the substitute's vote) = %s by %d votes, want Dust chosen by the 4 players' votes", r.Pick.Chosen, len(r.Pick.Votes))
		}
	})
}
