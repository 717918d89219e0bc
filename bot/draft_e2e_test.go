package bot

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/ladder"
)

// selectIn chooses value in the message's select menu, as a user of the
// Discord client would.
func (e *env) selectIn(u fakediscord.User, m fakediscord.Message, value string) fakediscord.Response {
	e.t.Helper()
	menu := pickMenuOf(e.t, m)
	p, err := e.fake.Select(at(u), m.ID, menu.CustomID, value)
	if err != nil {
		e.t.Fatal(err)
	}
	return e.result(p)
}

// selectForged sends a choice the message's menu may no longer offer: a
// stale menu of a pick already made, or a forged value.
func (e *env) selectForged(u fakediscord.User, messageID, customID, value string) fakediscord.Response {
	e.t.Helper()
	p, err := e.fake.SelectForged(at(u), messageID, customID, value)
	if err != nil {
		e.t.Fatal(err)
	}
	return e.result(p)
}

// pickMenuOf returns the one select menu of a message.
func pickMenuOf(t testing.TB, m fakediscord.Message) fakediscord.Button {
	t.Helper()
	for _, c := range m.Buttons() {
		if c.Type == 3 {
			return c
		}
	}
	t.Fatalf("message %q has no select menu (components %+v)", m.Text(), m.Buttons())
	return fakediscord.Button{}
}

// captainsMode rates the four players 1500…1530 (p4 and p3 captain) and
// switches the default queue to captains with a 60 s pick window.
func (l *lobbyEnv) captainsMode(readyWindow int) {
	l.t.Helper()
	l.establish()
	r := l.slash(owner, "config queue set", map[string]any{"queue": "2v2", "pick_mode": "captains", "pick_window": 60, "ready_window": readyWindow})
	wantText(l.t, "captains on", r, "captains pick, 1 minute a pick")
}

func TestCaptainsEndToEnd(t *testing.T) {
	scenarios := []struct {
		name string
		run  func(t *testing.T, l *lobbyEnv)
	}{
		{"ready, then the captains pick from the menu", testCaptainsDraft},
		{"a pick times out, after a restart", testCaptainsPickTimeout},
	}
	// Over both transports: the select menu's values come through the
	// gateway's INTERACTION_CREATE and through POST /interactions alike.
	testdb.ForEach(t, func(t *testing.T, backend string) {
		for _, tr := range []string{TransportGateway, TransportHTTP} {
			for _, sc := range scenarios {
				t.Run(tr+"/"+sc.name, func(t *testing.T) { sc.run(t, newLobbyEnvOver(t, freshDSN(t, backend), tr)) })
			}
		}
	})
}

func testCaptainsDraft(t *testing.T, l *lobbyEnv) {
	l.captainsMode(120)
	p1, p2, p3, p4 := players[0], players[1], players[2], players[3]
	ann, m := l.formReady()
	// The ready check names the captains, not teams the draft will change.
	if !strings.Contains(ann.Text(), fmt.Sprintf("Team 1: <@%s>\nTeam 2: <@%s>", p4.ID, p3.ID)) || strings.Contains(ann.Text(), "to win") {
		t.Errorf("Got(ready check) = %q, want the captains p4 and p3 and no win chance yet", ann.Text())
	}
	var last fakediscord.Response
	for _, u := range m.Players() {
		last = l.clickLabel(userByID(u), ann, "Ready")
	}
	draft := last.Message
	if draft.ID != ann.ID || !strings.Contains(draft.Text(), fmt.Sprintf("Everyone is ready. **Match #%d** · captains draft, pick 1. <@%s>, pick a player for team 2", m.ID, p3.ID)) {
		t.Fatalf("Got(after all ready) = %q on %s, want the announcement %s showing p3's first pick", draft.Text(), draft.ID, ann.ID)
	}
	menu := pickMenuOf(t, draft)
	var offered []string
	for _, o := range menu.Options {
		offered = append(offered, o.Label)
	}
	if want := []string{"p2 · 1510", "p1 · 1500"}; !slices.Equal(offered, want) {
		t.Errorf("Got(menu options) = %v, want %v (names, best rated first)", offered, want)
	}
	if _, ok := draft.ButtonByLabel("We won"); ok {
		t.Errorf("Got(draft buttons) = %v, want no report buttons before the teams are set", draft.Buttons())
	}

	// Refused, privately: a report, a player who is not a captain, the
	// captain whose turn it is not, a forged choice, an outsider.
	wantText(t, "report while drafting", l.slash(p4, "report", map[string]any{"outcome": "win"}), "captains are still picking")
	show := l.slash(p1, "match show", map[string]any{"match": int(m.ID)})
	wantText(t, "/match show while drafting", show, fmt.Sprintf("it is <@%s>'s pick for team 2", p3.ID))
	if strings.Contains(show.Message.Text(), "to win") || len(show.Message.Buttons()) != 0 {
		t.Errorf("Got(/match show while drafting) = %q with %d components, want no teams' chance and no menu", show.Message.Text(), len(show.Message.Buttons()))
	}
	wantText(t, "not a captain", l.selectIn(p1, draft, p2.ID), "only the captains pick")
	wantText(t, "not your turn", l.selectIn(p4, draft, p2.ID), fmt.Sprintf("it is <@%s>'s pick", p3.ID))
	wantText(t, "forged choice", l.selectForged(p3, draft.ID, menu.CustomID, p4.ID), "not available to pick")
	wantText(t, "outsider", l.selectIn(alice, draft, p2.ID), "not a player")

	// p3 takes p1 rather than the better-rated p2: the choice is theirs.
	// p2 is the last left and goes to p4 without a choice.
	on := l.selectIn(p3, draft, p1.ID)
	if on.Message.ID != ann.ID || !strings.Contains(on.Message.Text(), "is on: the captains picked the teams") {
		t.Fatalf("Got(pick) = %q on %s, want the announcement showing the match on", on.Message.Text(), on.Message.ID)
	}
	if _, ok := on.Message.ButtonByLabel("We won"); !ok || strings.Count(on.Message.Text(), "to win") != 2 {
		t.Errorf("Got(match on) = %q with %v, want both teams' chance and the report buttons", on.Message.Text(), on.Message.Buttons())
	}
	got := l.match(m.ID)
	if want := [2][]string{{p4.ID, p2.ID}, {p3.ID, p1.ID}}; !slices.Equal(got.Teams[0], want[0]) || !slices.Equal(got.Teams[1], want[1]) {
		t.Errorf("Got(teams) = %v, want %v", got.Teams, want)
	}
	// The old menu, clicked again: already done, nothing changes.
	wantText(t, "stale menu", l.selectForged(p3, draft.ID, menu.CustomID, p2.ID), "already done")
	if n := l.audited("draft.pick", ""); n != 2 {
		t.Errorf("Got(audit draft.pick) = %d, want 2", n)
	}
	// The drafted match plays as any other.
	wantText(t, "report", l.clickLabel(p3, on.Message, "We won"), "Reported match")
	conf := l.clickLabel(p4, l.channelMessage(fmt.Sprintf("reported match #%d", m.ID)), "Confirm")
	wantText(t, "confirm", conf, "confirmed")
	if r := l.match(m.ID); r.Winner != 2 || !r.State.Rated() {
		t.Errorf("Got(match) = %s winner %d, want rated, team 2 (p3's) won", r.State, r.Winner)
	}
}

func testCaptainsPickTimeout(t *testing.T, l *lobbyEnv) {
	l.captainsMode(0)
	p1, p2, p3, p4 := players[0], players[1], players[2], players[3]
	for _, p := range players {
		l.slash(p, "queue join", nil)
		l.clock.Add(time.Second)
	}
	ann := l.channelMessage("captains draft, pick 1")
	if len(ann.Mentions) != 4 || !strings.Contains(ann.Content, fmt.Sprintf("<@%s>, pick a player for team 2", p3.ID)) {
		t.Errorf("Got(announcement) = %q pinging %v, want p3 to pick and all four pinged", ann.Content, ann.Mentions)
	}
	menu := pickMenuOf(t, ann)
	ms, err := l.svc.Matches(l.ctx, ladder.MatchFilter{GuildID: testGuild, States: []ladder.MatchState{ladder.StateOpen}, Limit: 5})
	if err != nil || len(ms) != 1 {
		t.Fatalf("Got(open matches) = %d, %v, want 1", len(ms), err)
	}
	m := ms[0]

	// The bot restarts mid-draft; the deadline is a row.
	l.restart()
	// Formed at +3 s, the clock reads +4 s: +62 s is 1 s before the
	// 60 s window ends.
	l.clock.Add(58 * time.Second)
	l.run(jobs.JobReady)
	if d, err := l.svc.Draft(l.ctx, testGuild, m.ID); err != nil || d.State != ladder.DraftPicking {
		t.Fatalf("Got(draft 1 s before the deadline) = %v, %v, want picking", d.State, err)
	}
	l.clock.Add(2 * time.Second)
	l.run(jobs.JobReady)
	edited := l.channelMessage(fmt.Sprintf("**Match #%d** is on", m.ID))
	if edited.ID != ann.ID || !strings.Contains(edited.Text(), fmt.Sprintf("Time ran out for pick 1: <@%s> was picked for team 2", p2.ID)) {
		t.Errorf("Got(after the deadline) = %q on %s, want the announcement %s edited, p2 (the best left) given to team 2", edited.Text(), edited.ID, ann.ID)
	}
	if _, ok := edited.ButtonByLabel("We won"); !ok {
		t.Errorf("Got(buttons after the draft) = %v, want the report buttons", edited.Buttons())
	}
	got := l.match(m.ID)
	if want := [2][]string{{p4.ID, p1.ID}, {p3.ID, p2.ID}}; !slices.Equal(got.Teams[0], want[0]) || !slices.Equal(got.Teams[1], want[1]) {
		t.Errorf("Got(teams) = %v, want %v", got.Teams, want)
	}
	// A second run, here or in another process, finds nothing; the
	// captain's late choice from the old menu changes nothing.
	l.run(jobs.JobReady)
	if n := len(l.fake.ChannelMessages(testChannel)); n != 1 {
		t.Errorf("Got(channel messages) = %d, want only the announcement, edited", n)
	}
	wantText(t, "late pick", l.selectForged(p3, ann.ID, menu.CustomID, p1.ID), "the teams are set (already done)")
	if n := l.audited("draft.pick", ""); n != 2 {
		t.Errorf("Got(audit draft.pick) = %d, want 2", n)
	}
}
