package storage_test

import (
	"context"
	"slices"
	"testing"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// BenchmarkHistoryPage reads one page of matches over the imported ATP
// doubles history (25,782 rated matches): 20 matches with their teams of
// the match history that the web page and /history show, the guild's
// newest and one player's, and the disputed matches that the dashboard
// and /mod disputes list (none here). A page must cost its matches, not the
// guild's history.
func BenchmarkHistoryPage(b *testing.B) {
	recs := atpHistory(b)
	testdb.ForEach(b, func(b *testing.B, be string) {
		ctx := context.Background()
		db := importedATP(b, be, recs)
		svc := ladder.NewService(db, nil)
		comm := community.New(db, svc)
		// The player with the most matches.
		games, player := map[string]int{}, ""
		for _, r := range recs {
			for _, id := range append(slices.Clone(r.Team1), r.Team2...) {
				if games[id]++; games[id] > games[player] {
					player = id
				}
			}
		}
		history := func(q community.HistoryQuery) func(b *testing.B) {
			return func(b *testing.B) {
				for range b.N {
					p, err := comm.History(ctx, q)
					if err != nil || len(p.Matches) != 20 || len(p.Matches[0].Team1) == 0 {
						b.Fatalf("Got(History() = %d matches, %v), want 20 with their teams", len(p.Matches), err)
					}
				}
			}
		}
		b.Run("guild", history(community.HistoryQuery{GuildID: guild, Limit: 20}))
		b.Run("player", history(community.HistoryQuery{GuildID: guild, Player: player, Limit: 20}))
		b.Run("pool-health", func(b *testing.B) {
			for range b.N {
				h, err := svc.PoolHealth(ctx, guild, "", 100)
				if err != nil || h.Matches != 100 {
					b.Fatalf("Got(PoolHealth() = %d matches, %v), want 100", h.Matches, err)
				}
			}
		})
		b.Run("stats", func(b *testing.B) {
			for range b.N {
				st, err := comm.Stats(ctx, guild, "", 0, 10)
				if err != nil || len(st.Partnerships) == 0 {
					b.Fatalf("Got(Stats() = %d partnerships, %v), want some", len(st.Partnerships), err)
				}
			}
		})
		b.Run("disputed", func(b *testing.B) {
			for range b.N {
				ms, err := svc.Matches(ctx, ladder.MatchFilter{GuildID: guild, States: []ladder.MatchState{ladder.StateDisputed}, Limit: 100})
				if err != nil || len(ms) != 0 {
					b.Fatalf("Got(Matches(disputed) = %d matches, %v), want none", len(ms), err)
				}
			}
		})
	})
}
