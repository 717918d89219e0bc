package jobs

import (
	"context"
	"slices"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/joins"
)

// JobQueueClose empties the queues whose open hours ended, with a notice;
// one process claims each minute, and the tickets leave the queue in one
// transaction, so each player is told once.
const JobQueueClose = "queue-close"

// Closer empties queues outside their open hours; *joins.Service
// implements it.
type Closer interface {
	CloseDue(ctx context.Context) ([]joins.Closed, error)
}

// closeQueues is JobQueueClose's work: each emptied queue's players are
// told in the queue's channel, or where they joined when it has none.
func (s *Scheduler) closeQueues(ctx context.Context, _ time.Time) error {
	if s.opt.Joins == nil {
		return nil
	}
	closed, err := s.opt.Joins.CloseDue(ctx)
	for _, c := range closed {
		guild := c.Queue.GuildID
		s.queueChanged(guild)
		var users []string
		byChannel := map[string][]string{}
		var channels []string
		for _, t := range c.Tickets {
			users = append(users, t.UserIDs...)
			ch := c.Queue.ChannelID
			if ch == "" {
				ch = t.ChannelID
			}
			if ch == "" {
				continue
			}
			if !slices.Contains(channels, ch) {
				channels = append(channels, ch)
			}
			byChannel[ch] = append(byChannel[ch], t.UserIDs...)
		}
		s.log.Info("queue closed by its hours", "guild_id", guild, "queue_id", c.Queue.ID, "players", len(users))
		for _, ch := range channels {
			s.post(ctx, guild, ch, commands.QueueClosed(s.lang(ctx, guild), c, byChannel[ch]))
		}
	}
	return err
}
