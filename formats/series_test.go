package formats_test

import (
	"bytes"
	"testing"

	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

// series sets the queue to best of 3, rated as rating says.
func (e env) series(t *testing.T, rating formats.Rating) {
	t.Helper()
	if err := e.fm.SaveSettings(e.ctx, admin, e.queue, formats.Settings{MapPick: formats.ModeNone, BestOf: 3, SeriesRating: rating}); err != nil {
		t.Fatal(err)
	}
}

// play reports and confirms each game of match m won by the teams in
// winners, team 1's first player reporting and team 2's confirming.
func (e env) play(t *testing.T, m ladder.Match, winners ...int) formats.SeriesResult {
	t.Helper()
	var res formats.SeriesResult
	for i, w := range winners {
		e.clock.Add(10 * 60e9)
		r, err := e.fm.ReportGame(e.ctx, ladder.Actor{UserID: m.Teams[0][0]}, guild, m.ID, i+1, w == 1)
		if err != nil || r.Confirmed {
			t.Fatalf("ReportGame(%d) = %+v, %v, want a report waiting", i+1, r, err)
		}
		if res, err = e.fm.ConfirmGame(e.ctx, ladder.Actor{UserID: m.Teams[1][1]}, guild, m.ID, i+1); err != nil || !res.Confirmed {
			t.Fatalf("ConfirmGame(%d) = %+v, %v, want it confirmed", i+1, res, err)
		}
	}
	return res
}

func (e env) verify(t *testing.T) {
	t.Helper()
	rep, err := e.svc.Verify(e.ctx, guild)
	if err != nil || len(rep.Diffs) != 0 {
		t.Fatalf("Verify = %+v, %v, want no differences from the replay", rep, err)
	}
}

func (e env) games(t *testing.T, u string) (int, int) {
	t.Helper()
	st, err := e.svc.CurrentStandings(e.ctx, guild, "", []string{u})
	if err != nil {
		t.Fatal(err)
	}
	return st[0].Wins, st[0].Games
}

func TestSeriesRatedOnce(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b, formats.ModeNone)
		e.series(t, formats.RateSeries)
		m := e.open(t)
		// Refused: an outsider, a game out of order, a report the other
		// way from the other team, the same team confirming.
		if _, err := e.fm.ReportGame(e.ctx, ladder.Actor{UserID: user(9)}, guild, m.ID, 1, true); ladder.ErrorCode(err) != ladder.CodeForbidden {
			t.Errorf("Got(outsider) = %v, want forbidden", err)
		}
		if _, err := e.fm.ReportGame(e.ctx, ladder.Actor{UserID: user(1)}, guild, m.ID, 2, true); ladder.ErrorCode(err) != ladder.CodeInvalid {
			t.Errorf("Got(game 2 first) = %v, want invalid", err)
		}
		if _, err := e.fm.ReportGame(e.ctx, ladder.Actor{UserID: user(1)}, guild, m.ID, 1, false); err != nil {
			t.Fatal(err)
		}
		if _, err := e.fm.ReportGame(e.ctx, ladder.Actor{UserID: user(3)}, guild, m.ID, 1, false); ladder.ErrorCode(err) != ladder.CodeConflict {
			t.Errorf("Got(conflicting report) = %v, want conflict", err)
		}
		if _, err := e.fm.ConfirmGame(e.ctx, ladder.Actor{UserID: user(2)}, guild, m.ID, 1); ladder.ErrorCode(err) != ladder.CodeForbidden {
			t.Errorf("Got(own team confirms) = %v, want forbidden", err)
		}
		// The other team reports it the same way: confirmed, 0-1.
		r, err := e.fm.ReportGame(e.ctx, ladder.Actor{UserID: user(4)}, guild, m.ID, 1, true)
		if err != nil || !r.Confirmed || r.Series.Score() != "0-1" || r.Rated.Match.ID != 0 {
			t.Fatalf("Got(matching report) = %+v, %v, want game 1 confirmed at 0-1 and nothing rated", r, err)
		}
		if again, err := e.fm.ConfirmGame(e.ctx, ladder.Actor{UserID: user(4)}, guild, m.ID, 1); err != nil || !again.AlreadyDone {
			t.Errorf("Got(confirm twice) = %+v, %v, want already done", again, err)
		}
	})
}

func TestSeriesTwoOne(t *testing.T) {
	for _, rating := range []formats.Rating{formats.RateSeries, formats.RateGames} {
		t.Run(string(rating), func(t *testing.T) {
			testdb.ForEach(t, func(t *testing.T, b string) {
				e := newEnv(t, b, formats.ModeNone)
				e.series(t, rating)
				m := e.open(t)
				res := e.play(t, m, 2, 1, 1)
				got, err := e.svc.Match(e.ctx, guild, m.ID)
				if err != nil {
					t.Fatal(err)
				}
				if got.State != ladder.StateConfirmed || got.Winner != 1 || got.Score != "2-1" || res.Series.Score() != "2-1" || res.Rated.Match.ID != m.ID {
					t.Fatalf("Got(series) = %s, winner %d, score %q, want confirmed 2-1 for team 1", got.State, got.Winner, got.Score)
				}
				wins, games := e.games(t, user(1))
				want := [2]int{1, 1} // one rated result
				if rating == formats.RateGames {
					want = [2]int{2, 3} // each game
				}
				if wins != want[0] || games != want[1] {
					t.Errorf("Got(user 1's record) = %d wins of %d, want %d of %d", wins, games, want[0], want[1])
				}
				e.verify(t)
				// A finished series takes no more games.
				if r, err := e.fm.ReportGame(e.ctx, ladder.Actor{UserID: user(1)}, guild, m.ID, 4, true); err == nil && !r.AlreadyDone {
					t.Errorf("Got(a 4th game) = %+v, want refused", r)
				}

				// A moderator corrects game 2 (team 1's first win) to team 2:
				// the series is 1-2 now.
				sr, err := e.fm.CorrectGame(e.ctx, admin, guild, m.ID, 2, 2, "wrong report")
				if err != nil {
					t.Fatal(err)
				}
				got, _ = e.svc.Match(e.ctx, guild, m.ID)
				if sr.Score() != "1-2" || got.Score != "1-2" {
					t.Errorf("Got(score after the correction) = %q (match %q), want 1-2", sr.Score(), got.Score)
				}
				wins, games = e.games(t, user(1))
				want = [2]int{0, 1} // the series is lost now
				wantWinner := 2
				if rating == formats.RateGames {
					want = [2]int{1, 3} // games 1 and 2 lost, game 3 won
					wantWinner = 1      // the series' row is game 3
				}
				if wins != want[0] || games != want[1] || got.Winner != wantWinner {
					t.Errorf("Got(after the correction) = %d wins of %d, series row winner %d, want %d of %d, %d", wins, games, got.Winner, want[0], want[1], wantWinner)
				}
				e.verify(t)
				if _, err := e.fm.CorrectGame(e.ctx, ladder.Actor{UserID: user(1)}, guild, m.ID, 2, 1, ""); ladder.ErrorCode(err) != ladder.CodeForbidden {
					t.Errorf("Got(a player corrects) = %v, want forbidden", err)
				}
			})
		})
	}
}

// TestSeriesDecidedByCorrection: a moderator's correction that gives a
// team the majority of an unfinished series ends it, rated as if played
// so: a queue rating each game rates each game once (the deciding game,
// rated on its own before, moves to the series' row), never a game that
// was not played; a game reported after the deciding one is not rated.
func TestSeriesDecidedByCorrection(t *testing.T) {
	for _, rating := range []formats.Rating{formats.RateSeries, formats.RateGames} {
		t.Run(string(rating), func(t *testing.T) {
			testdb.ForEach(t, func(t *testing.T, b string) {
				e := newEnv(t, b, formats.ModeNone)
				e.series(t, rating)
				for _, tc := range []struct {
					name    string
					winners []int
					pending bool
					game    int
				}{
					{"the last game corrected", []int{1, 2}, false, 2},
					{"an earlier game corrected", []int{2, 1}, false, 1},
					{"with game 3 reported", []int{1, 2}, true, 2},
				} {
					m, err := e.svc.CreateMatch(e.ctx, ladder.NewMatch{GuildID: guild, QueueID: e.queue.ID,
						Teams: [2][]string{{user(1), user(2)}, {user(3), user(4)}}})
					if err != nil {
						t.Fatal(err)
					}
					wins0, games0 := e.games(t, user(1))
					e.play(t, m, tc.winners...)
					if tc.pending {
						if _, err := e.fm.ReportGame(e.ctx, ladder.Actor{UserID: user(1)}, guild, m.ID, 3, true); err != nil {
							t.Fatal(err)
						}
					}
					sr, err := e.fm.CorrectGame(e.ctx, admin, guild, m.ID, tc.game, 1, "wrong report")
					if err != nil {
						t.Fatalf("%s: CorrectGame = %v", tc.name, err)
					}
					got, err := e.svc.Match(e.ctx, guild, m.ID)
					if err != nil {
						t.Fatal(err)
					}
					if got.State != ladder.StateConfirmed || got.Winner != 1 || got.Score != "2-0" || sr.Score() != "2-0" {
						t.Errorf("%s: Got(series) = %s, winner %d, score %q, want confirmed 2-0 for team 1", tc.name, got.State, got.Winner, got.Score)
					}
					wins, games := e.games(t, user(1))
					want := [2]int{1, 1} // the series, once
					if rating == formats.RateGames {
						want = [2]int{2, 2} // games 1 and 2, each once
					}
					if wins-wins0 != want[0] || games-games0 != want[1] {
						t.Errorf("%s: Got(user 1's record of the series) = %d wins of %d, want %d of %d", tc.name, wins-wins0, games-games0, want[0], want[1])
					}
					if tc.pending && sr.Games[2].RatedMatch != 0 {
						t.Errorf("%s: Got(game 3 rated by) = match %d, want unrated: it was never confirmed", tc.name, sr.Games[2].RatedMatch)
					}
					e.verify(t)
				}
			})
		})
	}
}

// TestSeriesGameCorrectionExports: a moderator's correction of a game a
// queue rated on its own corrects that game's row with its score (0-1
// once team 2 won it), and the match log exports in a form that reads
// back: the series' row, the last game, goes without the series' score
// its winner no longer leads.
func TestSeriesGameCorrectionExports(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b, formats.ModeNone)
		e.series(t, formats.RateGames)
		m := e.open(t)
		e.play(t, m, 2, 1, 1)
		sr, err := e.fm.CorrectGame(e.ctx, admin, guild, m.ID, 2, 2, "wrong report")
		if err != nil {
			t.Fatal(err)
		}
		own, err := e.svc.Match(e.ctx, guild, sr.Games[1].RatedMatch)
		if err != nil || own.Winner != 2 || own.Score != "0-1" {
			t.Errorf("Got(game 2's own row) = winner %d, score %q, %v, want team 2, 0-1", own.Winner, own.Score, err)
		}
		recs, err := e.svc.MatchLog(e.ctx, guild, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := rating.WriteMatchCSV(&buf, recs); err != nil {
			t.Fatal(err)
		}
		text := buf.String()
		back, err := rating.ReadMatchCSV(&buf)
		if err != nil || len(back) != 3 {
			t.Fatalf("ReadMatchCSV(export) = %d records, %v, want the 3 games back:\n%s", len(back), err, text)
		}
		for i, want := range []int{2, 2, 1} {
			if back[i].Winner != want {
				t.Errorf("Got(exported game %d) = winner %d, want %d", i+1, back[i].Winner, want)
			}
		}
		e.verify(t)
	})
}

// TestSeriesReplayProvesOneGame: a replay proves one game in the guild:
// the battle that proved a game of one series (at any of its URLs) does
// not prove a game of another, such as a rematch between the same teams.
func TestSeriesReplayProvesOneGame(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b, formats.ModeNone)
		e.series(t, formats.RateSeries)
		const replay = "https://replay.pokemonshowdown.com/gen9multirandombattle-1000000001"
		first := e.open(t)
		if res, err := e.fm.ProveGame(e.ctx, ladder.Actor{UserID: user(1)}, guild, first.ID, 1, replay); err != nil || !res.Confirmed {
			t.Fatalf("ProveGame(first series) = %+v, %v, want game 1 proved", res.Game, err)
		}
		if _, err := e.svc.Cancel(e.ctx, admin, guild, first.ID, "rematch"); err != nil {
			t.Fatal(err)
		}
		rematch := e.open(t)
		for _, again := range []string{replay, replay + ".json", "http://REPLAY.pokemonshowdown.com/Gen9MultiRandomBattle-1000000001?p2"} {
			res, err := e.fm.ProveGame(e.ctx, ladder.Actor{UserID: user(1)}, guild, rematch.ID, 1, again)
			if ladder.ErrorCode(err) != ladder.CodeConflict || res.Confirmed {
				t.Errorf("Got(the first series' replay %s proving the rematch's game 1) = confirmed %v, %v, want refused", again, res.Confirmed, err)
			}
		}
		if sr := e.seriesOf(t, rematch); len(sr.Games) != 0 {
			t.Errorf("Got(the rematch's games) = %+v, want none", sr.Games)
		}
		// Another replay proves the rematch's game.
		if res, err := e.fm.ProveGame(e.ctx, ladder.Actor{UserID: user(1)}, guild, rematch.ID, 1, replay[:len(replay)-1]+"2"); err != nil || !res.Confirmed {
			t.Errorf("ProveGame(another replay) = %+v, %v, want game 1 proved", res.Game, err)
		}
	})
}
