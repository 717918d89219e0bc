package ladder

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder/rating"
)

func TestDivisionFor(t *testing.T) {
	divs := DefaultDivisions()
	tests := []struct {
		rating float64
		want   string
	}{
		{-50, "Bronze"}, {1399.99, "Bronze"}, {1400, "Silver"}, {1549.5, "Silver"}, {1550, "Gold"},
		{1700, "Platinum"}, {1849.999, "Platinum"}, {1850, "Diamond"}, {3000, "Diamond"},
	}
	for _, tt := range tests {
		if got := DivisionFor(divs, tt.rating); got != tt.want {
			t.Errorf("DivisionFor(%v) = %q, want %q", tt.rating, got, tt.want)
		}
	}
	if got := DivisionFor(nil, 1500); got != "" {
		t.Errorf("DivisionFor(nil) = %q, want empty", got)
	}
	lo, hi, ok := DivisionRange(divs, "gold")
	if !ok || lo != 1550 || hi != 1700 {
		t.Errorf("DivisionRange(gold) = %v, %v, %v, want 1550, 1700, true", lo, hi, ok)
	}
	if lo, _, ok := DivisionRange(divs, "Bronze"); !ok || lo > -1e300 {
		t.Errorf("DivisionRange(Bronze) low = %v, want unbounded", lo)
	}
	if _, _, ok := DivisionRange(divs, "Mithril"); ok {
		t.Errorf("DivisionRange(Mithril) ok = true, want false")
	}
}

func TestGuildValidate(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		change func(g *Guild)
		ok     bool
	}{
		{"defaults", func(*Guild) {}, true},
		{"no schedule", func(g *Guild) { g.SeasonSchedule = "" }, true},
		{"bad schedule", func(g *Guild) { g.SeasonSchedule = "every monday" }, false},
		{"carry above 1", func(g *Guild) { g.SeasonCarry = 1.5 }, false},
		{"zero stale days", func(g *Guild) { g.StaleDays = 0 }, false},
		{"short confirm window", func(g *Guild) { g.ConfirmWindow = time.Second }, false},
		{"unsorted divisions", func(g *Guild) { g.Divisions = []Division{{"B", 1500}, {"A", 1400}} }, false},
		{"duplicate division", func(g *Guild) { g.Divisions = []Division{{"A", 0}, {"a", 1400}} }, false},
		{"unnamed division", func(g *Guild) { g.Divisions = []Division{{" ", 0}} }, false},
		// A division may become a role and is picked from a menu of at
		// most 25 choices by an option of at most 32 characters.
		{"name of 32 characters", func(g *Guild) { g.Divisions = []Division{{strings.Repeat("é", 32), 0}} }, true},
		{"name of 33", func(g *Guild) { g.Divisions = []Division{{strings.Repeat("é", 33), 0}} }, false},
		{"25 divisions", func(g *Guild) { g.Divisions = numbered(25) }, true},
		{"26 divisions", func(g *Guild) { g.Divisions = numbered(26) }, false},
		{"NUL in a name", func(g *Guild) { g.Divisions = []Division{{"Go\x00ld", 0}} }, false},
		{"bidi override in a name", func(g *Guild) { g.Divisions = []Division{{"Gold\u202e", 0}} }, false},
	}
	for _, tt := range tests {
		g := NewGuild("1", now)
		tt.change(&g)
		err := g.Validate()
		if (err == nil) != tt.ok || (err != nil && ErrorCode(err) != CodeInvalid) {
			t.Errorf("Validate(%s) = %v, want ok %v (or an invalid error)", tt.name, err, tt.ok)
		}
	}
}

func TestQueueValidate(t *testing.T) {
	tests := []struct {
		name   string
		change func(q *Queue)
		ok     bool
	}{
		{"defaults", func(*Queue) {}, true},
		{"8v8", func(q *Queue) { q.TeamSize = 8 }, true},
		{"9v9", func(q *Queue) { q.TeamSize = 9 }, false},
		{"unknown model", func(q *Queue) { q.Model = "chess960" }, false},
		{"floor above start", func(q *Queue) { q.QFloor = 0.9 }, false},
		{"no name", func(q *Queue) { q.Name = "" }, false},
	}
	for _, tt := range tests {
		q := NewQueue("1", "2v2", 2)
		tt.change(&q)
		if err := q.Validate(); (err == nil) != tt.ok {
			t.Errorf("Validate(%s) = %v, want ok %v", tt.name, err, tt.ok)
		}
	}
}

func TestBoardCursor(t *testing.T) {
	c := boardCursor{rank: 150, display: 1534.123456789012, user: "123456789012345678"}
	got, err := parseCursor(c.String())
	if err != nil || got != c {
		t.Errorf("parseCursor(String()) = %+v, %v, want %+v", got, err, c)
	}
	enc := func(raw string) string { return base64.RawURLEncoding.EncodeToString([]byte(raw)) }
	forged := []string{
		enc("9223372036854775807|1500|1001"), // overflows the next rank
		enc("10000001|1500|1001"),
		enc("0|1500|1001"),
		enc("5|NaN|1001"),
		enc("5|+Inf|1001"),
		enc("5|1e300|1001"),
		enc("5|1500|a\x00b"),
		enc("05|1500|1001"), // not the canonical spelling
		enc("5|1500.0|1001"),
	}
	for _, bad := range append([]string{"", "!!", "MTIz", "eHx5fHo"}, forged...) {
		if _, err := parseCursor(bad); ErrorCode(err) != CodeInvalid {
			t.Errorf("parseCursor(%q) = %v, want invalid", bad, err)
		}
	}
}

func TestSeasonRules(t *testing.T) {
	for rank, want := range map[int]string{0: "", 1: "top3", 3: "top3", 4: "top30", 30: "top30", 31: "top100", 100: "top100", 101: ""} {
		if got := Badge(rank); got != want {
			t.Errorf("Badge(%d) = %q, want %q", rank, got, want)
		}
	}
	last := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	got := CarryOver(rating.State{Rating: 1800, Dev: 40, Games: 90, Last: last}, rating.State{Rating: 1500, Dev: 130}, 0.5)
	if got.Rating != 1650 || got.Dev != 130 || got.Games != 0 || !got.Last.Equal(last) {
		t.Errorf("CarryOver(1800) = %+v, want 1650 ± 130, 0 games, last kept", got)
	}
}

func TestWinnerFor(t *testing.T) {
	tests := []struct {
		team int
		o    Outcome
		want int
	}{{1, Win, 1}, {1, Loss, 2}, {2, Win, 2}, {2, Loss, 1}, {2, Tie, Draw}}
	for _, tt := range tests {
		if got, err := winnerFor(tt.team, tt.o); err != nil || got != tt.want {
			t.Errorf("winnerFor(%d, %s) = %d, %v, want %d", tt.team, tt.o, got, err, tt.want)
		}
	}
	if _, err := winnerFor(1, "forfeit"); ErrorCode(err) != CodeInvalid {
		t.Errorf("winnerFor(forfeit) = %v, want invalid", err)
	}
}

// numbered is n divisions D1, D2, … 100 points apart.
func numbered(n int) []Division {
	out := make([]Division, n)
	for i := range out {
		out[i] = Division{Name: fmt.Sprintf("D%d", i+1), Min: float64(100 * i)}
	}
	return out
}
