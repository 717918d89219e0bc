package jobs_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/ladder"
)

// BenchmarkSeasonsTick is the every-minute seasons job over 100 guilds with
// nothing due: the claim, the guild list and one season read per guild.
func BenchmarkSeasonsTick(b *testing.B) {
	testdb.ForEach(b, func(b *testing.B, be string) {
		ctx := context.Background()
		t0 := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
		c := ladder.NewManualClock(t0)
		p := newProc(b, testdb.DSN(b, be), c, nil)
		for i := range 100 {
			if _, err := p.svc.EnsureGuild(ctx, fmt.Sprintf("1000000000000%05d", i)); err != nil {
				b.Fatalf("EnsureGuild() = %v", err)
			}
		}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			c.Set(t0.Add(time.Duration(i+1) * time.Minute))
			if ran, err := p.sched.Run(ctx, jobs.JobSeasons); err != nil || !ran {
				b.Fatalf("Run(seasons) = %v, %v", ran, err)
			}
		}
	})
}

// BenchmarkSeasonClose closes a season of 500 listed players: freeze
// (rank, division, badge), mark closed, open the next, in one transaction,
// then read the frozen table back as the post does.
func BenchmarkSeasonClose(b *testing.B) {
	const players = 500
	testdb.ForEach(b, func(b *testing.B, be string) {
		ctx := context.Background()
		t0 := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
		c := ladder.NewManualClock(t0)
		p := newProc(b, testdb.DSN(b, be), c, nil)
		g, err := p.svc.EnsureGuild(ctx, guild)
		if err != nil {
			b.Fatalf("EnsureGuild() = %v", err)
		}
		g.PlacementGames = 0
		if _, err := p.svc.UpdateGuild(ctx, moderator, g); err != nil {
			b.Fatalf("UpdateGuild() = %v", err)
		}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			for u := range players {
				if _, err := p.svc.SetRating(ctx, moderator, guild, "", user(u), 1300+float64(u), 60, "bench"); err != nil {
					b.Fatalf("SetRating() = %v", err)
				}
			}
			c.Set(c.Now().Add(time.Hour))
			b.StartTimer()
			r, err := p.svc.CloseSeasonDue(ctx, guild, c.Now())
			if err != nil || len(r.Standings) != 1 {
				b.Fatalf("CloseSeasonDue() = %v", err)
			}
			for _, rs := range r.Standings {
				if len(rs) != players {
					b.Fatalf("Got(frozen rows) = %d, want %d", len(rs), players)
				}
			}
			if _, err := p.svc.SeasonStandingsOf(ctx, guild, r.Ended.Number); err != nil {
				b.Fatalf("SeasonStandingsOf() = %v", err)
			}
		}
	})
}
