package bot

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestSeriesMapsEndToEnd: a best-of-3 with map_pick loser through the
// real discordgo: game 1's map is drawn, the team that lost game 1 picks
// game 2's map from the menu posted when game 1 is confirmed, and game 3
// is disputed alone and settled by a moderator.
func TestSeriesMapsEndToEnd(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		testSeriesMaps(t, newLobbyEnv(t, freshDSN(t, backend)))
	})
}

func testSeriesMaps(t *testing.T, l *lobbyEnv) {
	l.establish()
	l.noReadyCheck()
	l.pool("loser", "Dust", "Mirage", "Nuke", "Inferno")
	wantText(t, "format", l.slash(owner, "config queue format", map[string]any{"queue": "2v2", "best_of": 3}), "best_of 3")
	m := l.queueAll()
	msg := l.channelMessage("· best of 3, 0–0")
	map1 := l.match(m.ID).Map
	if map1 == "" {
		t.Fatalf("Got(game 1's map) = none, want one drawn at random")
	}
	a, a2, b := userByID(m.Teams[0][0]), userByID(m.Teams[0][1]), userByID(m.Teams[1][0])
	// Game 1's map is on the buttons; team 1 wins it.
	rep := l.clickLabel(a, msg, "We won game 1 · 0–0 · "+map1)
	conf := l.clickLabel(b, rep.Message, "Confirm game 1 · 0–0 · "+map1)
	wantText(t, "game 1 confirmed", conf, "Game 1 on "+map1+": team 1 won (confirmed)")
	msg = conf.Message
	// Team 2 lost: its players pick game 2's map from the maps left.
	pick := l.channelMessage(fmt.Sprintf("team 2 lost game 1, so %s", "<@"+m.Teams[1][0]+">"))
	menu := pickMenuOf(t, pick)
	var offered []string
	for _, o := range menu.Options {
		offered = append(offered, o.Label)
	}
	if len(offered) != 3 || slices.Contains(offered, map1) {
		t.Fatalf("Got(game 2's menu) = %v, want the 3 maps other than %s", offered, map1)
	}
	wantText(t, "report before the map", l.clickLabel(a, msg, "We won game 2 · 1–0"), "still being picked")
	wantText(t, "the winners pick", l.selectIn(a, pick, offered[0]), "team 2 picks the map of game 2")
	done := l.selectIn(b, pick, offered[1])
	map2 := offered[1]
	wantText(t, "picked", done, fmt.Sprintf("Game 2 of **match #%d** is played on **%s** (picked by team 2, who lost game 1)", m.ID, map2))
	wantText(t, "picked again", l.selectForged(userByID(m.Teams[1][1]), pick.ID, menu.CustomID, offered[0]), "already done")
	// Team 2 wins game 2 on its map.
	rep = l.clickLabel(b, msg, "We won game 2 · 1–0")
	conf = l.clickLabel(a, rep.Message, "Confirm game 2 · 1–0 · "+map2)
	wantText(t, "game 2 confirmed", conf, "Game 2 on "+map2+": team 2 won (confirmed)")
	msg = conf.Message
	// Team 1 lost game 2 and lets its time run out: the job draws one of
	// the two maps left.
	l.channelMessage(fmt.Sprintf("team 1 lost game 2, so %s", "<@"+m.Teams[0][0]+">"))
	l.clock.Add(time.Hour)
	l.run(jobs.JobReady)
	map3 := l.channelMessage(fmt.Sprintf("Game 3 of **match #%d** is played on", m.ID))
	// Team 1 reports game 3 won; team 2 disputes that game alone.
	rep = l.clickLabel(a, msg, "We won game 3 · 1–1")
	btn, ok := rep.Message.ButtonByLabel("Dispute game 3")
	if !ok {
		t.Fatalf("Got(series message) = %q, want a Dispute game 3 button", rep.Message.Text())
	}
	wantText(t, "own team disputes", l.disputeGame(a2, rep.Message, btn, "no"), "report it the other way")
	disp := l.disputeGame(b, rep.Message, btn, "we won game 3, replay coming")
	wantText(t, "disputed", disp, "disputed game 3: we won game 3, replay coming")
	if len(disp.Message.Buttons()) != 0 {
		t.Errorf("Got(disputed series message) = %d buttons, want none until a moderator settles", len(disp.Message.Buttons()))
	}
	wantText(t, "disputes list", l.slash(owner, "mod disputes", nil), fmt.Sprintf("**#%d** game 3", m.ID))
	wantText(t, "a player settles", l.slash(a, "mod series game", map[string]any{"match": int(m.ID), "game": 3, "winner": 2}), "you are not allowed to do this")
	c := l.slash(owner, "mod series game", map[string]any{"match": int(m.ID), "game": 3, "winner": 2, "reason": "replay checked"})
	wantText(t, "settled", c, "the series stands at 1–2")
	got := l.match(m.ID)
	if got.State != ladder.StateConfirmed || got.Winner != 2 || got.Score != "1-2" || got.Map != map1 {
		t.Errorf("Got(match) = %s, winner %d, score %q, map %q, want confirmed 1-2 for team 2 on %s", got.State, got.Winner, got.Score, got.Map, map1)
	}
	if n := l.audited("series.resolve", ""); n != 1 {
		t.Errorf("Got(series.resolve audits) = %d, want 1", n)
	}
	sr, _, err := formats.New(l.db, l.svc).Series(l.ctx, got)
	if err != nil {
		t.Fatal(err)
	}
	var maps []string
	for _, g := range sr.Games {
		maps = append(maps, g.Map)
	}
	if len(maps) != 3 || maps[0] != map1 || maps[1] != map2 || maps[2] == "" || maps[2] == map1 || maps[2] == map2 ||
		!strings.Contains(map3.Text(), maps[2]) {
		t.Errorf("Got(games' maps) = %v, want %s, %s and the map left", maps, map1, map2)
	}
	if rep, err := l.svc.Verify(l.ctx, testGuild); err != nil || len(rep.Diffs) != 0 {
		t.Errorf("Verify = %+v, %v, want the ratings equal to the replay", rep, err)
	}
}

// disputeGame clicks a series' Dispute button as u and submits reason.
func (l *lobbyEnv) disputeGame(u fakediscord.User, m fakediscord.Message, btn fakediscord.Button, reason string) fakediscord.Response {
	l.t.Helper()
	p, err := l.fake.Click(at(u), m.ID, btn.CustomID)
	if err != nil {
		l.t.Fatal(err)
	}
	if form := l.result(p); form.Callback != fakediscord.CallbackModal {
		l.t.Fatalf("Got(dispute click) = callback %d (%q), want a modal", form.Callback, form.Message.Content)
	}
	sp, err := l.fake.Submit(at(u), p, map[string]string{"reason": reason})
	if err != nil {
		l.t.Fatal(err)
	}
	return l.result(sp)
}

// TestMapWinRateEndToEnd: /profile shows a player's win rate per map once
// they have 5 games on it, each game of a series counted on its map.
func TestMapWinRateEndToEnd(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		l := newLobbyEnv(t, freshDSN(t, backend))
		l.establish()
		l.noReadyCheck()
		l.pool("random", "Dust")
		wantText(t, "format", l.slash(owner, "config queue format", map[string]any{"queue": "2v2", "best_of": 3}), "best_of 3")
		me, won := players[0], 0
		series := func(winners ...int) {
			t.Helper()
			m := l.queueAll()
			msg := l.channelMessage(fmt.Sprintf("**Match #%d** · best of 3, 0–0", m.ID))
			a, b := userByID(m.Teams[0][0]), userByID(m.Teams[1][0])
			w := [2]int{}
			for i, winner := range winners {
				score := fmt.Sprintf("%d–%d", w[0], w[1])
				how := "won"
				if winner == 2 {
					how = "lost"
				}
				rep := l.clickLabel(a, msg, fmt.Sprintf("We %s game %d · %s · Dust", how, i+1, score))
				msg = l.clickLabel(b, rep.Message, fmt.Sprintf("Confirm game %d · %s · Dust", i+1, score)).Message
				w[winner-1]++
				if m.Team(me.ID) == winner {
					won++
				}
			}
			l.clock.Add(time.Hour)
		}
		series(1, 2, 1)
		if r := l.slash(me, "profile", nil); strings.Contains(r.Message.Text(), "Win rate per map") {
			t.Errorf("Got(/profile after 3 games on Dust) = %q, want no win rate per map yet", r.Message.Text())
		}
		series(2, 2)
		wantText(t, "profile", l.slash(me, "profile", nil), fmt.Sprintf("Dust · %d%% (%d of 5 games)", won*20, won))
	})
}
