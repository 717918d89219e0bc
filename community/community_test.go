package community_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/internal/laddertest"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"github.com/ladderbot/ladderbot/storage"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m, "community")) }

const (
	guild = "100000000000000009"
	other = "100000000000000008"
)

func user(i int) string { return fmt.Sprintf("70000000000000%04d", i) }

// env is a guild with a known log on one backend: users 1+2 beat 3+4 four
// times, lose once and draw once as partners, then 2+4 beat 1+3 twice. A
// second guild plays users 11-14.
type env struct {
	ctx context.Context
	db  *storage.DB
	svc *ladder.Service
	com *community.Service
}

func newEnv(t *testing.T, b string) env {
	t.Helper()
	ctx := context.Background()
	db, _ := laddertest.OpenDerived(t, b, nil)
	svc := ladder.NewService(db, nil)
	start := time.Now().UTC().Add(-48 * time.Hour)
	var recs []rating.MatchRecord
	for i, w := range []int{1, 1, 2, 1, 1, 0} {
		recs = append(recs, rating.MatchRecord{Date: start.Add(time.Duration(i) * time.Hour),
			Team1: []string{user(1), user(2)}, Team2: []string{user(3), user(4)}, Winner: w})
	}
	for i := range 2 {
		recs = append(recs, rating.MatchRecord{Date: start.Add(time.Duration(10+i) * time.Hour),
			Team1: []string{user(1), user(3)}, Team2: []string{user(2), user(4)}, Winner: 2})
	}
	if _, err := svc.ImportMatches(ctx, guild, "", recs, nil); err != nil {
		t.Fatalf("ImportMatches: %v", err)
	}
	var orecs []rating.MatchRecord
	for i := range 3 {
		orecs = append(orecs, rating.MatchRecord{Date: start.Add(time.Duration(i) * time.Hour),
			Team1: []string{user(11), user(12)}, Team2: []string{user(13), user(14)}, Winner: 1})
	}
	if _, err := svc.ImportMatches(ctx, other, "", orecs, nil); err != nil {
		t.Fatalf("ImportMatches(other): %v", err)
	}
	return env{ctx: ctx, db: db, svc: svc, com: community.New(db, svc)}
}

func TestCompare(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b)
		c, err := e.com.Compare(e.ctx, guild, user(1), user(2), "", 0)
		if err != nil {
			t.Fatalf("Compare: %v", err)
		}
		if want := (community.Record{Wins: 4, Losses: 1, Draws: 1}); c.Together != want {
			t.Errorf("Got(together) = %+v, want %+v", c.Together, want)
		}
		if want := (community.Record{Losses: 2}); c.Against != want {
			t.Errorf("Got(against) = %+v, want %+v", c.Against, want)
		}
		if len(c.Last) != 2 || c.Last[0].MatchID <= c.Last[1].MatchID || community.ResultFor(c.Last[0].Winner, c.Last[0].TeamA) != "loss" {
			t.Errorf("Got(last meetings) = %+v, want the two losses newest first", c.Last)
		}
		if !c.A.Rated || c.A.Record.Games() != 8 || c.B.Record.Wins != 6 {
			t.Errorf("Got(sides) = %+v / %+v, want 8 rated games each, B with 6 wins", c.A, c.B)
		}
		// The model's chance is the one a 1v1 of the stored states gives:
		// symmetric, and favouring the higher-rated player.
		r, err := e.com.Compare(e.ctx, guild, user(2), user(1), "", 0)
		if err != nil {
			t.Fatal(err)
		}
		if d := c.PAWins + r.PAWins - 1; d > 1e-9 || d < -1e-9 {
			t.Errorf("Got(P(1 beats 2) + P(2 beats 1)) = %v, want 1", c.PAWins+r.PAWins)
		}
		if (c.A.Rating > c.B.Rating) != (c.PAWins > 0.5) {
			t.Errorf("Got(P(1 beats 2)) = %v with ratings %v and %v", c.PAWins, c.A.Rating, c.B.Rating)
		}
		n, err := e.com.Compare(e.ctx, guild, user(3), user(4), "", 0)
		if err != nil || n.Against != (community.Record{Losses: 2}) || n.Together != (community.Record{Wins: 1, Losses: 4, Draws: 1}) {
			t.Errorf("Got(Compare 3 4) = %+v, %v, want 1-4-1 together and 0-2 against", n, err)
		}
	})
}

func TestCompareHostile(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b)
		cases := []struct {
			name        string
			guild, a, b string
			queue       string
			season      int
			want        ladder.Code
		}{
			{"same player", guild, user(1), user(1), "", 0, ladder.CodeInvalid},
			{"unknown player", guild, user(1), user(99), "", 0, ladder.CodeNotFound},
			{"another guild's player", guild, user(1), user(11), "", 0, ladder.CodeNotFound},
			{"not an ID", guild, user(1), "1 OR 1=1", "", 0, ladder.CodeInvalid},
			{"bad guild", "x'--", user(1), user(2), "", 0, ladder.CodeInvalid},
			{"unknown guild", "100000000000000001", user(1), user(2), "", 0, ladder.CodeNotFound},
			{"unknown queue", guild, user(1), user(2), "nope", 0, ladder.CodeNotFound},
			{"unknown season", guild, user(1), user(2), "", 99, ladder.CodeNotFound},
			{"negative season", guild, user(1), user(2), "", -1, ladder.CodeInvalid},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				_, err := e.com.Compare(e.ctx, tc.guild, tc.a, tc.b, tc.queue, tc.season)
				if ladder.ErrorCode(err) != tc.want {
					t.Errorf("Got(Compare error) = %v (%s), want %s", err, ladder.ErrorCode(err), tc.want)
				}
			})
		}
	})
}
