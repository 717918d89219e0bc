package ladder_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ladderbot/ladderbot/internal/laddertest"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// BenchmarkLobbyCycle measures one 2v2 match from the queue to its end
// without a ready check: four joins (the fourth forms the match), in
// captains mode the one pick the draft needs (the last player is given),
// and the match cancelled by three votes so that the next cycle's players
// are free. balanced is the reference beside captains in the same run:
// their ratio is the cost of the draft — opening it in the matchmaking
// transaction, the pick, and writing the drafted teams with their chance.
func BenchmarkLobbyCycle(b *testing.B) {
	for _, mode := range []ladder.PickMode{ladder.PickBalanced, ladder.PickCaptains} {
		b.Run(string(mode), func(b *testing.B) {
			testdb.ForEach(b, func(b *testing.B, backend string) {
				ctx := context.Background()
				db, c := laddertest.Open(b, backend), laddertest.Clock()
				svc := laddertest.Service(b, db, c, guild)
				_, l, err := svc.Lobby(ctx, guild, "")
				if err != nil {
					b.Fatal(err)
				}
				l.ReadyWindow, l.PickMode = 0, mode
				if _, err := svc.UpdateLobby(ctx, mod, guild, l); err != nil {
					b.Fatal(err)
				}
				round := 0
				for b.Loop() {
					round++
					var formed []ladder.FormedMatch
					for i := range 4 {
						u := fmt.Sprintf("3%05d%012d", round, i)
						res, err := svc.JoinQueue(ctx, ladder.JoinRequest{GuildID: guild, UserID: u})
						if err != nil {
							b.Fatal(err)
						}
						formed = append(formed, res.Formed...)
					}
					if len(formed) != 1 {
						b.Fatalf("round %d: Got(formed) = %d, want 1", round, len(formed))
					}
					m, d := formed[0].Match, formed[0].Draft
					if d.MatchID != 0 {
						if _, err := svc.Pick(ctx, ladder.Actor{UserID: d.Captain(d.Turn())}, guild, m.ID, 0, d.Pool()[0].UserID); err != nil {
							b.Fatal(err)
						}
					}
					for _, u := range m.Players()[:3] {
						if _, err := svc.CancelVote(ctx, ladder.Actor{UserID: u}, guild, m.ID); err != nil {
							b.Fatal(err)
						}
					}
				}
			})
		})
	}
}
