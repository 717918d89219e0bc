package bot

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/derived"
	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/internal/chart"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/joins"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/rooms"
	"github.com/ladderbot/ladderbot/storage"
)

// freshDSN returns an empty database of backend (testdb).
func freshDSN(t testing.TB, backend string) string { return testdb.DSN(t, backend) }

// env is a real bot with the real command set over a real database,
// driven through a fake Discord.
type env struct {
	t testing.TB
	// transport is how the fake delivers interactions: TransportGateway
	// or TransportHTTP.
	transport string
	ctx       context.Context
	fake      *fakediscord.Server
	db        *storage.DB
	svc       *ladder.Service
	h         *harness
	// rooms, when set, opens match rooms (rooms_e2e_test.go).
	rooms *rooms.Manager
	// joins, when set, keeps the queues' requirements, hours and
	// rematches (rematch_e2e_test.go).
	joins *joins.Service
}

func newEnv(t testing.TB, dsn string) *env {
	t.Helper()
	return newEnvOver(t, dsn, TransportGateway)
}

// newEnvOver is newEnv with interactions delivered over transport.
func newEnvOver(t testing.TB, dsn, transport string) *env {
	t.Helper()
	db, err := openDB(dsn)
	if err != nil {
		t.Fatalf("storage.Open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	e := &env{t: t, transport: transport, ctx: waitCtx(t), fake: newFake(t), db: db, svc: ladder.NewService(db, nil)}
	e.start()
	return e
}

// start starts the env's bot over its transport.
func (e *env) start() {
	if e.transport == TransportHTTP {
		e.h = startBotHTTP(e.t, e.fake, e.set(), e.db)
		return
	}
	e.h = startBot(e.t, e.fake, e.set())
}

// openDB opens dsn with the derived rows wired into the rated write, as
// every command of the bot opens its database (package derived).
func openDB(dsn string) (*storage.DB, error) {
	db, err := storage.Open(context.Background(), dsn, nil)
	if err != nil {
		return nil, err
	}
	derived.Wire(db, integrity.New(db, nil))
	return db, nil
}

func (e *env) set() *commands.Set {
	return commands.New(commands.Deps{Service: e.svc, Chart: chart.HistoryPNG, Rooms: e.rooms, Community: community.New(e.db, e.svc),
		Formats: formats.New(e.db, e.svc), Joins: e.joins,
		Integrity: integrity.New(e.db, nil)})
}

// restart stops the bot and starts a new one (a new session) on the same
// database and fake Discord.
func (e *env) restart() {
	e.h.stop()
	e.start()
}

func (e *env) slash(u fakediscord.User, path string, opts map[string]any) fakediscord.Response {
	e.t.Helper()
	p, err := e.fake.Slash(at(u), path, opts)
	if err != nil {
		e.t.Fatal(err)
	}
	return e.result(p)
}

func (e *env) click(u fakediscord.User, messageID, customID string) fakediscord.Response {
	e.t.Helper()
	p, err := e.fake.Click(at(u), messageID, customID)
	if err != nil {
		e.t.Fatal(err)
	}
	return e.result(p)
}

// clickRaced sends a click on a button the message may no longer show: a
// second click that raced the first one's update, or a forged custom ID.
func (e *env) clickRaced(u fakediscord.User, messageID, customID string) fakediscord.Response {
	e.t.Helper()
	p, err := e.fake.ClickForged(at(u), messageID, customID)
	if err != nil {
		e.t.Fatal(err)
	}
	return e.result(p)
}

func (e *env) clickLabel(u fakediscord.User, m fakediscord.Message, label string) fakediscord.Response {
	e.t.Helper()
	b, ok := m.ButtonByLabel(label)
	if !ok {
		e.t.Fatalf("message %q has no button %q (buttons %+v)", m.Text(), label, m.Buttons())
	}
	return e.click(u, m.ID, b.CustomID)
}

func (e *env) result(p *fakediscord.Pending) fakediscord.Response {
	e.t.Helper()
	r, err := p.Result(e.ctx)
	if err != nil {
		e.t.Fatalf("%v\nlog:\n%s", err, e.h.logs)
	}
	if snap := p.Snapshot(); len(snap.Rejected) > 0 {
		e.t.Errorf("Got(calls the fake refused) = %v, want none", snap.Rejected)
	}
	return r
}

// channelMessage waits for a message in the test channel containing text.
func (e *env) channelMessage(text string) fakediscord.Message {
	e.t.Helper()
	m, err := e.fake.WaitChannelMessage(e.ctx, testChannel, func(m fakediscord.Message) bool { return strings.Contains(m.Text(), text) })
	if err != nil {
		e.t.Fatalf("%v; channel has %d messages\nlog:\n%s", err, len(e.fake.ChannelMessages(testChannel)), e.h.logs)
	}
	return m
}

func wantText(t testing.TB, what string, r fakediscord.Response, want string) {
	t.Helper()
	if !strings.Contains(r.Message.Text(), want) {
		t.Errorf("%s: Got(text) = %q, want it to contain %q", what, r.Message.Text(), want)
	}
}

var players = []fakediscord.User{
	{ID: "500000000000000001", Name: "p1"},
	{ID: "500000000000000002", Name: "p2"},
	{ID: "500000000000000003", Name: "p3"},
	{ID: "500000000000000004", Name: "p4"},
}

func userByID(id string) fakediscord.User {
	for _, u := range append(players, alice, bob, mod, owner) {
		if u.ID == id {
			return u
		}
	}
	panic("unknown user " + id)
}

// establish makes the four players ranked: no placement games and RD 60,
// set through /config and /mod as an admin would.
func (e *env) establish() {
	e.t.Helper()
	wantText(e.t, "config", e.slash(owner, "config thresholds", map[string]any{"placement_games": 0}), "Saved")
	for i, p := range players {
		r := e.slash(owner, "mod rating set", map[string]any{"player": p.ID, "rating": 1500.0 + float64(10*i), "rd": 60.0})
		wantText(e.t, "rating set", r, "→ 1")
	}
}

// formMatch queues the four players and returns the match announcement
// and the match.
func (e *env) formMatch() (fakediscord.Message, ladder.Match) {
	e.t.Helper()
	e.noReadyCheck()
	before := len(e.fake.ChannelMessages(testChannel))
	for _, p := range players {
		r := e.slash(p, "queue join", nil)
		if !r.Ephemeral() {
			e.t.Errorf("Got(/queue join ephemeral) = false, want true")
		}
	}
	ms, err := e.svc.Matches(e.ctx, ladder.MatchFilter{GuildID: testGuild, States: []ladder.MatchState{ladder.StateOpen}, Limit: 5})
	if err != nil || len(ms) != 1 {
		e.t.Fatalf("Got(open matches) = %d, %v, want 1", len(ms), err)
	}
	m := ms[0]
	ann := e.channelMessage(fmt.Sprintf("Match #%d** is ready", m.ID))
	if got := len(e.fake.ChannelMessages(testChannel)) - before; got != 1 {
		e.t.Errorf("Got(new channel messages) = %d, want 1 announcement", got)
	}
	for _, u := range m.Players() {
		if !strings.Contains(ann.Content, "<@"+u+">") {
			e.t.Errorf("announcement %q does not mention %s", ann.Content, u)
		}
	}
	if len(ann.Mentions) != 4 {
		e.t.Errorf("Got(allowed mentions) = %v, want the 4 players", ann.Mentions)
	}
	for _, want := range []string{"to win", "Match quality", "Team 1", "Team 2"} {
		if !strings.Contains(ann.Text(), want) {
			e.t.Errorf("announcement lacks %q: %q", want, ann.Text())
		}
	}
	return ann, m
}

// noReadyCheck turns the default queue's ready check off through
// /config: these scenarios play from the announcement; the ready check has
// its own (lobby_e2e_test.go).
func (e *env) noReadyCheck() {
	e.t.Helper()
	wantText(e.t, "ready check off", e.slash(owner, "config queue set", map[string]any{"queue": "2v2", "ready_window": 0}), "no ready check")
}

func (e *env) standing(u string) ladder.Standing {
	e.t.Helper()
	st, err := e.svc.CurrentStandings(e.ctx, testGuild, "", []string{u})
	if err != nil {
		e.t.Fatal(err)
	}
	return st[0]
}

func TestEndToEnd(t *testing.T) {
	scenarios := []struct {
		name string
		run  func(t *testing.T, e *env)
	}{
		{"queue report confirm leaderboard", testQueueToLeaderboard},
		{"dispute resolved by a moderator", testDispute},
		{"restart between report and confirm", testRestart},
		{"parties by invitation", testParties},
	}
	// Every scenario over both transports: the gateway, and HTTP
	// interactions (signed POSTs answered in the response, the rest by
	// the same webhook REST calls).
	for _, transport := range []string{TransportGateway, TransportHTTP} {
		t.Run(transport, func(t *testing.T) {
			testdb.ForEach(t, func(t *testing.T, backend string) {
				for _, sc := range scenarios {
					t.Run(sc.name, func(t *testing.T) { sc.run(t, newEnvOver(t, freshDSN(t, backend), transport)) })
				}
			})
		})
	}
}

func testQueueToLeaderboard(t *testing.T, e *env) {
	e.establish()
	ann, m := e.formMatch()
	winner, loser := userByID(m.Teams[0][0]), userByID(m.Teams[1][0])
	before := map[string]ladder.Standing{}
	for _, u := range m.Players() {
		before[u] = e.standing(u)
	}

	rep := e.clickLabel(winner, ann, "We won")
	if !rep.Ephemeral() || !strings.Contains(rep.Message.Content, "Reported match") {
		t.Errorf("Got(report answer) = %q (ephemeral %v), want a private 'Reported match'", rep.Message.Content, rep.Ephemeral())
	}
	ask := e.channelMessage(fmt.Sprintf("reported match #%d", m.ID))
	for _, u := range m.Teams[1] {
		if !strings.Contains(ask.Content, "<@"+u+">") {
			t.Errorf("confirmation request %q does not ping opponent %s", ask.Content, u)
		}
	}
	// The reporter's own team cannot confirm.
	own := e.clickLabel(userByID(m.Teams[0][1]), ask, "Confirm")
	wantText(t, "own team confirms", own, "other team must confirm")

	conf := e.clickLabel(loser, ask, "Confirm")
	if conf.Callback != fakediscord.CallbackDeferUpdate || conf.Message.ID != ask.ID {
		t.Errorf("Got(confirm) = callback %d on %s, want a deferred update of %s", conf.Callback, conf.Message.ID, ask.ID)
	}
	wantText(t, "confirm", conf, "confirmed: Team 1 won")
	if len(conf.Message.Buttons()) != 0 {
		t.Errorf("Got(buttons after confirm) = %v, want none", conf.Message.Buttons())
	}
	for _, u := range m.Players() {
		after := e.standing(u)
		won := m.Team(u) == 1
		if won && !(after.Rating > before[u].Rating) || !won && !(after.Rating < before[u].Rating) {
			t.Errorf("player %s (team %d): Got(rating) = %.2f, before %.2f", u, m.Team(u), after.Rating, before[u].Rating)
		}
	}

	// Double click: nothing changes twice.
	confirmed := map[string]float64{}
	for _, u := range m.Players() {
		confirmed[u] = e.standing(u).Rating
	}
	again := e.clickRaced(loser, ask.ID, commands.ID("cf", m.ID))
	if !again.Ephemeral() || !strings.Contains(again.Message.Content, "already done") {
		t.Errorf("Got(second confirm) = %q (ephemeral %v), want a private 'already done'", again.Message.Content, again.Ephemeral())
	}
	if msg, _ := e.fake.Message(ask.ID); msg.Text() != conf.Message.Text() {
		t.Errorf("Got(message after double click) = %q, want it unchanged %q", msg.Text(), conf.Message.Text())
	}
	for _, u := range m.Players() {
		if got := e.standing(u).Rating; got != confirmed[u] {
			t.Errorf("Got(rating of %s after a double click) = %v, want %v", u, got, confirmed[u])
		}
	}
	again2 := e.clickLabel(winner, ann, "We won")
	wantText(t, "report after confirm", again2, "already done")

	lb := e.slash(alice, "leaderboard", nil)
	if lb.Ephemeral() {
		t.Errorf("Got(/leaderboard ephemeral) = true, want public")
	}
	text := lb.Message.Text()
	w := e.standing(winner.ID)
	if !strings.Contains(text, fmt.Sprintf("**%s** · %s · %.0f ± %.0f · 1-0", winner.Name, w.Division, w.Rating, w.RD)) {
		t.Errorf("Got(leaderboard) = %q, want winner %s at %.0f ± %.0f with 1-0", text, winner.Name, w.Rating, w.RD)
	}
	if !strings.Contains(text, "`#1`") || !strings.Contains(text, "`#4`") {
		t.Errorf("Got(leaderboard) = %q, want ranks 1 to 4", text)
	}
	if b, ok := lb.Message.ButtonByLabel("Next ▶"); !ok || !b.Disabled {
		t.Errorf("Got(next button) = %+v, want a disabled Next on the only page", b)
	}

	prof := e.slash(winner, "profile", nil)
	if len(prof.Message.Files) != 1 || prof.Message.Files[0].ContentType != "image/png" || !strings.HasPrefix(string(prof.Message.Files[0].Data), "\x89PNG") {
		t.Errorf("Got(/profile files) = %d, want one PNG chart", len(prof.Message.Files))
	}
	wantText(t, "profile", prof, "won 1 in a row")

	md := e.slash(alice, "match show", map[string]any{"match": int(m.ID)})
	wantText(t, "match", md, "Team 1 won")

	bal := e.slash(alice, "balance", map[string]any{"p1": players[0].ID, "p2": players[1].ID, "p3": players[2].ID, "p4": players[3].ID})
	wantText(t, "balance", bal, "Team A")
}

func testDispute(t *testing.T, e *env) {
	e.establish()
	_, m := e.formMatch()
	reporter, other := userByID(m.Teams[0][0]), userByID(m.Teams[1][1])
	r := e.slash(reporter, "report", map[string]any{"outcome": "win"})
	wantText(t, "report", r, "Reported match")
	ask := e.channelMessage(fmt.Sprintf("reported match #%d", m.ID))

	b, _ := ask.ButtonByLabel("Dispute")
	p, err := e.fake.Click(at(other), ask.ID, b.CustomID)
	if err != nil {
		t.Fatal(err)
	}
	form := e.result(p)
	if form.Callback != fakediscord.CallbackModal {
		t.Fatalf("Got(dispute click) = callback %d, want a modal", form.Callback)
	}
	sp, err := e.fake.Submit(at(other), p, map[string]string{"reason": "they won 2-1, not us… wait, we won", "evidence": "not a link"})
	if err != nil {
		t.Fatal(err)
	}
	bad := e.result(sp)
	if !bad.Ephemeral() || !strings.Contains(bad.Message.Content, "evidence must be an http(s) link") {
		t.Errorf("Got(bad evidence) = %q, want the validation message", bad.Message.Content)
	}
	sp, err = e.fake.Submit(at(other), p, map[string]string{"reason": "we won 2-1", "evidence": "https://replays.invalid/42"})
	if err != nil {
		t.Fatal(err)
	}
	disp := e.result(sp)
	wantText(t, "dispute", disp, "is **disputed**")
	wantText(t, "dispute", disp, "https://replays.invalid/42")

	// A non-moderator is refused and nothing changes.
	no := e.slash(alice, "mod resolve", map[string]any{"match": int(m.ID), "winner": 2})
	if !no.Ephemeral() || !strings.Contains(no.Message.Content, "not allowed") {
		t.Errorf("Got(non-moderator resolve) = %q, want a private 'not allowed'", no.Message.Content)
	}
	if got, _ := e.svc.Match(e.ctx, testGuild, m.ID); got.State != ladder.StateDisputed {
		t.Errorf("Got(state after refused resolve) = %s, want disputed", got.State)
	}

	// The moderator role is configured by an admin, then the moderator settles it.
	e.slash(owner, "config moderator", map[string]any{"role": modRole})
	list := e.slash(mod, "mod disputes", nil)
	wantText(t, "disputes", list, fmt.Sprintf("#%d", m.ID))
	res := e.slash(mod, "mod resolve", map[string]any{"match": int(m.ID), "winner": 2, "reason": "replay shows team 2"})
	wantText(t, "resolve", res, "resolved")
	e.channelMessage(fmt.Sprintf("Match #%d is now **resolved**", m.ID))
	got, _ := e.svc.Match(e.ctx, testGuild, m.ID)
	if got.State != ladder.StateResolved || got.Winner != 2 || got.ResolvedBy != mod.ID {
		t.Errorf("Got(match) = %s winner %d by %s, want resolved, 2, by %s", got.State, got.Winner, got.ResolvedBy, mod.ID)
	}

	// Correction with preview: nothing changes until the confirm button.
	before := e.standing(other.ID)
	prev := e.slash(mod, "mod correct", map[string]any{"match": int(m.ID), "winner": 1})
	wantText(t, "preview", prev, "Nothing has changed yet")
	if e.standing(other.ID).Rating != before.Rating {
		t.Errorf("a preview changed a rating")
	}
	applied := e.clickLabel(mod, prev.Message, "Apply correction")
	wantText(t, "apply", applied, "Team 1 won")
	if after := e.standing(other.ID); !(after.Rating < before.Rating) {
		t.Errorf("Got(rating of %s after correction) = %.1f, want below %.1f", other.ID, after.Rating, before.Rating)
	}
	// The confirm button of a correction is for moderators only.
	forged := e.clickRaced(alice, prev.Message.ID, commands.ID("modfix", m.ID, "2"))
	wantText(t, "forged correction", forged, "not allowed")
}

func testRestart(t *testing.T, e *env) {
	e.establish()
	ann, m := e.formMatch()
	e.clickLabel(userByID(m.Teams[1][0]), ann, "We lost")
	ask := e.channelMessage(fmt.Sprintf("reported match #%d", m.ID))
	e.restart()
	// Over HTTP there is no session: nothing but the database carries over.
	if st := e.fake.Gateway(); e.transport == TransportGateway && st.Identifies != 2 {
		t.Errorf("Got(identifies) = %d, want 2 (a new session)", st.Identifies)
	} else if e.transport == TransportHTTP && st.Identifies != 0 {
		t.Errorf("Got(identifies over HTTP) = %d, want 0 (no gateway at all)", st.Identifies)
	}
	conf := e.clickLabel(userByID(m.Teams[0][1]), ask, "Confirm")
	wantText(t, "confirm after restart", conf, "confirmed: Team 1 won")
	if got, _ := e.svc.Match(e.ctx, testGuild, m.ID); got.State != ladder.StateConfirmed {
		t.Errorf("Got(state) = %s, want confirmed", got.State)
	}
}

func testParties(t *testing.T, e *env) {
	e.establish()
	e.noReadyCheck()
	for _, pair := range [][2]fakediscord.User{{players[0], players[1]}, {players[2], players[3]}} {
		inviter, partner := pair[0], pair[1]
		r := e.slash(inviter, "queue join", map[string]any{"partner": partner.ID})
		wantText(t, "invite", r, "Invitation sent")
		inv := e.channelMessage(fmt.Sprintf("<@%s>, <@%s> invites you", partner.ID, inviter.ID))
		if len(inv.Mentions) != 1 || inv.Mentions[0] != partner.ID {
			t.Errorf("Got(invitation pings) = %v, want only %s", inv.Mentions, partner.ID)
		}
		// Only the invited player can accept.
		wrong := e.clickLabel(alice, inv, "Accept")
		if !wrong.Ephemeral() || strings.Contains(wrong.Message.Text(), "accepted") {
			t.Errorf("Got(stranger accepts) = %q, want a private refusal", wrong.Message.Text())
		}
		ok := e.clickLabel(partner, inv, "Accept")
		wantText(t, "accept", ok, "accepted")
	}
	ms, err := e.svc.Matches(e.ctx, ladder.MatchFilter{GuildID: testGuild, States: []ladder.MatchState{ladder.StateOpen}, Limit: 5})
	if err != nil || len(ms) != 1 {
		t.Fatalf("Got(open matches) = %d, %v, want 1", len(ms), err)
	}
	m := ms[0]
	e.channelMessage(fmt.Sprintf("Match #%d** is ready", m.ID))
	for _, pair := range [][2]string{{players[0].ID, players[1].ID}, {players[2].ID, players[3].ID}} {
		if m.Team(pair[0]) != m.Team(pair[1]) {
			t.Errorf("Got(teams) = %v, want party %v together", m.Teams, pair)
		}
	}
}
