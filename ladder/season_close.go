package ladder

import (
	"context"
	"fmt"
	"strconv"
	"time"
)

// SchedulerActor is the actor ID the scheduled jobs act and audit as.
const SchedulerActor = "scheduler"

// SeasonStandings is one queue's frozen final table of a closed season,
// what the season post shows (docs/spec.md 4, 6).
type SeasonStandings struct {
	GuildID string
	Season  Season
	Queue   Queue
	// Results are the listed players, best first.
	Results []SeasonResult
}

// CloseSeasonDue closes the guild's running season on the schedule's
// behalf when it started before due (the scheduled time it should end at),
// then opens the next one with the soft reset of docs/spec.md 4 (see EndSeason).
// A season that started at or after due is not due: that is how a close
// that already happened, here or in another process, answers AlreadyDone,
// so running it twice for one due time closes one season only. A close
// caught up late (the process was down at due) freezes the standings as
// they are when it runs.
func (s *Service) CloseSeasonDue(ctx context.Context, guildID string, due time.Time) (SeasonRollover, error) {
	cur, err := s.store.CurrentSeason(ctx, guildID)
	if err != nil {
		return SeasonRollover{}, fmt.Errorf("ladder: close season: %w", err)
	}
	if !cur.Running() || !cur.StartedAt.Before(due) {
		return SeasonRollover{Started: cur, AlreadyDone: true}, nil
	}
	out, err := s.EndSeason(ctx, Actor{UserID: SchedulerActor, Moderator: true}, guildID, cur.Number)
	if err == nil {
		// The season boundary is when a self-tuning queue may adopt new
		// constants. A failed round leaves the season closed.
		if _, err := s.selfTuneQueues(ctx, guildID); err != nil {
			return out, fmt.Errorf("ladder: close season: self-tune: %w", err)
		}
		return out, nil
	}
	// A moderator (or another process without the claim) ended it first:
	// its update or the next season's insert lost the race.
	if c := ErrorCode(err); c == CodeNotFound || c == CodeConflict {
		if again, err2 := s.store.Season(ctx, guildID, cur.Number); err2 == nil && !again.Running() {
			next, _ := s.store.CurrentSeason(ctx, guildID)
			return SeasonRollover{Ended: again, Started: next, AlreadyDone: true}, nil
		}
	}
	return SeasonRollover{}, err
}

// SeasonStandingsOf returns the frozen final tables of every queue of the
// guild's closed season number, for the season post and for browsing past
// seasons. A running season answers CodeInvalid: it has no final table yet.
func (s *Service) SeasonStandingsOf(ctx context.Context, guildID string, number int) ([]SeasonStandings, error) {
	se, err := s.store.Season(ctx, guildID, number)
	if err != nil {
		return nil, fmt.Errorf("ladder: season standings: %w", err)
	}
	if se.Running() {
		return nil, Errorf(CodeInvalid, "season %d is still running", number)
	}
	qs, err := s.store.Queues(ctx, guildID)
	if err != nil {
		return nil, fmt.Errorf("ladder: season standings: %w", err)
	}
	out := make([]SeasonStandings, 0, len(qs))
	for _, q := range qs {
		rs, err := s.store.SeasonResults(ctx, se.ID, q.ID)
		if err != nil {
			return nil, fmt.Errorf("ladder: season standings: %w", err)
		}
		out = append(out, SeasonStandings{GuildID: guildID, Season: se, Queue: q, Results: rs})
	}
	return out, nil
}

// AllGuilds returns every guild with its settings, for the scheduled jobs
// that visit each guild (stale flags, season schedules).
func (s *Service) AllGuilds(ctx context.Context) ([]Guild, error) {
	gs, err := s.store.Guilds(ctx)
	if err != nil {
		return nil, fmt.Errorf("ladder: guilds: %w", err)
	}
	return gs, nil
}

// LatestSeason returns the guild's newest season: the running one, or the
// last closed one in the moment between a close and the next opening.
func (s *Service) LatestSeason(ctx context.Context, guildID string) (Season, error) {
	se, err := s.store.CurrentSeason(ctx, guildID)
	if err != nil {
		return Season{}, fmt.Errorf("ladder: latest season: %w", err)
	}
	return se, nil
}

// SeasonEndedBy returns the actor ID that ended the guild's season number
// (SchedulerActor for a scheduled close), read from the audit log's recent
// entries; CodeNotFound when none of them ended it. The season job posts
// the standings of its own closes only: a moderator's /mod season end
// posts them itself.
func (s *Service) SeasonEndedBy(ctx context.Context, guildID string, number int) (string, error) {
	es, err := s.store.Audit(ctx, guildID, 1000)
	if err != nil {
		return "", fmt.Errorf("ladder: season ended by: %w", err)
	}
	target := strconv.Itoa(number)
	for _, e := range es {
		if e.Action == "season.end" && e.Target == target {
			return e.ActorID, nil
		}
	}
	return "", Errorf(CodeNotFound, "no record of who ended season %d", number)
}
