package commands_test

import (
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestTurnPing: an edited announcement notifies nobody, so the captain a
// pick passes the turn to is pinged, and only then — not in the middle
// of a captain's two picks, not once the draft is over.
func TestTurnPing(t *testing.T) {
	deadline := time.Date(2026, 3, 2, 18, 1, 0, 0, time.UTC)
	seats := func(picked ...int) []ladder.DraftSeat {
		s := []ladder.DraftSeat{{UserID: "1", Team: 1}, {UserID: "2", Team: 2}}
		for i, u := range []string{"3", "4", "5", "6"} {
			st := ladder.DraftSeat{UserID: u}
			if i < len(picked) {
				st.Team, st.Pick = picked[i], i+1
			}
			s = append(s, st)
		}
		return s
	}
	draft := func(state ladder.DraftState, picked ...int) ladder.DraftResult {
		d := ladder.Draft{MatchID: 7, State: state, Deadline: deadline, Seats: seats(picked...)}
		last := d.Seats[1+len(picked)]
		return ladder.DraftResult{Match: ladder.Match{ID: 7}, Draft: d, Picked: []ladder.DraftSeat{last}}
	}
	// 3v3, pool of 4: team 2 picks, then team 1 twice, then team 2.
	if r, ok := commands.TurnPing(i18n.English(), draft(ladder.DraftPicking, 2)); !ok || !strings.HasPrefix(r.Content, "<@1>, your pick for team 1 in **match #7**") ||
		len(r.Mentions) != 1 || r.Mentions[0] != "1" {
		t.Errorf("Got(ping after team 2's first pick) = %q pinging %v, %v, want team 1's captain pinged", r.Content, r.Mentions, ok)
	}
	if _, ok := commands.TurnPing(i18n.English(), draft(ladder.DraftPicking, 2, 1)); ok {
		t.Errorf("Got(ping between team 1's two picks) = true, want none")
	}
	if r, ok := commands.TurnPing(i18n.English(), draft(ladder.DraftPicking, 2, 1, 1)); !ok || !strings.HasPrefix(r.Content, "<@2>, your pick for team 2") {
		t.Errorf("Got(ping after team 1's second pick) = %q, %v, want team 2's captain", r.Content, ok)
	}
	if _, ok := commands.TurnPing(i18n.English(), draft(ladder.DraftDone, 2, 1, 1, 2)); ok {
		t.Errorf("Got(ping once the draft is over) = true, want none")
	}
}
