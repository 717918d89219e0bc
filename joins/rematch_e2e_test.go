package joins_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/joins"
	"github.com/ladderbot/ladderbot/ladder"
)

const resultsChannel = "200000000000000003"

// userOf is the test player with id.
func userOf(t testing.TB, id string) fakediscord.User {
	for i := 1; i <= 4; i++ {
		if player(i).ID == id {
			return player(i)
		}
	}
	t.Fatalf("no test player %s", id)
	return fakediscord.User{}
}

// announced waits for the announcement of match id.
func (e *env) announced(id int64) fakediscord.Message {
	e.t.Helper()
	return e.message(fmt.Sprintf("announcement of match #%d", id), func(m fakediscord.Message) bool {
		return strings.Contains(m.Text(), fmt.Sprintf("Match #%d** is ready", id))
	})
}

// openMatch is the guild's one open match.
func (e *env) openMatch() ladder.Match {
	e.t.Helper()
	ms, err := e.svc.Matches(e.ctx, ladder.MatchFilter{GuildID: testGuild, States: []ladder.MatchState{ladder.StateOpen}, Limit: 5})
	if err != nil || len(ms) != 1 {
		e.t.Fatalf("Got(open matches) = %d, %v, want 1", len(ms), err)
	}
	return ms[0]
}

// play reports match m won by team 1 and has team 2 confirm; it returns
// the confirmed result's message.
func (e *env) play(m ladder.Match) fakediscord.Message {
	e.t.Helper()
	ann := e.announced(m.ID)
	e.click(userOf(e.t, m.Teams[0][0]), ann, "We won")
	ask := e.message("report of match", func(fm fakediscord.Message) bool {
		return strings.Contains(fm.Content, fmt.Sprintf("reported match #%d", m.ID))
	})
	conf := e.click(userOf(e.t, m.Teams[1][0]), ask, "Confirm")
	if !strings.Contains(conf.Message.Text(), "confirmed") {
		e.t.Fatalf("Got(confirm) = %q, want the confirmed result", conf.Message.Text())
	}
	return conf.Message
}

// recorded waits until the rematch offer of match id is recorded as
// message messageID (the bot records it right after posting it).
func (e *env) recorded(id int64, messageID string) {
	e.t.Helper()
	e.recordedAs(id, ladder.MessageRematch, messageID)
}

// recordedResult waits until the results channel's post of match id is
// recorded as carrying its Rematch button.
func (e *env) recordedResult(id int64, messageID string) {
	e.t.Helper()
	e.recordedAs(id, ladder.MessageResultRematch, messageID)
}

func (e *env) recordedAs(id int64, kind, messageID string) {
	e.t.Helper()
	for {
		a, ok, err := e.svc.MatchMessage(e.ctx, id, kind)
		if err != nil {
			e.t.Fatal(err)
		}
		if ok && a.MessageID == messageID {
			return
		}
		select {
		case <-e.ctx.Done():
			e.t.Fatalf("rematch offer of match #%d never recorded", id)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// offer waits for the rematch offer of match id.
func (e *env) offer(id int64) fakediscord.Message {
	e.t.Helper()
	return e.message(fmt.Sprintf("rematch offer of match #%d", id), func(m fakediscord.Message) bool {
		return strings.Contains(m.Content, fmt.Sprintf("players of match #%d press **Rematch**", id))
	})
}

// TestRematchEndToEnd: after a rated match of a queue with rematches on,
// the result carries a Rematch button (in the match's channel and the
// results channel); once all four players pressed it — a repeated press
// counting once, a stranger refused, the last press made twice at once —
// exactly one new match of the same players opens: the same teams, then
// (rebalance) the teams split again; a press after five minutes is refused.
func TestRematchEndToEnd(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		e.slash(admin, "config queue set", map[string]any{"queue": "2v2", "channel": testChannel, "ready_window": 0})
		e.slash(admin, "config channels", map[string]any{"results": resultsChannel})

		// Off by default: a result has no Rematch button.
		for i := 1; i <= 4; i++ {
			e.slash(player(i), "queue join", nil)
		}
		m0 := e.openMatch()
		if got := e.play(m0); len(got.Buttons()) != 0 {
			t.Errorf("Got(buttons of a result, rematch off) = %+v, want none", got.Buttons())
		}
		for _, m := range e.fake.ChannelMessages(testChannel) {
			if strings.Contains(m.Content, "press **Rematch**") {
				t.Errorf("Got(a rematch offer with rematch off) = %q, want none", m.Content)
			}
		}

		private(t, "rematch on", e.slash(admin, "config queue rematch", map[string]any{"queue": "2v2", "rematch": "same"}), "same teams")
		e.clock.Add(time.Minute)
		for i := 1; i <= 4; i++ {
			e.slash(player(i), "queue join", nil)
		}
		m1 := e.openMatch()
		e.play(m1)
		res := e.offer(m1.ID)
		if !strings.Contains(res.Content, "same teams") {
			t.Errorf("Got(offer) = %q, want it to say the teams stay", res.Content)
		}
		// The buttons job closes the ended match's other messages, not the
		// offer while it runs.
		e.recorded(m1.ID, res.ID)
		if _, err := e.sched.Run(e.ctx, jobs.JobButtons); err != nil {
			t.Fatal(err)
		}
		if m, _ := e.fake.Message(res.ID); len(m.Buttons()) != 1 {
			t.Errorf("Got(offer buttons after the buttons job) = %+v, want Rematch kept", m.Buttons())
		}
		post, err := e.fake.WaitChannelMessage(e.ctx, resultsChannel, func(m fakediscord.Message) bool {
			return strings.Contains(m.Text(), fmt.Sprintf("Match #%d ·", m1.ID))
		})
		if err != nil {
			t.Fatalf("no result post: %v", err)
		}
		if _, ok := post.ButtonByLabel(commands.LabelRematch); !ok {
			t.Errorf("Got(result post buttons) = %+v, want Rematch", post.Buttons())
		}

		stranger := player(9)
		refused(t, "stranger", e.click(stranger, res, commands.LabelRematch), fmt.Sprintf("only the players of match #%d", m1.ID))
		order := m1.Players()
		private(t, "first press", e.click(userOf(t, order[0]), res, commands.LabelRematch), "(1/4)")
		private(t, "press again", e.click(userOf(t, order[0]), post, commands.LabelRematch), "(1/4) (already done)")
		private(t, "second", e.click(userOf(t, order[1]), res, commands.LabelRematch), "(2/4)")
		private(t, "third", e.click(userOf(t, order[2]), res, commands.LabelRematch), "(3/4)")
		// The last player's double click: two presses at once form one
		// match.
		last := userOf(t, order[3])
		b, _ := res.ButtonByLabel(commands.LabelRematch)
		pa, err := e.fake.Click(at(last), res.ID, b.CustomID)
		if err != nil {
			t.Fatal(err)
		}
		pb, err := e.fake.Click(at(last), post.ID, b.CustomID)
		if err != nil {
			t.Fatal(err)
		}
		ra, rb := e.result(pa, nil), e.result(pb, nil)
		texts := []string{ra.Message.Text(), rb.Message.Text()}
		if !slices.ContainsFunc(texts, func(s string) bool { return strings.Contains(s, "Everyone pressed Rematch") }) {
			t.Errorf("Got(last presses) = %q, want one to form the rematch", texts)
		}
		m2 := e.openMatch()
		if m2.ID == m1.ID || m2.Source != "rematch" || !slices.Equal(m2.Teams[0], m1.Teams[0]) || !slices.Equal(m2.Teams[1], m1.Teams[1]) {
			t.Errorf("Got(rematch) = #%d %s %v, want a new rematch of #%d with teams %v", m2.ID, m2.Source, m2.Teams, m1.ID, m1.Teams)
		}
		private(t, "press after forming", e.click(userOf(t, order[1]), res, commands.LabelRematch), fmt.Sprintf("is match #%d (already done)", m2.ID))
		// Used, the offer's button and the result post's go at the buttons
		// job's next run, before the window ends; the post keeps its result.
		e.recordedResult(m1.ID, post.ID)
		e.clock.Add(time.Minute) // the job's next minute, still in the window
		if ran, err := e.sched.Run(e.ctx, jobs.JobButtons); err != nil || !ran {
			t.Fatal(ran, err)
		}
		for _, id := range []string{res.ID, post.ID} {
			if m, _ := e.fake.Message(id); len(m.Buttons()) != 0 {
				t.Errorf("Got(buttons of %s after the rematch formed) = %+v, want none", id, m.Buttons())
			}
		}
		if m, _ := e.fake.Message(post.ID); !strings.Contains(m.Text(), fmt.Sprintf("Match #%d ·", m1.ID)) {
			t.Errorf("Got(result post after the edit) = %q, want the result kept", m.Text())
		}

		// Rebalance: the same four, split again by their ratings.
		private(t, "rebalance", e.slash(admin, "config queue rematch", map[string]any{"queue": "2v2", "rematch": "rebalance"}), "split again")
		e.clock.Add(time.Minute)
		e.play(m2)
		res2 := e.offer(m2.ID)
		if !strings.Contains(res2.Content, "split again") {
			t.Errorf("Got(offer) = %q, want it to say the teams are split again", res2.Content)
		}
		for _, u := range m2.Players() {
			e.click(userOf(t, u), res2, commands.LabelRematch)
		}
		m3 := e.openMatch()
		got, want := m3.Players(), m2.Players()
		slices.Sort(got)
		slices.Sort(want)
		if m3.ID == m2.ID || m3.Source != "rematch" || !slices.Equal(got, want) {
			t.Errorf("Got(rebalanced rematch) = #%d %s %v, want a rematch of the players %v", m3.ID, m3.Source, got, want)
		}

		// Five minutes after the result, the offer is gone: the buttons
		// job takes its button off, and a press (a client that still
		// shows it) is refused.
		e.play(m3)
		res3 := e.offer(m3.ID)
		post3, err := e.fake.WaitChannelMessage(e.ctx, resultsChannel, func(m fakediscord.Message) bool {
			return strings.Contains(m.Text(), fmt.Sprintf("Match #%d ·", m3.ID))
		})
		if err != nil {
			t.Fatalf("no result post: %v", err)
		}
		e.recordedResult(m3.ID, post3.ID)
		e.clock.Add(joins.RematchWindow)
		e.recorded(m3.ID, res3.ID)
		if ran, err := e.sched.Run(e.ctx, jobs.JobButtons); err != nil || !ran {
			t.Fatal(ran, err)
		}
		if m, _ := e.fake.Message(res3.ID); len(m.Buttons()) != 0 {
			t.Errorf("Got(offer buttons after expiry) = %+v, want none", m.Buttons())
		}
		if m, _ := e.fake.Message(post3.ID); len(m.Buttons()) != 0 || !strings.Contains(m.Text(), fmt.Sprintf("Match #%d ·", m3.ID)) {
			t.Errorf("Got(result post after expiry) = %q with %+v, want the result without the Rematch button", m.Text(), m.Buttons())
		}
		b3, _ := res3.ButtonByLabel(commands.LabelRematch)
		refused(t, "expired", e.result(e.fake.ClickForged(at(userOf(t, m3.Teams[0][0])), res3.ID, b3.CustomID)), "expired")
		ms, err := e.svc.Matches(e.ctx, ladder.MatchFilter{GuildID: testGuild, States: []ladder.MatchState{ladder.StateOpen}, Limit: 5})
		if err != nil || len(ms) != 0 {
			t.Errorf("Got(open matches after an expired press) = %d, %v, want 0", len(ms), err)
		}
		if got := e.audited("queue.joins", "2v2"); got != 2 {
			t.Errorf("Got(queue.joins audit entries) = %d, want 2", got)
		}
	})
}
