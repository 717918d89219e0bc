package ladder_test

import (
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

// importGroups imports a history of four groups of four players, each
// group playing only among itself (the env's clock is 2026-01-05 12:00,
// the stale cutoff 30 days earlier):
//
//	users 1-4:   5 matches on 2025-12-01: placement done, RD 103 after idling
//	users 5-8:  30 matches on 2026-01-01: listed
//	users 9-12: 30 matches on 2025-06-01: listed, but the stale rule is due
//	users 13-16: 2 matches on 2026-01-02: in placement
func importGroups(t *testing.T, e *env) {
	t.Helper()
	var recs []rating.MatchRecord
	group := func(first, n int, day time.Time) {
		for i := range n {
			u := func(k int) string { return user(first + (i+k)%4) }
			recs = append(recs, rating.MatchRecord{Date: day.Add(time.Duration(i) * time.Minute),
				Team1: []string{u(0), u(1)}, Team2: []string{u(2), u(3)}, Winner: 1 + i%2})
		}
	}
	group(1, 5, time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC))
	group(5, 30, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	group(9, 30, time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC))
	group(13, 2, time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC))
	if _, err := e.svc.ImportMatches(e.ctx, guild, "", recs, nil); err != nil {
		t.Fatalf("ImportMatches() = %v", err)
	}
}

// TestUnlisted checks the board's hidden-player counts and sentence
// against a history whose every player's reason is known.
func TestUnlisted(t *testing.T) {
	behaviours(t, []behaviour{
		{"after import and after the stale job", func(t *testing.T, e *env) {
			importGroups(t, e)
			u := must(e.svc.Unlisted(e.ctx, guild, "", 0))
			want := ladder.Unlisted{Players: 16, Listed: 8, Placement: 4, HighRD: 4, Stale: 0, StaleDue: 4, PlacementGames: 5, StaleDays: 30}
			if u != want {
				t.Errorf("Got(Unlisted after import) = %#v, want %#v", u, want)
			}
			if got, w := u.String(), "8 players hidden: 4 in placement (fewer than 5 games), 4 with RD above 100"; got != w {
				t.Errorf("Got(Unlisted.String) = %q, want %q", got, w)
			}
			// The stale job flags users 1-4 too, but they stay counted by
			// their first reason, RD; StaleDue predicted the newly hidden.
			if n := must(e.svc.MarkStale(e.ctx, guild)); n != 8 {
				t.Errorf("Got(MarkStale) = %d, want 8", n)
			}
			u = must(e.svc.Unlisted(e.ctx, guild, "", 0))
			want.Listed, want.Stale, want.StaleDue = 4, 4, 0
			if u != want {
				t.Errorf("Got(Unlisted after MarkStale) = %#v, want %#v", u, want)
			}
			if got, w := u.String(), "12 players hidden: 4 in placement (fewer than 5 games), 4 with RD above 100, 4 inactive for 30+ days"; got != w {
				t.Errorf("Got(Unlisted.String) = %q, want %q", got, w)
			}
			if lb := must(e.svc.Leaderboard(e.ctx, ladder.LeaderboardQuery{GuildID: guild})); len(lb.Standings) != u.Listed {
				t.Errorf("Got(Leaderboard) %d rows, want Listed = %d", len(lb.Standings), u.Listed)
			}
		}},
		{"nobody hidden says nothing", func(t *testing.T, e *env) {
			u := must(e.svc.Unlisted(e.ctx, guild, "", 0))
			if u.Players != 0 || u.String() != "" {
				t.Errorf("Got(Unlisted of an empty ladder) = %#v %q, want zero and \"\"", u, u.String())
			}
		}},
	})
}

// TestListing checks a profile's reason for being unranked, and that its
// count of matches is the truth: after that many rated matches the player
// is listed, one fewer is not enough.
func TestListing(t *testing.T) {
	behaviours(t, []behaviour{
		{"reasons and matches to list", func(t *testing.T, e *env) {
			importGroups(t, e)
			if _, err := e.svc.MarkStale(e.ctx, guild); err != nil {
				t.Fatal(err)
			}
			tests := []struct {
				user   int
				reason string
				text   string
			}{
				{1, "rd", "RD 103 is above 100: 3 more rated matches list you"},
				{5, "", ""},
				{9, "stale", "no rated match for 30+ days: "},
				{13, "placement", "2 of 5 placement games played: 4 more rated matches list you"},
			}
			for _, tt := range tests {
				l := profile(t, e, user(tt.user)).Listing
				if l.Reason != tt.reason || l.Listed != (tt.reason == "") || len(l.String()) < len(tt.text) || l.String()[:len(tt.text)] != tt.text {
					t.Errorf("Got(Profile(user %d).Listing) = %+v %q, want reason %q and text starting %q", tt.user, l, l.String(), tt.reason, tt.text)
				}
			}
			for _, first := range []int{1, 9, 13} {
				n := profile(t, e, user(first)).Listing.MatchesToList
				if n < 1 {
					t.Fatalf("Got(user %d MatchesToList) = %d, want a count", first, n)
				}
				team1, team2 := []string{user(first), user(first + 1)}, []string{user(first + 2), user(first + 3)}
				for i := 1; i <= n; i++ {
					if _, err := e.svc.RecordResult(e.ctx, result(team1, team2, ladder.Draw)); err != nil {
						t.Fatalf("RecordResult() = %v", err)
					}
					p := profile(t, e, user(first))
					if listed := p.Standing.Rank > 0; listed != (i == n) {
						t.Errorf("Got(user %d listed after %d of %d matches) = %t (%q)", first, i, n, listed, p.Listing.String())
					}
				}
			}
		}},
	})
}
