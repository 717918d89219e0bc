package bot

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/showdown"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/ladder"
)

func TestMapsEndToEnd(t *testing.T) {
	scenarios := []struct {
		name string
		run  func(t *testing.T, l *lobbyEnv)
	}{
		{"a map vote after the ready check, tied", testMapVoteTie},
		{"map bans in turn, one timed out after a restart", testMapBans},
	}
	testdb.ForEach(t, func(t *testing.T, backend string) {
		for _, sc := range scenarios {
			t.Run(sc.name, func(t *testing.T) { sc.run(t, newLobbyEnv(t, freshDSN(t, backend))) })
		}
	})
}

// pool gives the default queue maps and a map pick through /config.
func (l *lobbyEnv) pool(mode string, names ...string) {
	l.t.Helper()
	for _, n := range names {
		wantText(l.t, "maps add", l.slash(owner, "config maps add", map[string]any{"queue": "2v2", "name": n}), "Added **"+n+"**")
	}
	wantText(l.t, "format", l.slash(owner, "config queue format", map[string]any{"queue": "2v2", "map_pick": mode}), "map_pick "+mode)
}

// queueAll has the four players join the default queue a second apart
// and returns the match they form.
func (l *lobbyEnv) queueAll() ladder.Match {
	l.t.Helper()
	for i, p := range players {
		l.slash(p, "queue join", nil)
		l.clock.Add(time.Duration(i+1) * time.Second)
	}
	ms, err := l.svc.Matches(l.ctx, ladder.MatchFilter{GuildID: testGuild, States: []ladder.MatchState{ladder.StateOpen}, Limit: 5})
	if err != nil || len(ms) != 1 {
		l.t.Fatalf("Got(open matches) = %d, %v, want 1", len(ms), err)
	}
	return ms[0]
}

// message is the current state of a message of the test channel.
func (l *lobbyEnv) message(id string) fakediscord.Message {
	l.t.Helper()
	for _, m := range l.fake.ChannelMessages(testChannel) {
		if m.ID == id {
			return m
		}
	}
	l.t.Fatalf("message %s not in the channel", id)
	return fakediscord.Message{}
}

func testMapVoteTie(t *testing.T, l *lobbyEnv) {
	l.establish()
	l.pool("vote", "Dust", "Mirage", "Nuke")
	// Bad input changes nothing.
	wantText(t, "a member", l.slash(players[0], "config maps add", map[string]any{"queue": "2v2", "name": "Inferno"}), "you are not allowed to do this")
	wantText(t, "unknown queue", l.slash(owner, "config maps add", map[string]any{"queue": "nope", "name": "Inferno"}), "no queue called")
	wantText(t, "twice", l.slash(owner, "config maps add", map[string]any{"queue": "2v2", "name": "Dust"}), "already has the map")
	wantText(t, "bad image", l.slash(owner, "config maps add", map[string]any{"queue": "2v2", "name": "Inferno", "image": "http://x"}), "https://")
	list := l.slash(owner, "config maps list", map[string]any{"queue": "2v2"})
	wantText(t, "list", list, "Pool (3 of 25):\n1. Dust\n2. Mirage\n3. Nuke")

	ann, m := l.formReady()
	if n := len(l.matching("map vote")); n != 0 {
		t.Errorf("Got(map votes before the ready check passed) = %d, want 0", n)
	}
	for _, u := range m.Players() {
		l.clickLabel(userByID(u), ann, "Ready")
	}
	vote := l.channelMessage(fmt.Sprintf("**Match #%d** · map vote", m.ID))
	menu := pickMenuOf(t, vote)
	var offered []string
	for _, o := range menu.Options {
		offered = append(offered, o.Label)
	}
	if !slices.Equal(offered, []string{"Dust", "Mirage", "Nuke"}) {
		t.Errorf("Got(vote menu) = %v, want the pool in order", offered)
	}
	t1, t2 := m.Teams[0], m.Teams[1]
	wantText(t, "outsider", l.selectIn(alice, vote, "Dust"), "not a player")
	wantText(t, "forged map", l.selectForged(userByID(t1[0]), vote.ID, menu.CustomID, "Inferno"), "not a map of this vote")
	r := l.selectIn(userByID(t1[0]), vote, "Nuke")
	if r.Message.ID != vote.ID || !strings.Contains(r.Message.Text(), "1 of 4 voted") || !strings.Contains(r.Message.Text(), "Nuke · 1") {
		t.Errorf("Got(first vote) = %q on %s, want the vote's message with the tally", r.Message.Text(), r.Message.ID)
	}
	l.selectIn(userByID(t1[0]), vote, "Dust") // changed their mind
	wantText(t, "same vote again", l.selectIn(userByID(t1[0]), vote, "Dust"), "already voted for **Dust** (already done)")
	l.selectIn(userByID(t1[1]), vote, "Dust")
	l.selectIn(userByID(t2[0]), vote, "Mirage")
	// A restart between votes loses nothing: the votes are rows.
	l.restart()
	done := l.selectIn(userByID(t2[1]), vote, "Mirage")
	got := l.match(m.ID)
	if got.Map != "Dust" && got.Map != "Mirage" {
		t.Fatalf("Got(match map) = %q, want Dust or Mirage (2–2)", got.Map)
	}
	want := fmt.Sprintf("**Match #%d** is played on **%s** (by 2 of 4 votes, drawn at random among the tied Dust, Mirage)", m.ID, got.Map)
	if !strings.Contains(done.Message.Text(), want) || len(done.Message.Buttons()) != 0 {
		t.Errorf("Got(last vote) = %q with %d components, want %q and no menu", done.Message.Text(), len(done.Message.Buttons()), want)
	}
	wantText(t, "vote after the end", l.selectForged(userByID(t1[0]), vote.ID, menu.CustomID, "Nuke"), "already done")
	es, err := l.svc.Audit(l.ctx, testGuild, 100)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(es, func(e ladder.AuditEntry) bool { return e.Action == "maps.chosen" })
	var after struct {
		Map  string
		Seed int64
		Tied []string
	}
	if i < 0 || json.Unmarshal([]byte(es[i].After), &after) != nil || after.Map != got.Map || after.Seed == 0 || len(after.Tied) != 2 {
		t.Errorf("Got(audit maps.chosen) = %+v, want the map, the seed and the tied maps", es)
	}
	// The map is the match's: /match show, the report and the export.
	wantText(t, "/match show", l.slash(userByID(t1[0]), "match show", map[string]any{"match": int(m.ID)}), got.Map)
	wantText(t, "report", l.clickLabel(userByID(t1[0]), l.message(ann.ID), "We won"), "Reported match")
	l.clickLabel(userByID(t2[0]), l.channelMessage(fmt.Sprintf("reported match #%d", m.ID)), "Confirm")
	recs, err := l.svc.ExportMatches(l.ctx, testGuild, "", 0)
	if err != nil || len(recs) != 1 || recs[0].Map != got.Map {
		t.Errorf("Got(export) = %+v, %v, want one match on %s", recs, err, got.Map)
	}
}

func testMapBans(t *testing.T, l *lobbyEnv) {
	l.establish()
	l.noReadyCheck()
	l.pool("ban", "Dust", "Mirage", "Nuke", "Inferno", "Train")
	m := l.queueAll()
	bans := l.channelMessage("· map bans:")
	// Each team's highest rated bans: the players are rated 1500…1530.
	best := func(team []string) fakediscord.User {
		return userByID(slices.MaxFunc(team, strings.Compare)) // user IDs rise with the ratings
	}
	b1, b2 := best(m.Teams[0]), best(m.Teams[1])
	if !strings.Contains(bans.Text(), fmt.Sprintf("<@%s>, ban a map for team 1", b1.ID)) || !slices.Equal(bans.Mentions, []string{b1.ID}) {
		t.Fatalf("Got(ban message) = %q pinging %v, want team 1's best <@%s> to ban first", bans.Text(), bans.Mentions, b1.ID)
	}
	other := userByID(slices.MinFunc(m.Teams[0], strings.Compare))
	wantText(t, "not a banner", l.selectIn(other, bans, "Dust"), "ban maps")
	wantText(t, "not their turn", l.selectIn(b2, bans, "Dust"), "not yours")
	r := l.selectIn(b1, bans, "Dust")
	if !strings.Contains(r.Message.Text(), fmt.Sprintf("<@%s>, ban a map for team 2", b2.ID)) || !strings.Contains(r.Message.Text(), "~~Dust~~ · team 1") {
		t.Fatalf("Got(after ban 1) = %q, want team 2's turn with Dust struck", r.Message.Text())
	}
	wantText(t, "stale menu", l.selectForged(b1, bans.ID, pickMenuOf(t, bans).CustomID, "Nuke"), "already made (already done)")
	l.selectIn(b2, r.Message, "Train")
	// Team 1's banner is away; the bot restarts; the deadline job bans
	// for them and edits the message in place.
	l.restart()
	l.clock.Add(2 * time.Minute)
	l.run(jobs.JobReady)
	now := l.message(bans.ID)
	if !strings.Contains(now.Text(), "was banned for team 1 at random") || !strings.Contains(now.Text(), "ban a map for team 2") {
		t.Fatalf("Got(after the deadline) = %q, want a ban made for team 1 and team 2's turn", now.Text())
	}
	p, err := formats.New(l.db, l.svc).Pick(l.ctx, testGuild, m.ID, 1)
	if err != nil || len(p.Bans) != 3 || !p.Bans[2].Auto {
		t.Fatalf("Got(pick) = %+v, %v, want 3 bans, the last automatic", p, err)
	}
	left := p.Left()
	last := l.selectIn(b2, now, left[0])
	if !strings.Contains(last.Message.Text(), fmt.Sprintf("is played on **%s** (the last map left after 4 bans)", left[1])) {
		t.Errorf("Got(last ban) = %q, want %s played", last.Message.Text(), left[1])
	}
	if got := l.match(m.ID).Map; got != left[1] {
		t.Errorf("Got(match map) = %q, want %q", got, left[1])
	}
	if n := l.audited("maps.ban", ""); n != 4 {
		t.Errorf("Got(audited bans) = %d, want 4", n)
	}
}

func TestSeriesEndToEnd(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		for _, rating := range []string{"series", "games"} {
			t.Run(rating, func(t *testing.T) { testSeriesTwoOne(t, newLobbyEnv(t, freshDSN(t, backend)), rating) })
		}
	})
}

// testSeriesTwoOne plays a best-of-3 that goes 2–1 with the series
// message's buttons.
func testSeriesTwoOne(t *testing.T, l *lobbyEnv, rating string) {
	l.establish()
	l.noReadyCheck()
	r := l.slash(owner, "config queue format", map[string]any{"queue": "2v2", "best_of": 3, "series_rating": rating})
	wantText(t, "format", r, "best-of-3 series (best_of 3)")
	m := l.queueAll()
	msg := l.channelMessage("· best of 3, 0–0")
	a, b := userByID(m.Teams[0][0]), userByID(m.Teams[1][0])
	wantText(t, "/report on a series", l.slash(a, "report", map[string]any{"outcome": "win"}), "is a series")
	game := func(n int, winner fakediscord.User, loser fakediscord.User, score, next string) {
		t.Helper()
		rep := l.clickLabel(winner, msg, fmt.Sprintf("We won game %d · %s", n, score))
		wantText(t, fmt.Sprintf("report game %d", n), rep, fmt.Sprintf("reported that team %d won game %d", m.Team(winner.ID), n))
		conf := l.clickLabel(loser, rep.Message, fmt.Sprintf("Confirm game %d · %s", n, score))
		wantText(t, fmt.Sprintf("confirm game %d", n), conf, next)
		msg = conf.Message
	}
	game(1, a, b, "0–0", "1–0")
	game(2, b, a, "1–0", "1–1")
	wantText(t, "stale button", l.clickRaced(a, msg.ID, commands.ID("sg", m.ID, "1", "w")), "already done")
	game(3, a, b, "1–1", "team 1 wins the series 2–1")
	got := l.match(m.ID)
	if got.State != ladder.StateConfirmed || got.Winner != 1 || got.Score != "2-1" {
		t.Errorf("Got(match) = %s, winner %d, score %q, want confirmed, 1, 2-1", got.State, got.Winner, got.Score)
	}
	rep, err := l.svc.Verify(l.ctx, testGuild)
	if err != nil || len(rep.Diffs) != 0 {
		t.Errorf("Verify = %+v, %v, want the ratings equal to the replay", rep, err)
	}
	st := l.standing(a.ID)
	want := 1
	if rating == "games" {
		want = 3
	}
	if st.Games != want {
		t.Errorf("Got(games of a player) = %d, want %d (series_rating %s)", st.Games, want, rating)
	}
	// A moderator corrects game 2 of the finished series: team 1 won it.
	wantText(t, "a player corrects", l.slash(a, "mod series game", map[string]any{"match": int(m.ID), "game": 2, "winner": 1}), "you are not allowed to do this")
	c := l.slash(owner, "mod series game", map[string]any{"match": int(m.ID), "game": 2, "winner": 1, "reason": "misclick"})
	wantText(t, "correct game 2", c, "the series stands at 3–0")
	if got := l.match(m.ID); got.Score != "3-0" || got.Winner != 1 {
		t.Errorf("Got(match after the correction) = winner %d, score %q, want 1, 3-0", got.Winner, got.Score)
	}
	if rep, err := l.svc.Verify(l.ctx, testGuild); err != nil || len(rep.Diffs) != 0 {
		t.Errorf("Verify after the correction = %+v, %v, want no differences", rep, err)
	}
	wantWins := 1
	if rating == "games" {
		wantWins = 3
	}
	if st := l.standing(a.ID); st.Wins != wantWins {
		t.Errorf("Got(wins after the correction) = %d, want %d", st.Wins, wantWins)
	}
	if n := l.audited("series.correct", ""); n != 1 {
		t.Errorf("Got(audited corrections) = %d, want 1", n)
	}
}

// TestShowdownSeriesFromReplays: a best-of-3 of Showdown multi battles
// verified game by game from three replays, 2–1.
func TestShowdownSeriesFromReplays(t *testing.T) {
	files := map[string]string{
		"gen9multirandombattle-1000000001": "multi-win-p1p3.json", // Ash K. & Brock_42 win
		"gen9multirandombattle-2000000002": "sim-multi-p2p4.json", // Misty W & Gary Oak! win
		"gen9multirandombattle-2000000001": "sim-multi-p1p3.json", // Ash K. & Brock_42 win
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, ok := files[strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/"), ".json")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		body, err := os.ReadFile("../internal/showdown/testdata/" + name)
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	client, err := showdown.NewClient(srv.URL, ladder.URLPolicy{AllowHTTP: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, freshDSN(t, backend))
		e.h.stop()
		e.h = startBot(t, e.fake, commands.New(commands.Deps{Service: e.svc, VerifyReplay: client.Verify, Formats: formats.New(e.db, e.svc)}))
		e.establish()
		wantText(t, "format", e.slash(owner, "config queue format", map[string]any{"queue": "2v2", "best_of": 3}), "best-of-3")
		e.noReadyCheck()
		for _, p := range players {
			e.slash(p, "queue join", nil)
		}
		e.channelMessage("· best of 3, 0–0")
		ms, err := e.svc.Matches(e.ctx, ladder.MatchFilter{GuildID: testGuild, States: []ladder.MatchState{ladder.StateOpen}, Limit: 5})
		if err != nil || len(ms) != 1 {
			t.Fatalf("Got(open matches) = %d, %v, want 1", len(ms), err)
		}
		m := ms[0]
		e.link(m, [2][2]string{{"Ash K.", "brock 42"}, {"Gary Oak!", "misty w"}})
		a, b := userByID(m.Teams[0][0]), userByID(m.Teams[1][0])
		url := func(id string) string { return srv.URL + "/gen9multirandombattle-" + id }
		wantText(t, "game 1", e.slash(a, "report", map[string]any{"outcome": "win", "replay": url("1000000001")}), "proves game 1 of match")
		wantText(t, "same replay again", e.slash(b, "report", map[string]any{"outcome": "loss", "replay": url("1000000001")}), "already proved game 1")
		// The replay server serves one battle at many URLs: each is the
		// replay that proved game 1, never a proof of game 2.
		for _, same := range []string{url("1000000001") + ".json", url("1000000001") + "?p2", url("1000000001") + ".log#turn-3",
			strings.Replace(url("1000000001"), "gen9multirandombattle", "Gen9MultiRandomBattle", 1)} {
			wantText(t, "same replay at "+same, e.slash(a, "report", map[string]any{"outcome": "win", "replay": same}), "already proved game 1")
		}
		wantText(t, "contradicting outcome", e.slash(a, "report", map[string]any{"outcome": "win", "replay": url("2000000002")}), "did not prove a game")
		wantText(t, "game 2", e.slash(b, "report", map[string]any{"outcome": "win", "replay": url("2000000002")}), "the series stands at 1–1")
		wantText(t, "game 3", e.slash(a, "report", map[string]any{"outcome": "win", "replay": url("2000000001")}), "the series stands at 2–1")
		got, err := e.svc.Match(e.ctx, testGuild, m.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.State != ladder.StateConfirmed || got.Winner != 1 || got.Score != "2-1" {
			t.Errorf("Got(match) = %s, winner %d, score %q, want confirmed 2-1 for team 1", got.State, got.Winner, got.Score)
		}
		e.channelMessage("team 1 wins the series 2–1")
		if rep, err := e.svc.Verify(e.ctx, testGuild); err != nil || len(rep.Diffs) != 0 {
			t.Errorf("Verify = %+v, %v, want no differences", rep, err)
		}
		es, err := e.svc.Audit(e.ctx, testGuild, 100)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, x := range es {
			if x.Action == "series.replay" && strings.HasPrefix(x.Reason, srv.URL) {
				n++
			}
		}
		if n != 3 {
			t.Errorf("Got(series.replay audits) = %d, want 3", n)
		}
	})
}

// TestSeriesAfterFormatChange: a match that formed while its queue played
// single games, and became a series when an admin set best_of 3 before
// any result, has no series message; a player's /report is refused
// (its games are reported one by one) and the series message with its
// buttons is posted, once, so the series can be played.
func TestSeriesAfterFormatChange(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		l := newLobbyEnv(t, freshDSN(t, backend))
		l.establish()
		l.noReadyCheck()
		m := l.queueAll()
		r := l.slash(owner, "config queue format", map[string]any{"queue": "2v2", "best_of": 3})
		wantText(t, "format", r, "best-of-3 series (best_of 3)")
		a, b := userByID(m.Teams[0][0]), userByID(m.Teams[1][0])
		wantText(t, "/report on the match now a series", l.slash(a, "report", map[string]any{"outcome": "win"}), "is a series")
		msg := l.channelMessage(fmt.Sprintf("**Match #%d** · best of 3, 0–0", m.ID))
		(&hostileFormats{lobbyEnv: l}).recorded(m.ID, ladder.MessageSeries)
		wantText(t, "/report again", l.slash(b, "report", map[string]any{"outcome": "loss"}), "is a series")
		rep := l.clickLabel(a, msg, "We won game 1 · 0–0")
		wantText(t, "report game 1", rep, "reported that team 1 won game 1")
		wantText(t, "confirm game 1", l.clickLabel(b, rep.Message, "Confirm game 1 · 0–0"), "1–0")
		if n := len(l.matching(fmt.Sprintf("**Match #%d** · best of 3", m.ID))); n != 1 {
			t.Errorf("Got(series messages) = %d, want 1", n)
		}
	})
}
