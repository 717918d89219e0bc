package jobs

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ladderbot/ladderbot/commands"
)

// JobIntegrity posts each new integrity flag once to its guild's log
// channel, and rebuilds the counters of the ladders a moderator's
// correction rewrote (at most the service's budget of rows a run). The
// rated write folds every other match itself, so a run's cost depends on
// the flags to post and the corrections to rebuild, not on the number of
// guilds' seasons or the length of their logs.
const JobIntegrity = "integrity"

// integrityPosts is how many new flags one run posts per guild; the rest
// wait for the next run.
const integrityPosts = 10

func (s *Scheduler) integrity(ctx context.Context, _ time.Time) error {
	if s.opt.Integrity == nil {
		return nil
	}
	var errs []error
	if _, err := s.opt.Integrity.Rebuild(ctx); err != nil {
		errs = append(errs, err)
	}
	gs, err := s.svc.AllGuilds(ctx)
	if err != nil {
		return errors.Join(append(errs, err)...)
	}
	for _, g := range gs {
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
