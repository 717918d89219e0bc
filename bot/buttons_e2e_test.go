package bot

import (
	"fmt"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestEndedMatchButtons: once a match ends — confirmed, cancelled by a
// vote, voided by a moderator — the buttons job edits every message of it
// that carried buttons (the announcement, the request to confirm a report,
// a substitute request, a no-show report) so that none is left; their
// text stays. An open match's messages keep theirs.
func TestEndedMatchButtons(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		for _, how := range []string{"confirmed", "cancelled by a vote", "voided"} {
			t.Run(how, func(t *testing.T) {
				l := newLobbyEnv(t, freshDSN(t, backend))
				ann, m := l.formReady()
				for _, u := range m.Players() {
					l.clickLabel(userByID(u), ann, "Ready")
				}
				a1, a2 := userByID(m.Teams[0][0]), userByID(m.Teams[0][1])
				b1 := userByID(m.Teams[1][0])
				l.slash(a2, "sub request", nil)
				sub := l.channelMessage(fmt.Sprintf("needs a substitute for <@%s>", a2.ID))
				msgs := []fakediscord.Message{ann, sub}
				switch how {
				case "voided":
					wantText(t, "noshow", l.slash(b1, "noshow", map[string]any{"absent": a1.ID}), "No-show reported")
					msgs = append(msgs, l.channelMessage("reports a **no-show**"))
				default:
					wantText(t, "report", l.slash(a1, "report", map[string]any{"outcome": "win"}), "Reported match")
					msgs = append(msgs, l.channelMessage(fmt.Sprintf("reported match #%d", m.ID)))
				}
				// Open still: the job leaves every button.
				l.run(jobs.JobButtons)
				for _, msg := range msgs {
					if got, _ := l.fake.Message(msg.ID); len(got.Buttons()) == 0 {
						t.Fatalf("Got(buttons of %q while the match is open) = none, want them kept", got.Content)
					}
				}
				switch how {
				case "confirmed":
					wantText(t, "confirm", l.clickLabel(b1, msgs[2], "Confirm"), "confirmed")
				case "cancelled by a vote":
					for _, u := range m.Players()[:3] {
						l.slash(userByID(u), "match cancel", nil)
					}
				case "voided":
					l.slash(owner, "mod void", map[string]any{"match": int(m.ID)})
				}
				if st := l.match(m.ID).State; st.Active() || st == ladder.StateDisputed {
					t.Fatalf("Got(state) = %s, want the match ended", st)
				}
				before := map[string]string{}
				for _, msg := range msgs {
					got, _ := l.fake.Message(msg.ID)
					before[msg.ID] = got.Content
				}
				l.clock.Add(time.Minute) // the job runs once a minute
				l.run(jobs.JobButtons)
				for _, msg := range msgs {
					got, _ := l.fake.Message(msg.ID)
					if len(got.Buttons()) != 0 || len(got.Rows) != 0 {
						t.Errorf("Got(buttons of %q after the match ended) = %v, want none", got.Content, got.Buttons())
					}
					if got.Content != before[msg.ID] {
						t.Errorf("Got(text after the edit) = %q, want it kept: %q", got.Content, before[msg.ID])
					}
				}
				// A second run edits nothing more.
				edits := l.edits(msgs)
				l.clock.Add(time.Minute)
				l.run(jobs.JobButtons)
				if again := l.edits(msgs); again != edits {
					t.Errorf("Got(edits of a second run) = %d, want none", again-edits)
				}
			})
		}
	})
}

// edits counts the edits of msgs on the fake.
func (l *lobbyEnv) edits(msgs []fakediscord.Message) int {
	n := 0
	for _, m := range msgs {
		got, _ := l.fake.Message(m.ID)
		n += got.Edits
	}
	return n
}
