package ladder

import (
	"context"
	"fmt"
)

// QueueSize is how many players wait in one queue.
type QueueSize struct {
	GuildID string
	QueueID int64
	// Queue is the queue's name.
	Queue string
	// Players counts every member of every ticket; Tickets counts parties
	// and solo players once each.
	Players, Tickets int
}

// QueueSizes returns the waiting players of every queue that has tickets,
// read in one transaction; queues absent from the result are empty. The
// scheduler's matchmaking tick exports them as a metric.
func (s *Service) QueueSizes(ctx context.Context) ([]QueueSize, error) {
	var out []QueueSize
	err := s.inQueueTx(ctx, func(qt Tx) error {
		out = out[:0]
		ids, err := qt.QueuesWithTickets(ctx)
		if err != nil {
			return err
		}
		for _, id := range ids {
			q, err := qt.Queue(ctx, id)
			if err != nil {
				return err
			}
			ts, err := qt.Tickets(ctx, id)
			if err != nil {
				return err
			}
			out = append(out, QueueSize{GuildID: q.GuildID, QueueID: q.ID, Queue: q.Name, Players: queuedPlayers(ts), Tickets: len(ts)})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("ladder: queue sizes: %w", err)
	}
	return out, nil
}
