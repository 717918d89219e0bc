package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

// TestCommunityEndToEnd drives /compare, /stats and /history with its
// buttons through the fake Discord, over both transports and databases:
// 12 rated matches where p1+p2 beat p3+p4 nine times, then lose three.
func TestCommunityEndToEnd(t *testing.T) {
	for _, transport := range []string{TransportGateway, TransportHTTP} {
		t.Run(transport, func(t *testing.T) {
			testdb.ForEach(t, func(t *testing.T, backend string) {
				e := newEnvOver(t, freshDSN(t, backend), transport)
				start := time.Now().UTC().Add(-24 * time.Hour)
				var recs []rating.MatchRecord
				for i := range 12 {
					w := 1
					if i >= 9 {
						w = 2
					}
					recs = append(recs, rating.MatchRecord{Date: start.Add(time.Duration(i) * time.Minute),
						Team1: []string{players[0].ID, players[1].ID}, Team2: []string{players[2].ID, players[3].ID}, Winner: w})
				}
				if _, err := e.svc.ImportMatches(e.ctx, testGuild, "", recs, nil); err != nil {
					t.Fatalf("ImportMatches: %v", err)
				}

				c := e.slash(alice, "compare", map[string]any{"a": players[0].ID, "b": players[2].ID})
				if c.Ephemeral() {
					t.Errorf("Got(/compare ephemeral) = true, want public")
				}
				wantText(t, "compare", c, "12 games · 9-3")
				wantText(t, "compare", c, "Chance one on one")
				wantText(t, "stats", e.slash(alice, "stats", nil), "3 wins in a row")
				r := e.slash(alice, "compare", map[string]any{"a": players[0].ID, "b": players[0].ID})
				wantText(t, "compare self", r, "two different players")

				h := e.slash(alice, "history", map[string]any{"player": players[1].ID})
				if !h.Ephemeral() {
					t.Fatalf("Got(/history ephemeral) = false, want private")
				}
				first := h.Message.Text()
				if !strings.Contains(first, "#12") || strings.Contains(first, "#2`") {
					t.Errorf("Got(first page) = %q, want #12 to #3", first)
				}
				next := e.clickLabel(alice, h.Message, "Next ▶")
				if next.Message.ID != h.Message.ID || !strings.Contains(next.Message.Text(), "#2`") || strings.Contains(next.Message.Text(), "#12") {
					t.Fatalf("Got(Next) = message %s %q, want #2 and #1 in place of %s", next.Message.ID, next.Message.Text(), h.Message.ID)
				}
				if b, _ := next.Message.ButtonByLabel("Next ▶"); !b.Disabled {
					t.Errorf("Got(Next on the last page) enabled, want disabled")
				}
				prev := e.clickLabel(alice, next.Message, "◀ Previous")
				if prev.Message.Text() != first {
					t.Errorf("Got(Prev) = %q, want the first page again", prev.Message.Text())
				}
				// Nobody else sees, or can press, alice's private page.
				if _, err := e.fake.Click(at(bob), h.Message.ID, "hist:3:o:all:0"); err == nil {
					t.Errorf("Got(bob pressing alice's private page) accepted")
				}
				// A forged cursor is refused with a clear message.
				forged := e.clickRaced(alice, h.Message.ID, "hist:3:z:all:0")
				if !strings.Contains(forged.Message.Text(), "not valid") {
					t.Errorf("Got(forged button) = %q, want a refusal", forged.Message.Text())
				}
			})
		})
	}
}
