package ladder

import (
	"context"
	"fmt"
	"time"
)

// SeasonRollover is what closing a season did: the season closed, the one
// opened, and the frozen standings of each queue (listed players only).
type SeasonRollover struct {
	Ended       Season
	Started     Season
	AlreadyDone bool
	// Standings holds each queue's frozen results by queue ID, best first.
	Standings map[int64][]SeasonResult
	Queues    []Queue
}

// EndSeason closes the guild's season number (0: the current one), freezes
// its final standings with ranks, divisions and top 3/30/100 badges, and
// opens the next season (docs/spec.md 4). Players enter the next season carried
// over, R' = r0 + α(R − r0) and RD' = rd0, when they first play in it. If
// season number has already ended it answers AlreadyDone, so a double click
// or a job run twice closes one season only.
func (s *Service) EndSeason(ctx context.Context, actor Actor, guildID string, number int) (SeasonRollover, error) {
	if !actor.Moderator {
		return SeasonRollover{}, Errorf(CodeForbidden, "only moderators can end a season")
	}
	var out SeasonRollover
	err := s.store.InTx(ctx, func(tx Tx) error {
		out = SeasonRollover{Standings: map[int64][]SeasonResult{}}
		g, err := tx.Guild(ctx, guildID)
		if err != nil {
			return err
		}
		cur, err := tx.CurrentSeason(ctx, guildID)
		if err != nil {
			return err
		}
		if number > 0 && number != cur.Number {
			if number > cur.Number {
				return Errorf(CodeNotFound, "season %d has not started", number)
			}
			ended, err := tx.Season(ctx, guildID, number)
			if err != nil {
				return err
			}
			out.Ended, out.Started, out.AlreadyDone = ended, cur, true
			return nil
		}
		now := s.now()
		if out.Queues, err = tx.Queues(ctx, guildID); err != nil {
			return err
		}
		// Every result takes its queue's calibrator row first, which
		// orders the queue's results (prepare). Holding them all, the close
		// waits for the results being written and freezes them, and a
		// result that comes after it reads the next season: otherwise a
		// result that read the season while it ran and committed after the
		// freeze was rated in it and missing from its table, and from the
		// carry-over of whoever had entered the next season meanwhile.
		for _, q := range out.Queues {
			if _, err := tx.LockCalibrator(ctx, q.ID); err != nil {
				return err
			}
		}
		// A close of the same season by another moderator, the dashboard
		// or the season job may have committed while this one waited for
		// the locks: read the season again, as it is now.
		if number > 0 {
			again, err := tx.Season(ctx, guildID, cur.Number)
			if err != nil {
				return err
			}
			if !again.Running() {
				next, err := tx.CurrentSeason(ctx, guildID)
				if err != nil {
					return err
				}
				out.Ended, out.Started, out.AlreadyDone = again, next, true
				return nil
			}
		}
		for _, q := range out.Queues {
			rs, err := freeze(ctx, tx, g, q, cur)
			if err != nil {
				return err
			}
			if err := tx.SaveSeasonResults(ctx, rs); err != nil {
				return err
			}
			out.Standings[q.ID] = rs
		}
		if err := tx.EndSeason(ctx, cur.ID, now); err != nil {
			return err
		}
		cur.EndedAt = now
		next, err := tx.CreateSeason(ctx, Season{GuildID: guildID, Number: cur.Number + 1, StartedAt: now})
		if err != nil {
			return err
		}
		out.Ended, out.Started = cur, next
		if err := emitSeasonClosed(ctx, tx, cur, next.Number, now); err != nil {
			return err
		}
		return audit(ctx, tx, AuditEntry{GuildID: guildID, ActorID: actor.UserID, Action: "season.end", Target: fmt.Sprint(cur.Number), At: now},
			map[string]any{"season": cur.Number}, map[string]any{"season": next.Number})
	})
	if err != nil && number > 0 {
		// Another close of the same season committed first (the season's
		// update or the next season's insert lost the race): a second
		// confirmation is told the season already ended.
		if c := ErrorCode(err); c == CodeNotFound || c == CodeConflict {
			if again, err2 := s.store.Season(ctx, guildID, number); err2 == nil && !again.Running() {
				next, err2 := s.store.CurrentSeason(ctx, guildID)
				if err2 == nil {
					return SeasonRollover{Ended: again, Started: next, AlreadyDone: true}, nil
				}
			}
		}
	}
	if err != nil {
		return SeasonRollover{}, fmt.Errorf("ladder: end season: %w", err)
	}
	return out, nil
}

// freeze ranks a ladder's listed players page by page.
func freeze(ctx context.Context, tx Tx, g Guild, q Queue, season Season) ([]SeasonResult, error) {
	bq := BoardQuery{Key: Key{QueueID: q.ID, SeasonID: season.ID}, Min: -1e308, Max: 1e308, Limit: 1000}
	var out []SeasonResult
	for {
		rows, err := tx.Board(ctx, bq)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			rank := len(out) + 1
			out = append(out, SeasonResult{SeasonID: season.ID, QueueID: q.ID, UserID: r.UserID, Name: r.Name, Rank: rank,
				Rating: r.Display, RD: r.DisplayDev, Division: g.Division(r.Display), Badge: Badge(rank),
				Wins: r.Wins, Losses: r.Losses, Draws: r.Draws})
		}
		if len(rows) < bq.Limit {
			return out, nil
		}
		last := rows[len(rows)-1]
		bq.HasAfter, bq.AfterDisplay, bq.AfterUser = true, last.Display, last.UserID
	}
}

// SeasonResults returns the frozen final standings of a closed season of a
// queue ("" is the default), best first.
func (s *Service) SeasonResults(ctx context.Context, guildID, queue string, number int) ([]SeasonResult, error) {
	q, err := resolveQueue(ctx, s.store, guildID, queue)
	if err != nil {
		return nil, err
	}
	se, err := s.store.Season(ctx, guildID, number)
	if err != nil {
		return nil, err
	}
	return s.store.SeasonResults(ctx, se.ID, q.ID)
}

// MarkStale flags the players of the guild's current season who have not
// played a rated match for the guild's StaleDays (the daily job, docs/spec.md 4)
// and returns how many it flagged. One rated match clears the flag.
func (s *Service) MarkStale(ctx context.Context, guildID string) (int, error) {
	g, err := s.store.Guild(ctx, guildID)
	if err != nil {
		return 0, err
	}
	cur, err := s.store.CurrentSeason(ctx, guildID)
	if err != nil {
		return 0, err
	}
	cutoff := s.now().Add(-time.Duration(g.StaleDays) * 24 * time.Hour)
	var n int
	err = s.store.InTx(ctx, func(tx Tx) error {
		n, err = tx.MarkStale(ctx, guildID, cur.ID, cutoff)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("ladder: mark stale: %w", err)
	}
	return n, nil
}

// ClaimJob claims one run of a scheduled job for a period (e.g. "2026-01-05"),
// so that it runs once across replicas (docs/spec.md 4); false means another process
// has it. FinishJob records how the run ended.
func (s *Service) ClaimJob(ctx context.Context, job, period string) (bool, error) {
	return s.store.ClaimJob(ctx, job, period, s.now())
}

// FinishJob records the end of a claimed job run; errText is "" on success.
func (s *Service) FinishJob(ctx context.Context, job, period, errText string) error {
	return s.store.FinishJob(ctx, job, period, errText, s.now())
}
