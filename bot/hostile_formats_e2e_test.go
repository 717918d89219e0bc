package bot

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/joins"
	"github.com/ladderbot/ladderbot/ladder"
)

// The hostile table of this round's match components, through the real
// discordgo session against the fake Discord: map votes and bans, a
// series' game buttons, prediction buttons, the MVP vote and the Rematch
// button, pressed as a modified client or a stale message can.

// foreignGuild is a second guild whose matches forged custom IDs name.
const foreignGuild = "100000000000000077"

// hostileFormats is a lobby env whose default queue has predictions, the
// MVP vote and rematches on, beside a foreign guild with an open match and
// a rated one.
type hostileFormats struct {
	*lobbyEnv
	foreignOpen, foreignRated int64
}

func newHostileFormats(t *testing.T, dsn string) *hostileFormats {
	t.Helper()
	l := newLobbyEnv(t, dsn)
	l.env.joins = joins.New(l.db, l.svc)
	l.svc.SetJoinGate(l.env.joins)
	l.restart()
	h := &hostileFormats{lobbyEnv: l}
	if _, err := l.svc.EnsureGuild(l.ctx, foreignGuild); err != nil {
		t.Fatal(err)
	}
	var formed []ladder.FormedMatch
	for _, u := range []string{"510000000000000001", "510000000000000002", "510000000000000003", "510000000000000004"} {
		res, err := l.svc.JoinQueue(l.ctx, ladder.JoinRequest{GuildID: foreignGuild, UserID: u})
		if err != nil {
			t.Fatal(err)
		}
		formed = append(formed, res.Formed...)
	}
	if len(formed) != 1 {
		t.Fatalf("Got(foreign matches formed) = %d, want 1", len(formed))
	}
	h.foreignOpen = formed[0].Match.ID
	rated, err := l.svc.RecordResult(l.ctx, ladder.ResultInput{GuildID: foreignGuild, Team1: []string{"510000000000000011", "510000000000000012"},
		Team2: []string{"510000000000000013", "510000000000000014"}, Winner: 1, Source: "test"})
	if err != nil {
		t.Fatal(err)
	}
	h.foreignRated = rated.Match.ID
	l.establish()
	l.noReadyCheck()
	wantText(t, "community", l.slash(owner, "config queue community", map[string]any{"queue": "2v2", "predictions": true, "mvp_vote": true}), "predictions **on**, MVP vote **on**")
	wantText(t, "rematch", l.slash(owner, "config queue rematch", map[string]any{"queue": "2v2", "rematch": "same"}), "same teams")
	for _, n := range []string{"Dust", "Mirage", "Nuke", "Inferno", "Train"} {
		wantText(t, "maps add", l.slash(owner, "config maps add", map[string]any{"queue": "2v2", "name": n}), "Added **"+n+"**")
	}
	return h
}

// format sets the default queue's map pick and series length.
func (h *hostileFormats) format(mapPick string, bestOf int) {
	h.t.Helper()
	wantText(h.t, "format", h.slash(owner, "config queue format", map[string]any{"queue": "2v2", "map_pick": mapPick, "best_of": bestOf}), "map_pick "+mapPick)
}

// finish voids match m if it is still open, so its players can queue again.
func (h *hostileFormats) finish(m ladder.Match) {
	h.t.Helper()
	if h.match(m.ID).State.Active() {
		if _, err := h.svc.Void(h.ctx, ladder.Actor{UserID: owner.ID, Moderator: true}, testGuild, m.ID, "next scenario"); err != nil {
			h.t.Fatal(err)
		}
	}
}

// play queues the four players a second apart and returns their match.
func (h *hostileFormats) play() ladder.Match {
	h.t.Helper()
	for _, p := range players {
		h.slash(p, "queue join", nil)
		h.clock.Add(time.Second)
	}
	ms, err := h.svc.Matches(h.ctx, ladder.MatchFilter{GuildID: testGuild, States: []ladder.MatchState{ladder.StateOpen}, Limit: 5})
	if err != nil || len(ms) != 1 {
		h.t.Fatalf("Got(open matches) = %d, %v, want 1", len(ms), err)
	}
	h.recorded(ms[0].ID, "")
	return ms[0]
}

// recorded waits until the match's message of kind is recorded: it is
// once posted, after the answer, and the tables' snapshots must start
// after it.
func (h *hostileFormats) recorded(matchID int64, kind string) {
	h.t.Helper()
	for {
		if _, ok, err := h.svc.MatchMessage(h.ctx, matchID, kind); err != nil || ok {
			return
		}
		if h.ctx.Err() != nil {
			h.t.Fatalf("match %d's %q message was never recorded", matchID, kind)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// pickShown waits until the map pick's message is recorded on its row.
func (h *hostileFormats) pickShown(matchID int64) formats.Pick {
	h.t.Helper()
	for {
		p, err := formats.New(h.db, h.svc).Pick(h.ctx, testGuild, matchID, 1)
		if err == nil && p.MessageID != "" {
			return p
		}
		if h.ctx.Err() != nil {
			h.t.Fatalf("match %d's map pick message was never recorded: %v", matchID, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// rate has team 1 report match m won and team 2 confirm it, by command
// and button, and waits for the rematch offer to be recorded.
func (h *hostileFormats) rate(m ladder.Match) {
	h.t.Helper()
	wantText(h.t, "report", h.slash(userByID(m.Teams[0][0]), "report", map[string]any{"outcome": "win", "match": int(m.ID)}), "Reported match")
	rep := h.channelMessage(fmt.Sprintf("reported match #%d", m.ID))
	h.recorded(m.ID, ladder.MessageReport)
	h.clickLabel(userByID(m.Teams[1][0]), rep, "Confirm")
	h.recorded(m.ID, ladder.MessageRematch)
}

// hostileRow is one interaction that must be refused with a message
// containing want (or, passed to refuse as stale, answered "already
// done") and change nothing.
type hostileRow struct {
	name string
	send func() (*fakediscord.Pending, error)
	want string
}

// pressAs sends a button press with any custom ID on message.
func (h *hostileFormats) pressAs(u fakediscord.User, message, customID string) func() (*fakediscord.Pending, error) {
	return func() (*fakediscord.Pending, error) { return h.fake.ClickForged(at(u), message, customID) }
}

// chooseAs sends a select menu choice of any custom ID and values.
func (h *hostileFormats) chooseAs(u fakediscord.User, message, customID string, values ...string) func() (*fakediscord.Pending, error) {
	return func() (*fakediscord.Pending, error) { return h.fake.SelectForged(at(u), message, customID, values...) }
}

// formAs presses a button with any custom ID on message and, when it
// opens a form, submits the form with values; else the press is the
// interaction answered.
func (h *hostileFormats) formAs(u fakediscord.User, message, customID string, values map[string]string) func() (*fakediscord.Pending, error) {
	return func() (*fakediscord.Pending, error) {
		p, err := h.fake.ClickForged(at(u), message, customID)
		if err != nil {
			return nil, err
		}
		if r, err := p.Result(h.ctx); err != nil || r.Callback != fakediscord.CallbackModal {
			return p, err
		}
		return h.fake.Submit(at(u), p, values)
	}
}

// slashAs sends a command with any options.
func (h *hostileFormats) slashAs(u fakediscord.User, path string, opts map[string]any) func() (*fakediscord.Pending, error) {
	return func() (*fakediscord.Pending, error) { return h.fake.Slash(at(u), path, opts) }
}

func (h *hostileFormats) snapshot() testdb.Snapshot {
	h.t.Helper()
	s, err := testdb.TakeSnapshot(h.ctx, h.db.SQL(), h.db.Dialect())
	if err != nil {
		h.t.Fatal(err)
	}
	return s
}

// refuse sends each refused row and each stale row: a refused one gets a
// private warning containing its want, never an internal error; a stale
// one a private "already done"; and the database does not change.
func (h *hostileFormats) refuse(t *testing.T, refused, stale []hostileRow) {
	t.Helper()
	before := h.snapshot()
	check := func(r hostileRow, wantWarning bool) {
		t.Helper()
		p, err := r.send()
		if err != nil {
			t.Errorf("%s: the fake refused to send it: %v", r.name, err)
			return
		}
		got := h.result(p)
		text := got.Message.Text()
		switch {
		case !got.Ephemeral():
			t.Errorf("%s: Got(answer) = public %q, want a private one", r.name, text)
		case strings.Contains(text, "Reference") || strings.Contains(text, "reference"):
			t.Errorf("%s: Got(answer) = %q, want a clear message, not an internal error", r.name, text)
		case wantWarning && !strings.HasPrefix(text, "⚠️"):
			t.Errorf("%s: Got(answer) = %q, want a refusal", r.name, text)
		case !strings.Contains(text, r.want):
			t.Errorf("%s: Got(answer) = %q, want it to contain %q", r.name, text, r.want)
		}
	}
	for _, r := range refused {
		check(r, true)
	}
	for _, r := range stale {
		r.want = "already done"
		check(r, false)
	}
	if diff := before.Diff(h.snapshot()); len(diff) > 0 {
		t.Errorf("refused and stale interactions changed the database: %v", diff)
	}
}

// burst sends n copies of one interaction at once and returns the
// answers' texts; an answer Discord would refuse or a lost one fails.
func (h *hostileFormats) burst(t *testing.T, n int, send func() (*fakediscord.Pending, error)) []string {
	t.Helper()
	texts := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			p, err := send()
			if err != nil {
				errs[i] = err
				return
			}
			r, err := p.Result(h.ctx)
			if err == nil && len(p.Snapshot().Rejected) > 0 {
				err = fmt.Errorf("calls the fake refused: %v", p.Snapshot().Rejected)
			}
			texts[i], errs[i] = r.Message.Text(), err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("concurrent copy %d: %v", i, err)
		}
		if strings.Contains(texts[i], "eference") {
			t.Errorf("concurrent copy %d: Got(answer) = %q, want no internal error", i, texts[i])
		}
	}
	return texts
}

func TestHostileFormatComponents(t *testing.T) {
	scenarios := []struct {
		name string
		run  func(t *testing.T, h *hostileFormats)
	}{
		{"map vote", hostileMapVote},
		{"map bans", hostileMapBans},
		{"series", hostileSeries},
		{"predictions", hostilePredictions},
		{"MVP vote", hostileMVP},
		{"rematch", hostileRematch},
		{"dispute form", hostileDispute},
		{"the losers' map pick", hostileMapPick},
	}
	// One env per backend, the scenarios in turn: each finishes its match.
	testdb.ForEach(t, func(t *testing.T, backend string) {
		h := newHostileFormats(t, freshDSN(t, backend))
		for _, sc := range scenarios {
			t.Run(sc.name, func(t *testing.T) { h.t, h.ctx = t, waitCtx(t); sc.run(t, h) })
		}
	})
}

const huge = "9007199254740993" // 2^53+1: past a float64's exact integers

func hostileMapVote(t *testing.T, h *hostileFormats) {
	h.format("vote", 1)
	m := h.play()
	defer h.finish(m)
	vote := h.channelMessage(fmt.Sprintf("**Match #%d** · map vote", m.ID))
	h.pickShown(m.ID)
	menu := pickMenuOf(t, vote).CustomID
	single, err := h.svc.RecordResult(h.ctx, ladder.ResultInput{GuildID: testGuild, Team1: []string{alice.ID, bob.ID}, Team2: []string{carol.ID, mod.ID}, Winner: 1, Source: "test"})
	if err != nil {
		t.Fatal(err)
	}
	p1, p2 := userByID(m.Teams[0][0]), userByID(m.Teams[0][1])
	mv := func(id any, args ...string) string {
		return strings.Join(append([]string{"mv", fmt.Sprint(id)}, args...), ":")
	}
	on := func(u fakediscord.User, id string, values ...string) func() (*fakediscord.Pending, error) {
		return h.chooseAs(u, vote.ID, id, values...)
	}
	h.refuse(t, []hostileRow{
		{"a vote in another guild's match", on(p1, mv(h.foreignOpen, "1"), "Dust"), "not found"},
		{"a vote in match 0", on(p1, mv(0, "1"), "Dust"), "not valid"},
		{"a vote in a match of 2^53+1", on(p1, mv(huge, "1"), "Dust"), "not found"},
		{"a vote in a match of 20 digits", on(p1, mv("99999999999999999999", "1"), "Dust"), "not valid"},
		{"a vote in a match without a map pick", on(alice, mv(single.Match.ID, "1"), "Dust"), "no map pick"},
		{"a vote for game 0", on(p1, mv(m.ID, "0"), "Dust"), "not valid"},
		{"a vote for game 10", on(p1, mv(m.ID, "10"), "Dust"), "not valid"},
		{"a vote for game -1", on(p1, mv(m.ID, "-1"), "Dust"), "not valid"},
		{"a vote for game x", on(p1, mv(m.ID, "x"), "Dust"), "not valid"},
		{"a vote without a game", on(p1, mv(m.ID), "Dust"), "not valid"},
		{"a vote for game 2 of a single game", on(p1, mv(m.ID, "2"), "Dust"), "no map pick"},
		{"a map not in the pool", on(p1, menu, "Vertigo"), "not a map of this vote"},
		{"a map differing in case", on(p1, menu, "dust"), "not a map of this vote"},
		{"a map with a NUL", on(p1, menu, "Dust\x00"), "control character"},
		{"a map with a bidi override", on(p1, menu, "\u202eDust"), "bidirectional"},
		{"a map of 500 characters", on(p1, menu, strings.Repeat("D", 500)), "not a map of this vote"},
		{"two maps", on(p1, menu, "Dust", "Nuke"), "not valid"},
		{"no map", on(p1, menu), "not valid"},
		{"an outsider's vote", on(alice, menu, "Dust"), "not a player"},
		{"the ban menu's action on a vote", on(p1, strings.Replace(menu, "mv:", "mb:", 1)+":0", "Dust"), "not by bans"},
	}, nil)

	// Eight identical votes at once count once.
	h.burst(t, 8, on(p1, menu, "Nuke"))
	p, err := formats.New(h.db, h.svc).Pick(h.ctx, testGuild, m.ID, 1)
	if err != nil || len(p.Votes) != 1 || p.VoteOf(p1.ID) != "Nuke" {
		t.Errorf("Got(votes after 8 concurrent votes of one player) = %+v, %v, want one vote for Nuke", p.Votes, err)
	}
	h.refuse(t, nil, []hostileRow{{"the same vote again", on(p1, menu, "Nuke"), ""}})
	for _, u := range []fakediscord.User{p2, userByID(m.Teams[1][0]), userByID(m.Teams[1][1])} {
		h.selectIn(u, h.message(vote.ID), "Nuke")
	}
	if got := h.match(m.ID).Map; got != "Nuke" {
		t.Fatalf("Got(map) = %q, want Nuke", got)
	}
	h.refuse(t, []hostileRow{
		{"an outsider's vote after the end", on(alice, menu, "Dust"), "not a player"},
	}, []hostileRow{
		{"a vote after the end", on(p1, menu, "Dust"), ""},
		{"a vote for a map not in the pool after the end", on(p2, menu, "Vertigo"), ""},
	})
}

func hostileMapBans(t *testing.T, h *hostileFormats) {
	h.format("ban", 1)
	m := h.play()
	defer h.finish(m)
	bans := h.channelMessage(fmt.Sprintf("**Match #%d** · map bans", m.ID))
	p := h.pickShown(m.ID)
	b1, b2 := userByID(p.Banners[0]), userByID(p.Banners[1])
	mate := userByID(m.Teams[0][0])
	if mate.ID == b1.ID {
		mate = userByID(m.Teams[0][1])
	}
	mb := func(id any, args ...string) string {
		return strings.Join(append([]string{"mb", fmt.Sprint(id)}, args...), ":")
	}
	on := func(u fakediscord.User, id string, values ...string) func() (*fakediscord.Pending, error) {
		return h.chooseAs(u, bans.ID, id, values...)
	}
	menu := mb(m.ID, "1", "0")
	refused := []hostileRow{
		{"a ban in another guild's match", on(b1, mb(h.foreignOpen, "1", "0"), "Dust"), "not found"},
		{"a ban in match 0", on(b1, mb(0, "1", "0"), "Dust"), "not valid"},
		{"a ban at turn -1", on(b1, mb(m.ID, "1", "-1"), "Dust"), "not valid"},
		{"a ban at turn 26", on(b1, mb(m.ID, "1", "26"), "Dust"), "not valid"},
		{"a ban at turn x", on(b1, mb(m.ID, "1", "x"), "Dust"), "not valid"},
		{"a ban without a turn", on(b1, mb(m.ID, "1"), "Dust"), "not valid"},
		{"a ban for game 0", on(b1, mb(m.ID, "0", "0"), "Dust"), "not valid"},
		{"a ban by the banner's teammate", on(mate, menu, "Dust"), "ban maps"},
		{"a ban by the other banner out of turn", on(b2, menu, "Dust"), "not yours"},
		{"a ban by an outsider", on(alice, menu, "Dust"), "not a player"},
		{"a ban of a map not in the pool", on(b1, menu, "Vertigo"), "not a map left"},
		{"a ban with control characters", on(b1, menu, "Du\x1bst"), "control character"},
		{"a ban of 500 characters", on(b1, menu, strings.Repeat("N", 500)), "not a map left"},
		{"two bans in one", on(b1, menu, "Dust", "Nuke"), "not valid"},
		{"the vote menu's action on bans", on(b1, voteMenu(m.ID), "Dust"), "not by a vote"},
	}
	h.refuse(t, refused, []hostileRow{{"a ban of a later turn", on(b1, mb(m.ID, "1", "3"), "Dust"), ""}})

	// Eight identical bans at once: one ban.
	h.burst(t, 8, on(b1, menu, "Dust"))
	if p, err := formats.New(h.db, h.svc).Pick(h.ctx, testGuild, m.ID, 1); err != nil || len(p.Bans) != 1 || p.Bans[0].Map != "Dust" {
		t.Fatalf("Got(bans after 8 concurrent bans) = %+v, %v, want one ban of Dust", p.Bans, err)
	}
	h.refuse(t, []hostileRow{
		{"a ban of a map banned already", on(b2, mb(m.ID, "1", "1"), "Dust"), "not a map left"},
	}, []hostileRow{
		{"the first ban's menu again", on(b1, menu, "Nuke"), ""},
	})
}

// voteMenu is the custom ID of match id's map vote menu.
func voteMenu(id int64) string { return fmt.Sprintf("mv:%d:1", id) }

func hostileSeries(t *testing.T, h *hostileFormats) {
	h.format("none", 3)
	m := h.play()
	defer h.finish(m)
	msg := h.channelMessage(fmt.Sprintf("**Match #%d** · best of 3, 0–0", m.ID))
	h.recorded(m.ID, ladder.MessageSeries) // before the tables' snapshots
	a, a2, b := userByID(m.Teams[0][0]), userByID(m.Teams[0][1]), userByID(m.Teams[1][0])
	sg := func(id any, args ...string) string {
		return strings.Join(append([]string{"sg", fmt.Sprint(id)}, args...), ":")
	}
	on := func(u fakediscord.User, id string) func() (*fakediscord.Pending, error) {
		return h.pressAs(u, msg.ID, id)
	}
	h.refuse(t, []hostileRow{
		{"a report in another guild's series", on(a, sg(h.foreignOpen, "1", "w")), "not found"},
		{"a report in match 0", on(a, sg(0, "1", "w")), "not valid"},
		{"a report of game 0", on(a, sg(m.ID, "0", "w")), "not valid"},
		{"a report of game 6", on(a, sg(m.ID, "6", "w")), "not valid"},
		{"a report of game -1", on(a, sg(m.ID, "-1", "w")), "not valid"},
		{"a report of game x", on(a, sg(m.ID, "x", "w")), "not valid"},
		{"a report of outcome z", on(a, sg(m.ID, "1", "z")), "not valid"},
		{"a report without an outcome", on(a, sg(m.ID, "1")), "not valid"},
		{"a report of game 3 first", on(a, sg(m.ID, "3", "w")), "report game 1"},
		{"a report by an outsider", on(alice, sg(m.ID, "1", "w")), "not a player"},
		{"a report in another guild's rated match", on(a, sg(h.foreignRated, "1", "w")), "not found"},
		{"/report on a series", h.slashAs(a, "report", map[string]any{"outcome": "win"}), "is a series"},
	}, []hostileRow{
		{"a confirmation of nothing pending", on(b, sg(m.ID, "1", "c")), ""},
	})
	rep := h.clickLabel(a, msg, "We won game 1 · 0–0")
	wantText(t, "report game 1", rep, "reported that team 1 won game 1")
	sgd := func(u fakediscord.User, id any, game, reason string) func() (*fakediscord.Pending, error) {
		return h.formAs(u, msg.ID, fmt.Sprintf("sgd:%v:%s", id, game), map[string]string{"reason": reason})
	}
	h.refuse(t, []hostileRow{
		{"a dispute of another guild's series game", sgd(b, h.foreignOpen, "1", "they cheated"), "not found"},
		{"a dispute of a game in match 0", sgd(b, 0, "1", "they cheated"), "not valid"},
		{"a dispute of game 0", sgd(b, m.ID, "0", "they cheated"), "not valid"},
		{"a dispute of game 6", sgd(b, m.ID, "6", "they cheated"), "not valid"},
		{"a dispute of game x", sgd(b, m.ID, "x", "they cheated"), "not valid"},
		{"a dispute of game 2, not reported", sgd(b, m.ID, "2", "they cheated"), "game 2"},
		{"a dispute by an outsider", sgd(alice, m.ID, "1", "they cheated"), "not a player"},
		{"a dispute by the reporter's own team", sgd(a2, m.ID, "1", "no"), "report it the other way"},
		{"a dispute with a NUL in its reason", sgd(b, m.ID, "1", "they\x00cheated"), "control character"},
		{"a dispute with a bidi override in its reason", sgd(b, m.ID, "1", "\u202ethey cheated"), "bidirectional"},
		{"a dispute of 1,001 characters", sgd(b, m.ID, "1", strings.Repeat("x", 1001)), "at most 1000"},
		{"a dispute of blanks", sgd(b, m.ID, "1", "   "), "needs a reason"},
	}, nil)
	h.refuse(t, []hostileRow{
		{"a confirmation by the reporter's own team", on(a2, sg(m.ID, "1", "c")), "other team must confirm"},
		{"the other team reporting it the other way (a dispute goes through its button)", on(b, sg(m.ID, "1", "w")), "dispute the game"},
		{"a report of game 2 before game 1 is confirmed", on(b, sg(m.ID, "2", "w")), "waits for the other team"},
		{"a confirmation by an outsider", on(alice, sg(m.ID, "1", "c")), "not a player"},
	}, []hostileRow{
		{"the reporter's report again", on(a, sg(m.ID, "1", "w")), ""},
		{"a confirmation of a later game", on(b, sg(m.ID, "2", "c")), ""},
	})
	// Eight confirmations at once confirm once.
	h.burst(t, 8, on(b, sg(m.ID, "1", "c")))
	if n := h.audited("series.game", ""); n != 1 {
		t.Errorf("Got(series.game audits after 8 concurrent confirmations) = %d, want 1", n)
	}
	h.refuse(t, nil, []hostileRow{
		{"a report of the confirmed game", on(b, sg(m.ID, "1", "l")), ""},
		{"a confirmation of the confirmed game", on(b, sg(m.ID, "1", "c")), ""},
	})
	h.clickRaced(a, msg.ID, sg(m.ID, "2", "w"))
	h.clickRaced(b, msg.ID, sg(m.ID, "2", "c"))
	if got := h.match(m.ID); got.State != ladder.StateConfirmed || got.Score != "2-0" {
		t.Fatalf("Got(series) = %s %q, want confirmed 2-0", got.State, got.Score)
	}
	h.refuse(t, []hostileRow{
		{"a report of game 3 of a finished series", on(a, sg(m.ID, "3", "w")), "confirmed"},
		{"a confirmation in a finished series", on(b, sg(m.ID, "2", "c")), "confirmed"},
	}, nil)
}

func hostilePredictions(t *testing.T, h *hostileFormats) {
	h.format("none", 1)
	m := h.play()
	defer h.finish(m)
	post := h.channelMessage(fmt.Sprintf("**Predictions** for match #%d", m.ID))
	pred := func(id any, args ...string) string {
		return strings.Join(append([]string{"pred", fmt.Sprint(id)}, args...), ":")
	}
	on := func(u fakediscord.User, id string) func() (*fakediscord.Pending, error) {
		return h.pressAs(u, post.ID, id)
	}
	h.refuse(t, []hostileRow{
		{"team 0", on(alice, pred(m.ID, "0")), "team must be 1 or 2"},
		{"team 3", on(alice, pred(m.ID, "3")), "team must be 1 or 2"},
		{"team -1", on(alice, pred(m.ID, "-1")), "team must be 1 or 2"},
		{"team 2^63", on(alice, pred(m.ID, "9223372036854775808")), "not valid"},
		{"team x", on(alice, pred(m.ID, "x")), "not valid"},
		{"team 1 with a NUL", on(alice, pred(m.ID, "1\x00")), "not valid"},
		{"team 1 with a bidi override", on(alice, pred(m.ID, "\u202e1")), "not valid"},
		{"team of 100 digits", on(alice, pred(m.ID, strings.Repeat("1", 100))), "not valid"},
		{"no team", on(alice, pred(m.ID)), "not valid"},
		{"match 0", on(alice, pred(0, "1")), "not valid"},
		{"another guild's match", on(alice, pred(h.foreignOpen, "1")), "not found"},
		{"a match of 2^53+1", on(alice, pred(huge, "1")), "not found"},
		{"a player of the match", on(userByID(m.Teams[0][0]), pred(m.ID, "2")), "only others may predict"},
	}, nil)
	// Eight identical calls at once: one prediction.
	h.burst(t, 8, on(alice, pred(m.ID, "2")))
	if n := h.count("predictions"); n != 1 {
		t.Errorf("Got(predictions after 8 concurrent calls) = %d, want 1", n)
	}
	h.clock.Add(community.PredictWindow + time.Second)
	h.refuse(t, []hostileRow{
		{"a call after the window", on(bob, pred(m.ID, "1")), "closed"},
		{"a changed call after the window", on(alice, pred(m.ID, "1")), "closed"},
	}, nil)
	h.rate(m)
	h.refuse(t, []hostileRow{{"a call on a rated match", on(bob, pred(m.ID, "1")), "closed"}}, nil)
}

// count returns the rows of table.
func (h *hostileFormats) count(table string) int {
	h.t.Helper()
	var n int
	if err := h.db.SQL().QueryRowContext(h.ctx, "SELECT COUNT(*) FROM "+table).Scan(&n); err != nil {
		h.t.Fatal(err)
	}
	return n
}

func hostileMVP(t *testing.T, h *hostileFormats) {
	h.format("none", 1)
	m := h.play()
	defer h.finish(m)
	a, a2, b := userByID(m.Teams[0][0]), userByID(m.Teams[0][1]), userByID(m.Teams[1][0])
	mvp := func(u fakediscord.User, opts map[string]any) func() (*fakediscord.Pending, error) {
		return h.slashAs(u, "match mvp", opts)
	}
	id := int(m.ID)
	h.refuse(t, []hostileRow{{"a vote before the result", mvp(a, map[string]any{"player": a2.ID, "match": id}), "not rated"}}, nil)
	h.rate(m)
	h.refuse(t, []hostileRow{
		{"a vote for oneself", mvp(a, map[string]any{"player": a.ID, "match": id}), "not yourself"},
		{"a vote for an outsider", mvp(a, map[string]any{"player": alice.ID, "match": id}), "did not play"},
		{"a vote by an outsider", mvp(alice, map[string]any{"player": a.ID, "match": id}), "only the players"},
		{"a vote on another guild's match", mvp(a, map[string]any{"player": a2.ID, "match": int(h.foreignRated)}), "not found"},
		{"a vote on an unknown match", mvp(a, map[string]any{"player": a2.ID, "match": 987654321}), "not found"},
	}, nil)
	h.burst(t, 8, mvp(a, map[string]any{"player": b.ID, "match": id}))
	if n := h.count("mvp_votes"); n != 1 {
		t.Errorf("Got(MVP votes after 8 concurrent votes) = %d, want 1", n)
	}
	h.refuse(t, []hostileRow{
		{"a second vote", mvp(a, map[string]any{"player": a2.ID, "match": id}), "already"},
	}, nil)
	h.clock.Add(community.MVPWindow + time.Second)
	h.refuse(t, []hostileRow{
		{"a vote after the window", mvp(b, map[string]any{"player": a.ID, "match": id}), "closed"},
	}, nil)
}

func hostileRematch(t *testing.T, h *hostileFormats) {
	h.format("none", 1)
	open := h.play()
	defer h.finish(open)
	ann := h.channelMessage(fmt.Sprintf("Match #%d** is ready", open.ID))
	rm := func(id any) string { return fmt.Sprintf("%s:%v", commands.ActRematch, id) }
	on := func(u fakediscord.User, id string) func() (*fakediscord.Pending, error) {
		return h.pressAs(u, ann.ID, id)
	}
	a := userByID(open.Teams[0][0])
	h.refuse(t, []hostileRow{
		{"a rematch of an open match", on(a, rm(open.ID)), "only a rated match"},
	}, nil)
	h.rate(open)
	offer := h.channelMessage(fmt.Sprintf("players of match #%d press **Rematch**", open.ID))
	on = func(u fakediscord.User, id string) func() (*fakediscord.Pending, error) {
		return h.pressAs(u, offer.ID, id)
	}
	h.refuse(t, []hostileRow{
		{"a rematch of match 0", on(a, rm(0)), "not valid"},
		{"a rematch of match -1", on(a, rm(-1)), "not valid"},
		{"a rematch of 20 digits", on(a, rm("99999999999999999999")), "not valid"},
		{"a rematch of another guild's match", on(a, rm(h.foreignRated)), "not found"},
		{"a rematch of a match of 2^53+1", on(a, rm(huge)), "not found"},
		{"a rematch by an outsider", on(carol, rm(open.ID)), "only the players"},
		{"a rematch of a match with a NUL", on(a, rm(fmt.Sprintf("%d\x00", open.ID))), "not valid"},
		{"a rematch of a match with a bidi override", on(a, rm(fmt.Sprintf("\u202e%d", open.ID))), "not valid"},
	}, nil)
	// A press, then the same press replayed and doubled: one vote, one
	// public line.
	posts := func() int { return len(h.matching(fmt.Sprintf("wants a rematch of match #%d", open.ID))) }
	wantText(t, "first press", h.clickLabel(a, offer, "Rematch"), "You asked for a rematch")
	h.refuse(t, nil, []hostileRow{{"the same press again", on(a, rm(open.ID)), ""}})
	h.burst(t, 8, on(a, rm(open.ID)))
	if n := h.count("rematch_votes"); n != 1 {
		t.Errorf("Got(rematch votes after a press, a replay and 8 concurrent presses) = %d, want 1", n)
	}
	if n := posts(); n != 1 {
		t.Errorf("Got(public \"wants a rematch\" lines) = %d, want 1", n)
	}
	h.clock.Add(joins.RematchWindow + time.Second)
	h.refuse(t, []hostileRow{
		{"a press after the offer expired", on(userByID(open.Teams[1][0]), rm(open.ID)), "expired"},
	}, nil)
}

// hostileDispute sends the Dispute button's form of a reported match as a
// modified client can: another guild's match, match 0, an outsider, the
// reporting team, reasons with control characters, blank or too long,
// evidence that is no web link; then eight identical disputes at once.
func hostileDispute(t *testing.T, h *hostileFormats) {
	h.format("none", 1)
	m := h.play()
	defer h.finish(m)
	a, a2, b := userByID(m.Teams[0][0]), userByID(m.Teams[0][1]), userByID(m.Teams[1][0])
	wantText(t, "report", h.slash(a, "report", map[string]any{"outcome": "win", "match": int(m.ID)}), "Reported match")
	rep := h.channelMessage(fmt.Sprintf("reported match #%d", m.ID))
	h.recorded(m.ID, ladder.MessageReport)
	dp := func(u fakediscord.User, id any, reason, evidence string) func() (*fakediscord.Pending, error) {
		return h.formAs(u, rep.ID, fmt.Sprintf("dp:%v", id), map[string]string{"reason": reason, "evidence": evidence})
	}
	h.refuse(t, []hostileRow{
		{"a dispute of another guild's match", dp(b, h.foreignOpen, "they cheated", ""), "not found"},
		{"a dispute of match 0", dp(b, 0, "they cheated", ""), "not valid"},
		{"a dispute of a match of 2^53+1", dp(b, huge, "they cheated", ""), "not found"},
		{"a dispute by an outsider", dp(alice, m.ID, "they cheated", ""), "not a player"},
		{"a dispute with a NUL in its reason", dp(b, m.ID, "they\x00cheated", ""), "control character"},
		{"a dispute with a bidi override in its reason", dp(b, m.ID, "\u202ethey cheated", ""), "bidirectional"},
		{"a dispute with an ESC in its evidence", dp(b, m.ID, "they cheated", "https://example.com/\x1b[2J"), "evidence"},
		{"a dispute with a line break in its evidence", dp(b, m.ID, "they cheated", "https://example.com/\nHost: evil"), "evidence"},
		{"a dispute with javascript: evidence", dp(b, m.ID, "they cheated", "javascript:alert(1)"), "http(s) link"},
		{"a dispute of 1,001 characters", dp(b, m.ID, strings.Repeat("x", 1001), ""), "at most 1000"},
		{"a dispute of blanks", dp(b, m.ID, "   ", ""), "needs a reason"},
	}, nil)
	// Eight identical disputes at once: one disputes the match, seven are
	// told it is already done. The reason is on two lines, as a player
	// types it in the form's paragraph field, and is kept so.
	done := 0
	reason := "they cheated in game 1\nscreenshot in the room"
	for _, text := range h.burst(t, 8, dp(b, m.ID, reason, "")) {
		if strings.Contains(text, "already done") {
			done++
		}
	}
	if done != 7 {
		t.Errorf("Got(answers \"already done\" of 8 concurrent disputes) = %d, want 7", done)
	}
	if got := h.match(m.ID); got.State != ladder.StateDisputed || got.DisputedBy != b.ID || got.DisputeReason != reason {
		t.Errorf("Got(match) = %s by %s because %q, want disputed by %s because %q", got.State, got.DisputedBy, got.DisputeReason, b.ID, reason)
	}
	h.refuse(t, nil, []hostileRow{
		{"the same dispute again", dp(b, m.ID, "they cheated again", ""), ""},
		{"the reporter's teammate reporting the disputed match", h.slashAs(a2, "report", map[string]any{"outcome": "win", "match": int(m.ID)}), ""},
	})
}

// hostileMapPick: in a best of 3 with map_pick loser, game 1 was won by
// team 1; team 2's map menu for game 2 is sent forged and out of turn.
func hostileMapPick(t *testing.T, h *hostileFormats) {
	h.format("loser", 3)
	m := h.play()
	defer h.finish(m)
	msg := h.channelMessage(fmt.Sprintf("**Match #%d** · best of 3, 0–0", m.ID))
	a, b, b2 := userByID(m.Teams[0][0]), userByID(m.Teams[1][0]), userByID(m.Teams[1][1])
	map1 := h.match(m.ID).Map
	rep := h.clickLabel(a, msg, "We won game 1 · 0–0 · "+map1)
	h.clickLabel(b, rep.Message, "Confirm game 1 · 0–0 · "+map1)
	pick := h.channelMessage(fmt.Sprintf("**Match #%d** · game 2: team 2 lost game 1", m.ID))
	menu := pickMenuOf(t, pick)
	for {
		if p, err := formats.New(h.db, h.svc).Pick(h.ctx, testGuild, m.ID, 2); err == nil && p.MessageID != "" {
			break
		}
		if h.ctx.Err() != nil {
			t.Fatalf("game 2's map pick message was never recorded")
		}
		time.Sleep(10 * time.Millisecond)
	}
	var offered []string
	for _, o := range menu.Options {
		offered = append(offered, o.Value)
	}
	if len(offered) < 2 {
		t.Fatalf("Got(game 2's maps) = %v, want at least 2", offered)
	}
	mp := func(id any, args ...string) string {
		return strings.Join(append([]string{"mp", fmt.Sprint(id)}, args...), ":")
	}
	on := func(u fakediscord.User, id string, values ...string) func() (*fakediscord.Pending, error) {
		return h.chooseAs(u, pick.ID, id, values...)
	}
	h.refuse(t, []hostileRow{
		{"a pick in another guild's match", on(b, mp(h.foreignOpen, "2"), offered[0]), "not found"},
		{"a pick in match 0", on(b, mp(0, "2"), offered[0]), "not valid"},
		{"a pick for game 0", on(b, mp(m.ID, "0"), offered[0]), "not valid"},
		{"a pick for game 6", on(b, mp(m.ID, "6"), offered[0]), "no map pick running"},
		{"a pick for game x", on(b, mp(m.ID, "x"), offered[0]), "not valid"},
		{"a pick for game 3, not yet due", on(b, mp(m.ID, "3"), offered[0]), "no map pick running"},
		{"a pick by the winners", on(a, menu.CustomID, offered[0]), "team 2 picks"},
		{"a pick by an outsider", on(alice, menu.CustomID, offered[0]), "not a player"},
		{"a pick of game 1's map", on(b, menu.CustomID, map1), "not a map of this pick"},
		{"a map not in the pool", on(b, menu.CustomID, "Vertigo"), "not a map of this pick"},
		{"a map with a NUL", on(b, menu.CustomID, offered[0]+"\x00"), "control character"},
		{"a map with a bidi override", on(b, menu.CustomID, "\u202e"+offered[0]), "bidirectional"},
		{"a map of 500 characters", on(b, menu.CustomID, strings.Repeat("M", 500)), "not a map of this pick"},
		{"two maps", on(b, menu.CustomID, offered[0], offered[1]), "not valid"},
		{"no map", on(b, menu.CustomID), "not valid"},
	}, nil)
	// Eight identical picks at once: one pick.
	h.burst(t, 8, on(b, menu.CustomID, offered[1]))
	if p, err := formats.New(h.db, h.svc).Pick(h.ctx, testGuild, m.ID, 2); err != nil || p.Chosen != offered[1] {
		t.Errorf("Got(game 2's pick after 8 concurrent picks) = %q, %v, want %s", p.Chosen, err, offered[1])
	}
	h.refuse(t, nil, []hostileRow{{"the teammate's pick after it", on(b2, menu.CustomID, offered[0]), ""}})
}
