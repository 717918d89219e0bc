package jobs

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/ladder"
)

// weeklyTopSize is how many players the weekly post lists (docs/spec.md 6).
const weeklyTopSize = 10

// weeklyTop posts each queue's top 10 to the announcement channel of the
// guilds that turned the weekly post on (docs/spec.md 6, Monday 00:00 UTC). Started
// later in the week, it posts that week's table late rather than not at all.
func (s *Scheduler) weeklyTop(ctx context.Context, _ time.Time) error {
	if s.poster == nil {
		return nil
	}
	gs, err := s.svc.AllGuilds(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, g := range gs {
		if !g.WeeklyTop || g.AnnounceChannelID == "" {
			continue
		}
		qs, err := s.svc.Queues(ctx, g.ID)
		if err != nil {
			errs = append(errs, fmt.Errorf("guild %s: %w", g.ID, err))
			continue
		}
		for _, q := range qs {
			page, err := s.svc.Leaderboard(ctx, ladder.LeaderboardQuery{GuildID: g.ID, Queue: q.Name, Limit: weeklyTopSize})
			if err != nil {
				errs = append(errs, fmt.Errorf("guild %s queue %s: %w", g.ID, q.Name, err))
				continue
			}
			if len(page.Standings) == 0 {
				continue
			}
			page.Next = ""
			_, err = s.send(ctx, g.AnnounceChannelID, commands.WeeklyTop(commands.GuildLang(g), page))
			if err != nil {
				errs = append(errs, fmt.Errorf("guild %s queue %s: post weekly top: %w", g.ID, q.Name, err))
			}
		}
	}
	return errors.Join(errs...)
}
