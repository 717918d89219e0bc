package bot

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// carol is one more player, a substitute in the lobby scenarios.
var carol = fakediscord.User{ID: "400000000000000005", Name: "carol"}

// lobbyStart is the manual clock's start in the lobby scenarios.
var lobbyStart = time.Date(2026, 3, 2, 18, 0, 0, 0, time.UTC)

// lobbyEnv is env on a manual clock with the scheduled jobs posting
// through the running bot, so deadlines are crossed by moving the clock
// and running the job, never by waiting.
type lobbyEnv struct {
	*env
	clock *ladder.ManualClock
	sched *jobs.Scheduler
}

func newLobbyEnv(t *testing.T, dsn string) *lobbyEnv {
	t.Helper()
	return newLobbyEnvOver(t, dsn, TransportGateway)
}

// newLobbyEnvOver is newLobbyEnv with interactions delivered over transport.
func newLobbyEnvOver(t *testing.T, dsn, transport string) *lobbyEnv {
	t.Helper()
	return newLobbyEnvOpened(t, dsn, transport, nil)
}

// newLobbyEnvOpened is newLobbyEnvOver with opened called on the database
// before anything uses it.
func newLobbyEnvOpened(t *testing.T, dsn, transport string, opened func(*storage.DB)) *lobbyEnv {
	t.Helper()
	db, err := openDB(dsn)
	if err != nil {
		t.Fatalf("storage.Open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	if opened != nil {
		opened(db)
	}
	c := ladder.NewManualClock(lobbyStart)
	e := &env{t: t, transport: transport, ctx: waitCtx(t), fake: newFake(t), db: db, svc: ladder.NewService(db, c)}
	e.start()
	l := &lobbyEnv{env: e, clock: c}
	l.sched = jobs.New(e.svc, e.h.bot, nil, jobs.Options{PostBackoff: time.Millisecond, Formats: formats.New(e.db, e.svc)})
	return l
}

// restart is env.restart with a new scheduler posting through the new bot.
func (l *lobbyEnv) restart() {
	l.env.restart()
	l.sched = jobs.New(l.svc, l.h.bot, nil, jobs.Options{PostBackoff: time.Millisecond, Formats: formats.New(l.db, l.svc)})
}

func (l *lobbyEnv) run(job string) {
	l.t.Helper()
	if _, err := l.sched.Run(l.ctx, job); err != nil {
		l.t.Fatalf("Run(%s) = %v", job, err)
	}
}

// formReady queues the four players a second apart and returns the ready
// check's announcement and its match.
func (l *lobbyEnv) formReady() (fakediscord.Message, ladder.Match) {
	l.t.Helper()
	for _, p := range players {
		l.slash(p, "queue join", nil)
		l.clock.Add(time.Second)
	}
	ms, err := l.svc.Matches(l.ctx, ladder.MatchFilter{GuildID: testGuild, States: []ladder.MatchState{ladder.StateOpen}, Limit: 5})
	if err != nil || len(ms) != 1 {
		l.t.Fatalf("Got(open matches) = %d, %v, want 1", len(ms), err)
	}
	ann := l.channelMessage(fmt.Sprintf("**Match #%d** formed", ms[0].ID))
	var labels []string
	for _, b := range ann.Buttons() {
		labels = append(labels, b.Label)
	}
	if !slices.Equal(labels, []string{"Ready", "Not ready"}) {
		l.t.Fatalf("Got(announcement buttons) = %v, want [Ready Not ready]", labels)
	}
	if !strings.Contains(ann.Text(), "Ready 0/4") {
		l.t.Errorf("Got(announcement) = %q, want Ready 0/4", ann.Text())
	}
	return ann, ms[0]
}

func (l *lobbyEnv) match(id int64) ladder.Match {
	l.t.Helper()
	m, err := l.svc.Match(l.ctx, testGuild, id)
	if err != nil {
		l.t.Fatal(err)
	}
	return m
}

// audited counts the audit entries of action about target ("" any).
func (l *lobbyEnv) audited(action, target string) int {
	l.t.Helper()
	es, err := l.svc.Audit(l.ctx, testGuild, 500)
	if err != nil {
		l.t.Fatal(err)
	}
	n := 0
	for _, e := range es {
		if e.Action == action && (target == "" || e.Target == target) {
			n++
		}
	}
	return n
}

func TestLobbyEndToEnd(t *testing.T) {
	scenarios := []struct {
		name string
		run  func(t *testing.T, l *lobbyEnv)
	}{
		{"all ready", testAllReady},
		{"deadline missed: requeue at the front, cooldown", testReadyDeadline},
		{"not ready cancels at once", testNotReady},
		{"restart in the middle of a ready check", testReadyRestart},
		{"cancel vote", testCancelVote},
		{"abandoned after a restart", testAbandoned},
		{"substitutes: requested and accepted, and one forced", testSubs},
		{"no-show confirmed by the other team, and one at its deadline", testNoShow},
	}
	testdb.ForEach(t, func(t *testing.T, backend string) {
		for _, sc := range scenarios {
			t.Run(sc.name, func(t *testing.T) { sc.run(t, newLobbyEnv(t, freshDSN(t, backend))) })
		}
	})
}

func testAllReady(t *testing.T, l *lobbyEnv) {
	ann, m := l.formReady()
	first := userByID(m.Teams[0][0])

	// Not on yet: reports are refused until everyone is ready.
	wantText(t, "report before ready", l.slash(first, "report", map[string]any{"outcome": "win"}), "everyone must click Ready first")
	// Somebody else's match.
	wantText(t, "outsider", l.clickLabel(alice, ann, "Ready"), "not a player")

	r := l.clickLabel(first, ann, "Ready")
	if r.Message.ID != ann.ID || !strings.Contains(r.Message.Text(), "Ready 1/4") || !strings.Contains(r.Message.Text(), "✅ <@"+first.ID+">") {
		t.Errorf("Got(first click) = %q on %s, want the announcement %s updated to Ready 1/4", r.Message.Text(), r.Message.ID, ann.ID)
	}
	again := l.clickLabel(first, r.Message, "Ready")
	if !again.Ephemeral() || !strings.Contains(again.Message.Content, "already ready") {
		t.Errorf("Got(double click) = %q (ephemeral %v), want a private 'already ready'", again.Message.Content, again.Ephemeral())
	}
	var last fakediscord.Response
	for _, u := range m.Players()[1:] {
		last = l.clickLabel(userByID(u), ann, "Ready")
	}
	if last.Message.ID != ann.ID || !strings.Contains(last.Message.Text(), "is on") {
		t.Fatalf("Got(last click) = %q, want the announcement saying the match is on", last.Message.Text())
	}
	if _, ok := last.Message.ButtonByLabel("We won"); !ok {
		t.Errorf("Got(buttons once on) = %v, want the report buttons", last.Message.Buttons())
	}
	// A stale Not ready (a second tab that still shows the old message).
	late := l.clickRaced(first, ann.ID, commands.ID("nrdy", m.ID))
	wantText(t, "not ready after the check passed", late, "the match is on (already done)")

	// The deadline passing changes nothing any more.
	l.clock.Add(10 * time.Minute)
	l.run(jobs.JobReady)
	if got := l.match(m.ID).State; got != ladder.StateOpen {
		t.Errorf("Got(state after the deadline) = %s, want open", got)
	}
	rep := l.clickLabel(first, last.Message, "We won")
	wantText(t, "report once on", rep, "Reported match")
	if n := l.audited("penalty.cooldown", ""); n != 0 {
		t.Errorf("Got(penalties) = %d, want 0", n)
	}
}

func testReadyDeadline(t *testing.T, l *lobbyEnv) {
	ann, m := l.formReady()
	ready := m.Players()[:2]
	missing := m.Players()[2:]
	for _, u := range ready {
		l.clickLabel(userByID(u), ann, "Ready")
	}
	// The match formed at +3 s; the clock reads +4 s, so +118 s is one
	// second before the 120 s deadline.
	l.clock.Add(118 * time.Second)
	l.run(jobs.JobReady)
	if got := l.match(m.ID).State; got != ladder.StateOpen {
		t.Fatalf("Got(state 1 s before the deadline) = %s, want open", got)
	}
	l.clock.Add(2 * time.Second)
	l.run(jobs.JobReady)
	if got := l.match(m.ID).State; got != ladder.StateCancelled {
		t.Fatalf("Got(state after the deadline) = %s, want cancelled", got)
	}
	// The job edits the announcement in place, as a Not ready click
	// does, so that its Ready buttons are gone.
	note := l.channelMessage(fmt.Sprintf("**Match #%d** is cancelled: the ready check failed", m.ID))
	if note.ID != ann.ID || len(note.Buttons()) != 0 {
		t.Errorf("Got(notice) = message %s with %d buttons, want the announcement %s edited, without buttons", note.ID, len(note.Buttons()), ann.ID)
	}
	for _, u := range missing {
		if !strings.Contains(note.Content, "<@"+u+"> was not ready: queue cooldown of 5 min") {
			t.Errorf("Got(notice) = %q, want %s's 5 min cooldown", note.Content, u)
		}
	}
	// A second run, here or in another process, finds nothing.
	l.run(jobs.JobReady)
	if n := len(l.fake.ChannelMessages(testChannel)); n != 1 {
		t.Errorf("Got(channel messages) = %d, want only the announcement, edited", n)
	}

	// The ready players are queued again with their original wait: the
	// first joined at the start, 4 s before the match formed.
	for i, u := range ready {
		st, err := l.svc.QueueStatus(l.ctx, testGuild, u)
		if err != nil || st.Ticket.ID == 0 {
			t.Fatalf("QueueStatus(%s) = %+v, %v, want queued", u, st, err)
		}
		joined := lobbyStart.Add(time.Duration(slices.Index(playerIDs(), u)) * time.Second)
		if !st.Ticket.JoinedAt.Equal(joined) {
			t.Errorf("ready player %d: Got(joined at) = %s, want the original %s", i, st.Ticket.JoinedAt, joined)
		}
	}
	// The missing ones are refused, with the time left in words of the
	// user's language (English: unit.*).
	p := userByID(missing[0])
	wantText(t, "join on cooldown", l.slash(p, "queue join", nil), "5 minutes left")
	l.clock.Add(2*time.Minute + 30*time.Second)
	wantText(t, "join later on cooldown", l.slash(p, "queue join", nil), "2 minutes 30 seconds left")
	if n := l.audited("penalty.cooldown", p.ID); n != 1 {
		t.Errorf("Got(audit penalty.cooldown of %s) = %d, want 1", p.ID, n)
	}
	// A moderator clears it; a second clear is already done.
	wantText(t, "clear", l.slash(owner, "mod cooldown clear", map[string]any{"player": p.ID}), "cleared")
	wantText(t, "clear again", l.slash(owner, "mod cooldown clear", map[string]any{"player": p.ID}), "already done")
	wantText(t, "join after clear", l.slash(p, "queue join", nil), "You joined queue")
	if n := l.audited("penalty.clear", p.ID); n != 1 {
		t.Errorf("Got(audit penalty.clear) = %d, want 1", n)
	}
	// Late clicks on the old buttons say the check is over.
	wantText(t, "late click", l.clickRaced(userByID(missing[1]), ann.ID, commands.ID("rdy", m.ID)), "was cancelled (already done)")
}

func playerIDs() []string {
	var out []string
	for _, p := range players {
		out = append(out, p.ID)
	}
	return out
}

func testNotReady(t *testing.T, l *lobbyEnv) {
	ann, m := l.formReady()
	u := userByID(m.Players()[1])
	l.clickLabel(userByID(m.Players()[0]), ann, "Ready")
	r := l.clickLabel(u, ann, "Not ready")
	if r.Message.ID != ann.ID || !strings.Contains(r.Message.Text(), "is cancelled") || len(r.Message.Buttons()) != 0 {
		t.Errorf("Got(not ready) = %q with buttons %v, want the announcement replaced by the cancellation", r.Message.Text(), r.Message.Buttons())
	}
	if got := l.match(m.ID).State; got != ladder.StateCancelled {
		t.Errorf("Got(state) = %s, want cancelled", got)
	}
	// Declining is penalised like missing; everyone else goes back.
	wantText(t, "decliner joins", l.slash(u, "queue join", nil), "cooldown")
	for _, o := range m.Players() {
		if o == u.ID {
			continue
		}
		st, err := l.svc.QueueStatus(l.ctx, testGuild, o)
		if err != nil || st.Ticket.ID == 0 {
			t.Errorf("QueueStatus(%s) = %+v, %v, want queued again", o, st.Ticket, err)
		}
	}
}

func testReadyRestart(t *testing.T, l *lobbyEnv) {
	ann, m := l.formReady()
	for _, u := range m.Players()[:2] {
		l.clickLabel(userByID(u), ann, "Ready")
	}
	l.restart()
	// The buttons posted before the restart carry the match ID; the state
	// is in the database.
	again := l.clickLabel(userByID(m.Players()[0]), ann, "Ready")
	wantText(t, "ready again after restart", again, "already ready")
	var last fakediscord.Response
	for _, u := range m.Players()[2:] {
		last = l.clickLabel(userByID(u), ann, "Ready")
	}
	wantText(t, "last ready after restart", last, "is on")
}

func testCancelVote(t *testing.T, l *lobbyEnv) {
	ann, m := l.formReady()
	var on fakediscord.Response
	for _, u := range m.Players() {
		on = l.clickLabel(userByID(u), ann, "Ready")
	}
	ps := m.Players()
	wantText(t, "outsider vote", l.slash(alice, "match cancel", map[string]any{"match": int(m.ID)}), "not a player")
	wantText(t, "first vote", l.clickLabel(userByID(ps[0]), on.Message, "Vote to cancel"), "1 of 3 votes needed")
	wantText(t, "double vote", l.slash(userByID(ps[0]), "match cancel", nil), "already voted")
	wantText(t, "second vote", l.slash(userByID(ps[1]), "match cancel", nil), "2 of 3 votes needed")
	if got := l.match(m.ID).State; got != ladder.StateOpen {
		t.Fatalf("Got(state after 2 of 4 votes) = %s, want open", got)
	}
	wantText(t, "third vote", l.slash(userByID(ps[2]), "match cancel", nil), "cancelled match")
	l.channelMessage(fmt.Sprintf("**Match #%d** is cancelled by a vote of its players (3 of 4)", m.ID))
	if got := l.match(m.ID); got.State != ladder.StateCancelled || got.Seq != 0 {
		t.Errorf("Got(match) = %s seq %d, want cancelled and never rated", got.State, got.Seq)
	}
	wantText(t, "report after cancel", l.clickLabel(userByID(ps[0]), on.Message, "We won"), "cancelled")
	if n := l.audited("match.cancel_vote", ""); n != 1 {
		t.Errorf("Got(audit match.cancel_vote) = %d, want 1", n)
	}
}

func testAbandoned(t *testing.T, l *lobbyEnv) {
	ann, m := l.formReady()
	for _, u := range m.Players() {
		l.clickLabel(userByID(u), ann, "Ready")
	}
	l.clock.Add(2*time.Hour + 59*time.Minute)
	l.run(jobs.JobAbandon)
	if got := l.match(m.ID).State; got != ladder.StateOpen {
		t.Fatalf("Got(state before abandon_after) = %s, want open", got)
	}
	// The bot is down across the deadline; the job catches up after.
	l.restart()
	l.clock.Add(5 * time.Minute)
	l.run(jobs.JobAbandon)
	if got := l.match(m.ID).State; got != ladder.StateCancelled {
		t.Fatalf("Got(state after abandon_after) = %s, want cancelled", got)
	}
	l.channelMessage(fmt.Sprintf("**Match #%d** was cancelled: nobody reported a result in time", m.ID))
	wantText(t, "queue again", l.slash(userByID(m.Players()[0]), "queue join", nil), "You joined queue")
	if n := l.audited("match.abandon", ""); n != 1 {
		t.Errorf("Got(audit match.abandon) = %d, want 1", n)
	}
}

func testSubs(t *testing.T, l *lobbyEnv) {
	ann, m := l.formReady()
	var on fakediscord.Response
	for _, u := range m.Players() {
		on = l.clickLabel(userByID(u), ann, "Ready")
	}
	leaver, stays := userByID(m.Teams[0][0]), userByID(m.Teams[0][1])
	wantText(t, "request", l.slash(leaver, "sub request", nil), "Asked for a substitute")
	wantText(t, "request again", l.slash(leaver, "sub request", nil), "already done")
	ask := l.channelMessage(fmt.Sprintf("**Match #%d** needs a substitute for <@%s>", m.ID, leaver.ID))
	if len(ask.Mentions) != 0 {
		t.Errorf("Got(sub request pings) = %v, want nobody", ask.Mentions)
	}

	// Refused: a player of the match, a queued player.
	wantText(t, "player of the match", l.clickLabel(stays, ask, "Take the seat"), "already plays")
	wantText(t, "alice queues", l.slash(alice, "queue join", nil), "You joined queue")
	wantText(t, "queued player", l.clickLabel(alice, ask, "Take the seat"), "leave the queue first")

	took := l.clickLabel(bob, ask, "Take the seat")
	l.wantSeatTaken(t, "button", took, ask.ID, m.ID, bob.ID, leaver.ID)
	wantText(t, "bob again", l.clickRaced(bob, ask.ID, commands.ID("suba", m.ID, leaver.ID)), "already done")
	l.slash(alice, "queue leave", nil)
	wantText(t, "alice too late", l.clickRaced(alice, ask.ID, commands.ID("suba", m.ID, leaver.ID)), "already took that seat")
	if got := l.match(m.ID); got.Team(bob.ID) != 1 || got.Team(leaver.ID) != 0 {
		t.Errorf("Got(teams) = %v, want bob in team 1 instead of %s", got.Teams, leaver.ID)
	}
	wantText(t, "the replaced player queues", l.slash(leaver, "queue join", nil), "You joined queue")
	l.slash(leaver, "queue leave", nil)

	// The command does what the button does: a request of team 2 taken
	// with /sub accept edits its message the same way and tells the
	// channel the same.
	leaver2 := userByID(m.Teams[1][0])
	wantText(t, "request of team 2", l.slash(leaver2, "sub request", nil), "Asked for a substitute")
	ask2 := l.channelMessage(fmt.Sprintf("**Match #%d** needs a substitute for <@%s>", m.ID, leaver2.ID))
	took2 := l.slash(carol, "sub accept", map[string]any{"match": int(m.ID)})
	l.wantSeatTaken(t, "command", took2, ask2.ID, m.ID, carol.ID, leaver2.ID)
	wantText(t, "carol again", l.slash(carol, "sub accept", map[string]any{"match": int(m.ID)}), "already done")

	// A moderator forces one; players may not.
	wantText(t, "player forces", l.slash(stays, "mod sub", map[string]any{"match": int(m.ID), "out": stays.ID, "in": alice.ID}), "not allowed")
	wantText(t, "forced", l.slash(owner, "mod sub", map[string]any{"match": int(m.ID), "out": stays.ID, "in": alice.ID}), "now plays")
	l.channelMessage(fmt.Sprintf("<@%s> takes <@%s>'s seat", alice.ID, stays.ID))

	// The seated players are rated; the replaced ones are not.
	rep := l.clickLabel(bob, on.Message, "We won")
	wantText(t, "sub reports", rep, "Reported match")
	conf := l.clickLabel(userByID(m.Teams[1][1]), l.channelMessage(fmt.Sprintf("reported match #%d", m.ID)), "Confirm")
	wantText(t, "confirm", conf, "confirmed")
	d, err := l.svc.MatchDetail(l.ctx, testGuild, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	var rated []string
	for _, c := range d.Changes {
		rated = append(rated, c.UserID)
	}
	for _, u := range []string{bob.ID, alice.ID, carol.ID} {
		if !slices.Contains(rated, u) {
			t.Errorf("Got(rated) = %v, want substitute %s", rated, u)
		}
	}
	for _, u := range []string{leaver.ID, stays.ID, leaver2.ID} {
		if slices.Contains(rated, u) {
			t.Errorf("Got(rated) = %v, want replaced %s not rated", rated, u)
		}
	}
	if l.audited("sub.accept", leaver.ID) != 1 || l.audited("sub.force", stays.ID) != 1 {
		t.Errorf("Got(audit sub.accept, sub.force) = %d, %d, want 1, 1", l.audited("sub.accept", leaver.ID), l.audited("sub.force", stays.ID))
	}
}

func testNoShow(t *testing.T, l *lobbyEnv) {
	ann, m := l.formReady()
	wantText(t, "no-show during the ready check", l.slash(userByID(m.Teams[0][0]), "noshow", map[string]any{"absent": m.Teams[1][0]}), "everyone must click Ready first")
	for _, u := range m.Players() {
		l.clickLabel(userByID(u), ann, "Ready")
	}
	reporter, mate := userByID(m.Teams[0][0]), userByID(m.Teams[0][1])
	absent, present := userByID(m.Teams[1][0]), userByID(m.Teams[1][1])
	wantText(t, "self", l.slash(reporter, "noshow", map[string]any{"absent": reporter.ID}), "cannot report yourself")
	wantText(t, "outsider named", l.slash(reporter, "noshow", map[string]any{"absent": alice.ID}), "not a player")
	wantText(t, "report", l.slash(reporter, "noshow", map[string]any{"absent": absent.ID}), "No-show reported")
	wantText(t, "report again", l.slash(reporter, "noshow", map[string]any{"absent": absent.ID}), "already done")
	ask := l.channelMessage(fmt.Sprintf("reports a **no-show** in match #%d", m.ID))
	if !slices.Equal(slices.Sorted(slices.Values(ask.Mentions)), slices.Sorted(slices.Values(m.Teams[1]))) {
		t.Errorf("Got(no-show pings) = %v, want the other team %v", ask.Mentions, m.Teams[1])
	}
	wantText(t, "own team confirms", l.clickLabel(mate, ask, "Confirm no-show"), "other team must confirm")
	wantText(t, "absent confirms", l.clickLabel(absent, ask, "Confirm no-show"), "other team must confirm")
	conf := l.clickLabel(present, ask, "Confirm no-show")
	if conf.Message.ID != ask.ID || !strings.Contains(conf.Message.Text(), "no-show of <@"+absent.ID+"> is confirmed") {
		t.Errorf("Got(confirm) = %q, want the request updated: no-show confirmed", conf.Message.Text())
	}
	if got := l.match(m.ID); got.State != ladder.StateCancelled || got.Seq != 0 {
		t.Errorf("Got(match) = %s seq %d, want cancelled, never rated", got.State, got.Seq)
	}
	wantText(t, "absent joins", l.slash(absent, "queue join", nil), "5 minutes left")
	wantText(t, "present joins", l.slash(present, "queue join", nil), "You joined queue")
	l.slash(present, "queue leave", nil)
	if l.audited("noshow.confirm", "") != 1 || l.audited("penalty.cooldown", absent.ID) != 1 {
		t.Errorf("Got(audit noshow.confirm, penalty) = %d, %d, want 1, 1", l.audited("noshow.confirm", ""), l.audited("penalty.cooldown", absent.ID))
	}

	// A second match: nobody answers the report, and it confirms itself.
	l.clock.Add(10 * time.Minute)
	ann2, m2 := l.formReadyOf([]fakediscord.User{reporter, mate, present, bob})
	for _, u := range m2.Players() {
		l.clickLabel(userByID(u), ann2, "Ready")
	}
	r2 := userByID(m2.Teams[0][0])
	l.slash(r2, "noshow", map[string]any{"absent": m2.Teams[1][0]})
	l.clock.Add(29 * time.Minute)
	l.run(jobs.JobReady)
	if got := l.match(m2.ID).State; got != ladder.StateOpen {
		t.Fatalf("Got(state before the confirm window ends) = %s, want open", got)
	}
	l.clock.Add(2 * time.Minute)
	l.run(jobs.JobReady)
	if got := l.match(m2.ID).State; got != ladder.StateCancelled {
		t.Fatalf("Got(state after the confirm window) = %s, want cancelled", got)
	}
	l.channelMessage(fmt.Sprintf("**Match #%d** is cancelled: the no-show of <@%s> is confirmed", m2.ID, m2.Teams[1][0]))
}

// formReadyOf is formReady for other players.
func (l *lobbyEnv) formReadyOf(ps []fakediscord.User) (fakediscord.Message, ladder.Match) {
	l.t.Helper()
	for _, p := range ps {
		wantText(l.t, "join", l.slash(p, "queue join", nil), "queue")
		l.clock.Add(time.Second)
	}
	ms, err := l.svc.Matches(l.ctx, ladder.MatchFilter{GuildID: testGuild, States: []ladder.MatchState{ladder.StateOpen}, Limit: 5})
	if err != nil || len(ms) != 1 {
		l.t.Fatalf("Got(open matches) = %d, %v, want 1", len(ms), err)
	}
	return l.channelMessage(fmt.Sprintf("**Match #%d** formed", ms[0].ID)), ms[0]
}

// wantSeatTaken checks what taking a substitute's seat shows, by the
// button or by /sub accept alike: a private answer to the substitute; the
// request message edited to say it is filled, with no button left; and one
// new message in the channel naming who came and who left, with the new
// teams and chances.
func (l *lobbyEnv) wantSeatTaken(t *testing.T, how string, r fakediscord.Response, requestID string, matchID int64, in, out string) {
	t.Helper()
	if !r.Ephemeral() || !strings.Contains(r.Message.Content, fmt.Sprintf("You now play in <@%s>'s seat in match #%d", out, matchID)) {
		t.Errorf("%s: Got(answer) = %q (ephemeral %v), want a private 'You now play in <@%s>'s seat'", how, r.Message.Content, r.Ephemeral(), out)
	}
	// The posts follow the answer, the channel's message last.
	told := l.channelMessage(fmt.Sprintf("<@%s> takes <@%s>'s seat", in, out))
	if told.ID == requestID || !strings.Contains(told.Text(), "to win") || len(told.Buttons()) != 0 {
		t.Errorf("%s: Got(channel message) = %q on %s (request %s), want a new message with the new teams' chances", how, told.Text(), told.ID, requestID)
	}
	if !slices.Contains(told.Mentions, in) || !slices.Contains(told.Mentions, out) {
		t.Errorf("%s: Got(channel message pings) = %v, want %s and %s", how, told.Mentions, in, out)
	}
	req, ok := l.fake.Message(requestID)
	want := fmt.Sprintf("**Match #%d**: <@%s> took <@%s>'s seat", matchID, in, out)
	if !ok || !strings.Contains(req.Content, want) || !strings.Contains(req.Content, "This request is filled") || len(req.Buttons()) != 0 {
		t.Errorf("%s: Got(request message) = %q with buttons %v, want it edited to %q with no button", how, req.Content, req.Buttons(), want)
	}
	if n := len(l.matching(fmt.Sprintf("<@%s> takes <@%s>'s seat", in, out))); n != 1 {
		t.Errorf("%s: Got(channel messages naming the substitution) = %d, want 1", how, n)
	}
}

// matching returns the test channel's messages containing text.
func (l *lobbyEnv) matching(text string) []fakediscord.Message {
	var out []fakediscord.Message
	for _, m := range l.fake.ChannelMessages(testChannel) {
		if strings.Contains(m.Text(), text) {
			out = append(out, m)
		}
	}
	return out
}
