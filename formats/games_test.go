package formats_test

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

// bestOf3 sets the queue to best of 3 with map_pick mode.
func (e env) bestOf3(t *testing.T, mode formats.Mode, rating formats.Rating) {
	t.Helper()
	if err := e.fm.SaveSettings(e.ctx, admin, e.queue, formats.Settings{MapPick: mode, BestOf: 3, SeriesRating: rating}); err != nil {
		t.Fatal(err)
	}
}

// game reports game n for team 1's player and confirms it by team 2's.
func (e env) game(t *testing.T, m ladder.Match, n, winner int) formats.SeriesResult {
	t.Helper()
	e.clock.Add(10 * time.Minute)
	if _, err := e.fm.ReportGame(e.ctx, ladder.Actor{UserID: user(1)}, guild, m.ID, n, winner == 1); err != nil {
		t.Fatalf("ReportGame(%d) = %v", n, err)
	}
	res, err := e.fm.ConfirmGame(e.ctx, ladder.Actor{UserID: user(3)}, guild, m.ID, n)
	if err != nil || !res.Confirmed {
		t.Fatalf("ConfirmGame(%d) = %+v, %v, want it confirmed", n, res, err)
	}
	return res
}

func (e env) seriesOf(t *testing.T, m ladder.Match) formats.Series {
	t.Helper()
	got, err := e.svc.Match(e.ctx, guild, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	sr, ok, err := e.fm.Series(e.ctx, got)
	if err != nil || !ok {
		t.Fatalf("Series = %v, %v", ok, err)
	}
	return sr
}

// TestSeriesMapPerGameLoser: with map_pick loser, game 1's map is drawn,
// and the team that lost each game picks the next one's from the maps
// not played yet; a pick that times out is drawn by its seed.
func TestSeriesMapPerGameLoser(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b, formats.ModeNone, "Dust", "Mirage", "Nuke", "Inferno")
		e.bestOf3(t, formats.ModeLoser, formats.RateGames)
		m := e.open(t)
		start, err := e.fm.Start(e.ctx, m)
		if err != nil || start.Pick.State != formats.StateDone || start.Pick.Mode != formats.ModeRandom {
			t.Fatalf("Start = %+v, %v, want game 1 drawn at random", start.Pick, err)
		}
		map1 := start.Pick.Chosen
		// Team 2 wins game 1: team 1 picks game 2's map.
		res := e.game(t, m, 1, 2)
		p := res.Next.Pick
		if p.Game != 2 || p.Mode != formats.ModeLoser || p.Team != 1 || p.State != formats.StatePicking || slices.Contains(p.Pool, map1) || len(p.Pool) != 3 {
			t.Fatalf("Got(next pick) = %+v, want game 2 picked by team 1 from the 3 maps not played", p)
		}
		if res.Series.Games[0].Map != map1 {
			t.Errorf("Got(game 1's map) = %q, want %q", res.Series.Games[0].Map, map1)
		}
		// Game 2 cannot be reported before its map is chosen.
		if _, err := e.fm.ReportGame(e.ctx, ladder.Actor{UserID: user(1)}, guild, m.ID, 2, true); ladder.ErrorCode(err) != ladder.CodeConflict {
			t.Errorf("Got(report while the map is picked) = %v, want conflict", err)
		}
		// Refused: the winners, an outsider, a map played already.
		if _, err := e.fm.PickMap(e.ctx, ladder.Actor{UserID: user(3)}, guild, m.ID, 2, p.Pool[0]); ladder.ErrorCode(err) != ladder.CodeForbidden {
			t.Errorf("Got(the winners pick) = %v, want forbidden", err)
		}
		if _, err := e.fm.PickMap(e.ctx, ladder.Actor{UserID: user(9)}, guild, m.ID, 2, p.Pool[0]); ladder.ErrorCode(err) != ladder.CodeForbidden {
			t.Errorf("Got(an outsider picks) = %v, want forbidden", err)
		}
		if _, err := e.fm.PickMap(e.ctx, ladder.Actor{UserID: user(2)}, guild, m.ID, 2, map1); ladder.ErrorCode(err) != ladder.CodeInvalid {
			t.Errorf("Got(pick the map of game 1) = %v, want invalid", err)
		}
		map2 := p.Pool[1]
		r, err := e.fm.PickMap(e.ctx, ladder.Actor{UserID: user(2)}, guild, m.ID, 2, map2)
		if err != nil || !r.Chosen || r.Pick.Chosen != map2 {
			t.Fatalf("PickMap = %+v, %v, want %s chosen", r, err, map2)
		}
		if again, err := e.fm.PickMap(e.ctx, ladder.Actor{UserID: user(1)}, guild, m.ID, 2, p.Pool[0]); err != nil || !again.AlreadyDone || again.Pick.Chosen != map2 {
			t.Errorf("Got(a second pick) = %+v, %v, want already done with %s", again, err, map2)
		}
		if sr := e.seriesOf(t, m); sr.NextMap() != map2 {
			t.Errorf("Got(next map) = %q, want %q", sr.NextMap(), map2)
		}
		if got, _ := e.svc.Match(e.ctx, guild, m.ID); got.Map != map1 {
			t.Errorf("Got(match map) = %q, want game 1's %q", got.Map, map1)
		}
		// Team 1 wins game 2: team 2 picks game 3's map, and lets the
		// time run out; the job draws it from the two maps left.
		res = e.game(t, m, 2, 1)
		p = res.Next.Pick
		if p.Game != 3 || p.Team != 2 || len(p.Pool) != 2 || slices.Contains(p.Pool, map1) || slices.Contains(p.Pool, map2) {
			t.Fatalf("Got(game 3's pick) = %+v, want team 2 picking from the 2 maps left", p)
		}
		e.clock.Add(time.Hour)
		due, err := e.fm.Expire(e.ctx)
		if err != nil || len(due) != 1 || !due[0].TimedOut || due[0].Pick.Game != 3 || !slices.Contains(p.Pool, due[0].Pick.Chosen) {
			t.Fatalf("Expire = %+v, %v, want game 3's map drawn", due, err)
		}
		map3 := due[0].Pick.Chosen
		stored, err := e.fm.Pick(e.ctx, guild, m.ID, 3)
		if err != nil || stored.Draw() != map3 {
			t.Errorf("Got(the stored seed's draw) = %q, %v, want %q: the draw replays from the row", stored.Draw(), err, map3)
		}
		res = e.game(t, m, 3, 1)
		if res.Rated.Match.ID != m.ID || res.Next.Pick.MatchID != 0 {
			t.Fatalf("Got(game 3) = %+v, want the series rated and no more picks", res)
		}
		var maps []string
		for _, g := range res.Series.Games {
			maps = append(maps, g.Map)
		}
		if !slices.Equal(maps, []string{map1, map2, map3}) {
			t.Errorf("Got(games' maps) = %v, want %v", maps, []string{map1, map2, map3})
		}
		// Each game rated on its own map: the rows of games 1 and 2.
		ms, err := e.svc.Matches(e.ctx, ladder.MatchFilter{GuildID: guild, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		var rated []string
		for _, x := range ms {
			if x.Source == "series" {
				rated = append(rated, x.Map)
			}
		}
		slices.Sort(rated)
		want := []string{map1, map2}
		slices.Sort(want)
		if !slices.Equal(rated, want) {
			t.Errorf("Got(maps of the games rated on their own) = %v, want %v", rated, want)
		}
		if n := len(e.audits(t, "maps.chosen")); n != 3 {
			t.Errorf("Got(maps.chosen audits) = %d, want 3 (one per game)", n)
		}
		// The export and the series' webhook event carry each game's map.
		recs, err := e.svc.ExportMatches(e.ctx, guild, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(recs, func(r rating.MatchRecord) bool { return r.SeriesScore == "2-1" })
		if i < 0 || !slices.Equal(recs[i].Maps, maps) || recs[i].Map != map1 {
			t.Errorf("Got(export of the series) = %+v, want map %s and maps %v", recs, map1, maps)
		}
		var bodies []string
		if err := e.db.Gorm().Raw("SELECT body FROM webhook_events WHERE type = ?", "match.confirmed").Scan(&bodies).Error; err != nil {
			t.Fatal(err)
		}
		var withMaps int
		for _, b := range bodies {
			var ev struct {
				Data ladder.MatchEventData
			}
			if err := json.Unmarshal([]byte(b), &ev); err != nil {
				t.Fatal(err)
			}
			if ev.Data.MatchID == m.ID && slices.Equal(ev.Data.Maps, maps) {
				withMaps++
			}
		}
		if withMaps != 1 {
			t.Errorf("Got(match.confirmed events of the series with its maps) = %d of %d, want 1", withMaps, len(bodies))
		}
		e.verify(t)
	})
}

// TestSeriesMapPerGameModes: vote runs again for game 2, ban starts over
// with the team that lost banning first, random draws again; none
// repeats game 1's map.
func TestSeriesMapPerGameModes(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		for _, mode := range []formats.Mode{formats.ModeVote, formats.ModeBan, formats.ModeRandom} {
			e := newEnv(t, b, formats.ModeNone, "Dust", "Mirage", "Nuke")
			e.bestOf3(t, mode, formats.RateSeries)
			m := e.open(t)
			start, err := e.fm.Start(e.ctx, m)
			if err != nil {
				t.Fatal(err)
			}
			switch mode {
			case formats.ModeVote:
				for u := 1; u <= 4; u++ {
					if _, err := e.fm.Vote(e.ctx, ladder.Actor{UserID: user(u)}, guild, m.ID, 1, "Nuke"); err != nil {
						t.Fatal(err)
					}
				}
			case formats.ModeBan:
				b := start.Pick.Banners
				if _, err := e.fm.Ban(e.ctx, ladder.Actor{UserID: b[0]}, guild, m.ID, 1, 0, "Dust"); err != nil {
					t.Fatal(err)
				}
				if _, err := e.fm.Ban(e.ctx, ladder.Actor{UserID: b[1]}, guild, m.ID, 1, 1, "Mirage"); err != nil {
					t.Fatal(err)
				}
			}
			first, _ := e.fm.Pick(e.ctx, guild, m.ID, 1)
			res := e.game(t, m, 1, 1) // team 2 lost game 1
			p := res.Next.Pick
			if p.Game != 2 || p.Mode != mode || slices.Contains(p.Pool, first.Chosen) || len(p.Pool) != 2 {
				t.Fatalf("%s: Got(game 2's pick) = %+v, want a %s pick without %s", mode, p, mode, first.Chosen)
			}
			switch mode {
			case formats.ModeVote:
				if p.State != formats.StatePicking || len(p.Votes) != 0 {
					t.Fatalf("vote: Got(game 2's pick) = %+v, want a fresh vote", p)
				}
				for u := 1; u <= 4; u++ {
					if _, err := e.fm.Vote(e.ctx, ladder.Actor{UserID: user(u)}, guild, m.ID, 2, p.Pool[1]); err != nil {
						t.Fatal(err)
					}
				}
			case formats.ModeBan:
				// Team 2 lost game 1: its banner bans first this time.
				if p.Turn() != 2 {
					t.Fatalf("ban: Got(first turn of game 2) = team %d, want team 2", p.Turn())
				}
				if _, err := e.fm.Ban(e.ctx, ladder.Actor{UserID: p.Banners[0]}, guild, m.ID, 2, 0, p.Pool[0]); ladder.ErrorCode(err) != ladder.CodeForbidden {
					t.Errorf("ban: Got(team 1 bans first in game 2) = %v, want forbidden", err)
				}
				if _, err := e.fm.Ban(e.ctx, ladder.Actor{UserID: p.Banners[1]}, guild, m.ID, 2, 0, p.Pool[0]); err != nil {
					t.Fatal(err)
				}
			case formats.ModeRandom:
				if p.State != formats.StateDone || p.Seed == first.Seed || p.Chosen != p.Draw() {
					t.Fatalf("random: Got(game 2's pick) = %+v, want drawn at once by a seed of its own", p)
				}
			}
			got, _ := e.fm.Pick(e.ctx, guild, m.ID, 2)
			if got.State != formats.StateDone || got.Chosen == first.Chosen || got.Chosen == "" {
				t.Fatalf("%s: Got(game 2's map) = %+v, want a map other than %s", mode, got, first.Chosen)
			}
			res = e.game(t, m, 2, 1)
			if res.Rated.Match.ID != m.ID || res.Series.Games[1].Map != got.Chosen || res.Series.Games[0].Map != first.Chosen {
				t.Errorf("%s: Got(series) = %+v, want rated 2-0 with each game's map", mode, res.Series.Games)
			}
		}
	})
}

// TestSeriesGameDispute: the other team disputes game 2 alone; nothing
// more is reported until a moderator settles it, and the series and the
// ratings follow, audited.
func TestSeriesGameDispute(t *testing.T) {
	for _, rating := range []formats.Rating{formats.RateSeries, formats.RateGames} {
		t.Run(string(rating), func(t *testing.T) {
			testdb.ForEach(t, func(t *testing.T, b string) {
				e := newEnv(t, b, formats.ModeNone)
				e.series(t, rating)
				m := e.open(t)
				e.game(t, m, 1, 1)
				if _, err := e.fm.ReportGame(e.ctx, ladder.Actor{UserID: user(1)}, guild, m.ID, 2, true); err != nil {
					t.Fatal(err)
				}
				// Refused: no reason, the reporting team, a game not waiting.
				if _, err := e.fm.DisputeGame(e.ctx, ladder.Actor{UserID: user(3)}, guild, m.ID, 2, ""); ladder.ErrorCode(err) != ladder.CodeInvalid {
					t.Errorf("Got(dispute without a reason) = %v, want invalid", err)
				}
				if _, err := e.fm.DisputeGame(e.ctx, ladder.Actor{UserID: user(2)}, guild, m.ID, 2, "no"); ladder.ErrorCode(err) != ladder.CodeForbidden {
					t.Errorf("Got(the reporting team disputes) = %v, want forbidden", err)
				}
				if _, err := e.fm.DisputeGame(e.ctx, ladder.Actor{UserID: user(3)}, guild, m.ID, 3, "no"); ladder.ErrorCode(err) != ladder.CodeConflict {
					t.Errorf("Got(dispute game 3) = %v, want conflict", err)
				}
				res, err := e.fm.DisputeGame(e.ctx, ladder.Actor{UserID: user(3)}, guild, m.ID, 2, "we won game 2")
				if err != nil || !res.Game.Disputed() {
					t.Fatalf("DisputeGame = %+v, %v, want game 2 disputed", res, err)
				}
				if again, err := e.fm.DisputeGame(e.ctx, ladder.Actor{UserID: user(4)}, guild, m.ID, 2, "again"); err != nil || !again.AlreadyDone {
					t.Errorf("Got(dispute twice) = %+v, %v, want already done", again, err)
				}
				if _, err := e.fm.ConfirmGame(e.ctx, ladder.Actor{UserID: user(3)}, guild, m.ID, 2); ladder.ErrorCode(err) != ladder.CodeConflict {
					t.Errorf("Got(confirm a disputed game) = %v, want conflict", err)
				}
				if _, err := e.fm.ReportGame(e.ctx, ladder.Actor{UserID: user(1)}, guild, m.ID, 2, false); ladder.ErrorCode(err) != ladder.CodeConflict {
					t.Errorf("Got(report a disputed game) = %v, want conflict", err)
				}
				ds, err := e.fm.Disputes(e.ctx, guild, 10)
				if err != nil || len(ds) != 1 || ds[0].MatchID != m.ID || ds[0].Game != 2 || ds[0].DisputeReason != "we won game 2" {
					t.Fatalf("Disputes = %+v, %v, want game 2 of match %d", ds, err, m.ID)
				}
				// The moderator settles game 2 for team 2: 1-1, series goes on.
				sr, err := e.fm.CorrectGame(e.ctx, admin, guild, m.ID, 2, 2, "replay checked")
				if err != nil || sr.Score() != "1-1" || sr.Winner() != 0 || sr.Games[1].ConfirmedBy != admin.UserID {
					t.Fatalf("CorrectGame(disputed) = %+v, %v, want 1-1 settled by the moderator", sr, err)
				}
				if ds, _ := e.fm.Disputes(e.ctx, guild, 10); len(ds) != 0 {
					t.Errorf("Got(disputes after settling) = %d, want 0", len(ds))
				}
				if n := len(e.audits(t, "series.dispute")) + len(e.audits(t, "series.resolve")); n != 2 {
					t.Errorf("Got(dispute and resolve audits) = %d, want 2", n)
				}
				wins, games := e.games(t, user(1))
				wantGames := 0
				if rating == formats.RateGames {
					wantGames = 2
				}
				if games != wantGames || wins != min(wantGames, 1) {
					t.Errorf("Got(user 1's record at 1-1) = %d of %d, want %d of %d", wins, games, min(wantGames, 1), wantGames)
				}
				res3 := e.game(t, m, 3, 2)
				if res3.Rated.Match.ID != m.ID || res3.Series.Score() != "1-2" {
					t.Fatalf("Got(game 3) = %+v, want rated 1-2", res3)
				}
				e.verify(t)
			})
		})
	}
}

// TestMapRecords: a player's win rate per map counts each game of a
// series on its map, once (the games a queue rates on their own are not
// counted again), and shows a map from its fifth game on.
func TestMapRecords(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b, formats.ModeNone, "Dust")
		e.bestOf3(t, formats.ModeRandom, formats.RateGames)
		records := func() []formats.MapRecord {
			t.Helper()
			got, err := e.svc.Match(e.ctx, guild, 1)
			if err != nil {
				t.Fatal(err)
			}
			rs, err := e.fm.MapRecords(e.ctx, guild, got.QueueID, got.SeasonID, user(1))
			if err != nil {
				t.Fatal(err)
			}
			return rs
		}
		series := func(winners ...int) {
			t.Helper()
			m := e.open(t)
			if _, err := e.fm.Start(e.ctx, m); err != nil {
				t.Fatal(err)
			}
			for i, w := range winners {
				e.game(t, m, i+1, w)
			}
		}
		series(1, 2, 1) // user 1 (team 1) wins 2 of 3 on Dust
		if rs := records(); len(rs) != 0 {
			t.Errorf("Got(records after 3 games) = %+v, want none shown before 5", rs)
		}
		series(2, 2) // and loses 2
		rs := records()
		if len(rs) != 1 || rs[0] != (formats.MapRecord{Map: "Dust", Games: 5, Wins: 2}) {
			t.Errorf("Got(records after 5 games) = %+v, want Dust 2 of 5", rs)
		}
	})
}

// TestSeriesCorrectionMovesLosersPick: a moderator's correction of the
// game before a running pick changes who lost it, and so which team
// picks the next game's map (map_pick loser) or bans first (ban, before
// any ban was made).
func TestSeriesCorrectionMovesLosersPick(t *testing.T) {
	for _, mode := range []formats.Mode{formats.ModeLoser, formats.ModeBan} {
		t.Run(string(mode), func(t *testing.T) {
			testdb.ForEach(t, func(t *testing.T, b string) {
				e := newEnv(t, b, formats.ModeNone, "Dust", "Mirage", "Nuke", "Inferno")
				e.bestOf3(t, mode, formats.RateSeries)
				m := e.open(t)
				start, err := e.fm.Start(e.ctx, m)
				if err != nil {
					t.Fatal(err)
				}
				if mode == formats.ModeBan {
					left := start.Pick.Pool
					for turn := 0; turn < len(left)-1; turn++ {
						p, err := e.fm.Pick(e.ctx, guild, m.ID, 1)
						if err != nil {
							t.Fatal(err)
						}
						if _, err := e.fm.Ban(e.ctx, ladder.Actor{UserID: p.Banners[p.Turn()-1]}, guild, m.ID, 1, turn, p.Left()[0]); err != nil {
							t.Fatal(err)
						}
					}
				}
				// Team 2 wins game 1 as reported: team 1 picks (bans first).
				if p := e.game(t, m, 1, 2).Next.Pick; p.Game != 2 || p.Team != 1 {
					t.Fatalf("Got(game 2's pick) = %+v, want team 1's", p)
				}
				// The moderator corrects game 1 to team 1: team 2 lost it.
				if _, err := e.fm.CorrectGame(e.ctx, admin, guild, m.ID, 1, 1, "team 1 won game 1"); err != nil {
					t.Fatal(err)
				}
				p, err := e.fm.Pick(e.ctx, guild, m.ID, 2)
				if err != nil || p.Team != 2 {
					t.Fatalf("Got(game 2's pick after the correction) = team %d, %v, want team 2's", p.Team, err)
				}
				if mode == formats.ModeLoser {
					if _, err := e.fm.PickMap(e.ctx, ladder.Actor{UserID: user(1)}, guild, m.ID, 2, p.Pool[0]); ladder.ErrorCode(err) != ladder.CodeForbidden {
						t.Errorf("Got(team 1 picks after the correction) = %v, want forbidden", err)
					}
					if r, err := e.fm.PickMap(e.ctx, ladder.Actor{UserID: user(3)}, guild, m.ID, 2, p.Pool[0]); err != nil || !r.Chosen {
						t.Errorf("Got(team 2 picks after the correction) = %+v, %v, want the map chosen", r.Pick, err)
					}
					return
				}
				if p.Turn() != 2 {
					t.Errorf("Got(the first ban's team after the correction) = %d, want 2", p.Turn())
				}
				if r, err := e.fm.Ban(e.ctx, ladder.Actor{UserID: p.Banners[1]}, guild, m.ID, 2, 0, p.Left()[0]); err != nil || len(r.Banned) != 1 {
					t.Errorf("Got(team 2's banner bans first after the correction) = %+v, %v, want a ban", r.Banned, err)
				}
			})
		})
	}
}
