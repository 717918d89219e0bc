package commands

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

// TestProfileUnranked checks that /profile tells an unlisted player why the
// board leaves them out and what lists them, and says nothing of
// the kind to a listed player.
func TestProfileUnranked(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	now := time.Now().UTC()
	// Four regulars play 40 matches 60 days ago; a newcomer plays one today.
	var recs []rating.MatchRecord
	for i := range 40 {
		a, b := [2]string{user(1), user(2)}, [2]string{user(3), user(4)}
		if i%2 == 1 {
			a, b = [2]string{user(1), user(3)}, [2]string{user(2), user(4)}
		}
		recs = append(recs, rating.MatchRecord{Date: now.Add(-60*24*time.Hour + time.Duration(i)*time.Minute), Team1: a[:], Team2: b[:], Winner: 1 + i%2})
	}
	recs = append(recs, rating.MatchRecord{Date: now.Add(-time.Hour), Team1: []string{user(5), user(1)}, Team2: []string{user(2), user(3)}, Winner: 1})
	if _, err := f.svc.ImportMatches(ctx, guild, "", recs, nil); err != nil {
		t.Fatalf("ImportMatches: %v", err)
	}
	if _, err := f.svc.MarkStale(ctx, guild); err != nil {
		t.Fatalf("MarkStale: %v", err)
	}
	last := now.Add(-60*24*time.Hour + 39*time.Minute).Format(time.DateOnly)
	cases := []struct {
		name   string
		player string
		want   string // "" means no such field
	}{
		{"placement", user(5), "1 of 5 placement games played: 5 more rated matches list you."}, // RD still above 100 after 4
		{"stale", user(4), "Inactive since " + last + ": no rated match for 30+ days: one rated match lists you."},
		{"listed", user(1), ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := f.ok(cmd(user(1), "profile", map[string]any{"player": tc.player}))
			var got string
			for _, fl := range r.Embeds[0].Fields {
				if fl.Name == "Why unranked" {
					got = fl.Value
				}
			}
			if got != tc.want {
				t.Errorf("Got(why unranked of %s) = %q, want %q", tc.name, got, tc.want)
			}
		})
	}
}

// TestUnrankedText covers every reason, including RD, which a short history
// does not reach.
func TestUnrankedText(t *testing.T) {
	last := time.Date(2026, 3, 4, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		name string
		l    ladder.Listing
		want string
	}{
		{"listed", ladder.Listing{Listed: true}, ""},
		{"rd", ladder.Listing{Reason: "rd", RD: 105, Games: 1416, MatchesToList: 1}, "RD 105 is above 100: one rated match lists you."},
		{"rd far", ladder.Listing{Reason: "rd", RD: 300}, "RD 300 is above 100: rated matches that bring it to 100 list you."},
		{"placement", ladder.Listing{Reason: "placement", Games: 2, PlacementGames: 5, MatchesToList: 3}, "2 of 5 placement games played: 3 more rated matches list you."},
		{"stale", ladder.Listing{Reason: "stale", StaleDays: 30, MatchesToList: 1}, "Inactive since 2026-03-04: no rated match for 30+ days: one rated match lists you."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := unrankedText(i18n.English(), tc.l, last); got != tc.want {
				t.Errorf("Got(unrankedText) = %q, want %q", got, tc.want)
			}
		})
	}
	if !strings.HasPrefix(unrankedText(i18n.English(), ladder.Listing{Reason: "stale", StaleDays: 30}, time.Time{}), "No rated match") {
		t.Errorf("Got(unrankedText without a last match) without the capitalised reason")
	}
	// In German and Portuguese: the language's words, numbers and date.
	for _, tc := range []struct {
		code string
		l    ladder.Listing
		want string
	}{
		{"de", ladder.Listing{Reason: "stale", StaleDays: 30, MatchesToList: 1},
			"Inaktiv seit 04.03.2026: seit 30+ Tagen kein gewertetes Match: ein gewertetes Match bringt dich in die Rangliste."},
		{"de", ladder.Listing{Reason: "rd", RD: 300}, "Abweichung 300 liegt über 100: gewertete Matches, die sie auf 100 senken, bringen dich in die Rangliste."},
		{"pt-BR", ladder.Listing{Reason: "placement", Games: 2, PlacementGames: 5, MatchesToList: 3},
			"2 de 5 partidas de colocação jogadas: mais 3 partidas pontuadas colocam você na classificação."},
	} {
		if got := unrankedText(i18n.For(tc.code), tc.l, last); got != tc.want {
			t.Errorf("Got(unrankedText in %s) = %q, want %q", tc.code, got, tc.want)
		}
	}
}
