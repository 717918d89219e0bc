package storage_test

import (
	"context"
	"slices"
	"testing"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// BenchmarkHistoryPage reads one page (20 matches, with their teams) of
// the match history that the web page and /history show, over the
// imported ATP doubles history (25,782 rated matches): the guild's newest
// matches and one player's. A page must cost its 20 matches, not the
// guild's history.
func BenchmarkHistoryPage(b *testing.B) {
	recs := atpHistory(b)
	testdb.ForEach(b, func(b *testing.B, be string) {
		ctx := context.Background()
		db := importedATP(b, be, recs)
		comm := community.New(db, ladder.NewService(db, nil))
		// The player with the most matches.
		games, player := map[string]int{}, ""
		for _, r := range recs {
			for _, id := range append(slices.Clone(r.Team1), r.Team2...) {
				if games[id]++; games[id] > games[player] {
					player = id
				}
			}
		}
		for _, c := range []struct {
			name string
			q    community.HistoryQuery
		}{
			{"guild", community.HistoryQuery{GuildID: guild, Limit: 20}},
			{"player", community.HistoryQuery{GuildID: guild, Player: player, Limit: 20}},
		} {
			b.Run(c.name, func(b *testing.B) {
				for range b.N {
					p, err := comm.History(ctx, c.q)
					if err != nil || len(p.Matches) != 20 || len(p.Matches[0].Team1) == 0 {
						b.Fatalf("Got(History() = %d matches, %v), want 20 with their teams", len(p.Matches), err)
					}
				}
			})
		}
	})
}
