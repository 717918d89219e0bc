package jobs

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ladderbot/ladderbot/commands"
)

// JobIntegrity folds the matches rated since its last run into each
// guild's integrity counters (at most the service's batch per ladder, so a
// run's cost does not grow with the log) and posts each new flag once to
// the guild's log channel.
const JobIntegrity = "integrity"

// integrityPosts is how many new flags one run posts per guild; the rest
// wait for the next run.
const integrityPosts = 10

func (s *Scheduler) integrity(ctx context.Context, _ time.Time) error {
	if s.opt.Integrity == nil {
		return nil
	}
	gs, err := s.svc.AllGuilds(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, g := range gs {
		if _, err := s.opt.Integrity.Scan(ctx, g.ID); err != nil {
			errs = append(errs, fmt.Errorf("guild %s: %w", g.ID, err))
			continue
		}
		if s.poster == nil || g.LogChannelID == "" {
			continue // posted once a log channel is set
		}
		fs, err := s.opt.Integrity.Unposted(ctx, g.ID, integrityPosts)
		if err != nil {
			errs = append(errs, fmt.Errorf("guild %s: %w", g.ID, err))
			continue
		}
		for _, f := range fs {
			// Claimed before the post: a flag is posted at most once,
			// whatever the number of processes.
			mine, err := s.opt.Integrity.MarkPosted(ctx, g.ID, f.ID)
			if err != nil || !mine {
				if err != nil {
					errs = append(errs, fmt.Errorf("guild %s flag %d: %w", g.ID, f.ID, err))
				}
				continue
			}
			if _, err := s.send(ctx, g.LogChannelID, commands.IntegrityPost(commands.GuildLang(g), f)); err != nil {
				errs = append(errs, fmt.Errorf("guild %s: post flag %d: %w", g.ID, f.ID, err))
			}
		}
	}
	return errors.Join(errs...)
}
