package ladder

import (
	"context"
	"fmt"
	"strconv"

	"github.com/ladderbot/ladderbot/ladder/rating"
)

// This file is the ladder's side of best-of series (package formats runs
// the games): a series is rated through the same rated write as any
// match, either once when its games decide it, or game by game, each
// game before the last as a confirmed match of its own.

// SeriesStore reads what the ladder shows of a series' games (package
// formats keeps them).
type SeriesStore interface {
	// SeriesMaps answers the maps of each listed match's series games,
	// in game order; a match without series games, or whose games have
	// no maps, is left out.
	SeriesMaps(ctx context.Context, matchIDs []int64) (map[int64][]string, error)
}

// withSeriesMaps sets m.Maps from its series' games, for the events and
// exports that carry each game's map.
func withSeriesMaps(ctx context.Context, tx Tx, m *Match) error {
	ms, err := tx.SeriesMaps(ctx, []int64{m.ID})
	if err != nil {
		return err
	}
	m.Maps = ms[m.ID]
	return nil
}

// seriesMaps reads the games' maps of the series among ms (those with a
// score), a bounded batch at a time.
func (s *Service) seriesMaps(ctx context.Context, ms []Match) (map[int64][]string, error) {
	out := map[int64][]string{}
	var ids []int64
	flush := func() error {
		if len(ids) == 0 {
			return nil
		}
		got, err := s.store.SeriesMaps(ctx, ids)
		for id, maps := range got {
			out[id] = maps
		}
		ids = ids[:0]
		return err
	}
	for _, m := range ms {
		if m.Score == "" {
			continue
		}
		if ids = append(ids, m.ID); len(ids) == 500 {
			if err := flush(); err != nil {
				return nil, err
			}
		}
	}
	return out, flush()
}

// SeriesScore renders a series' score, team 1's wins first: "2-1".
func SeriesScore(wins1, wins2 int) string { return strconv.Itoa(wins1) + "-" + strconv.Itoa(wins2) }

// seriesGameKey is the idempotency key of a series game rated on its own,
// so a retry (another process, a repeated settle) rates it once.
func seriesGameKey(matchID int64, game int) string {
	return fmt.Sprintf("series:%d:%d", matchID, game)
}

// RateSeriesGame rates game number game of series match matchID (still
// open) as a confirmed match of its own between the series' teams, with
// the game's winner and map (a queue rating each game, series_rating
// games). Rating it again answers the first result with AlreadyDone.
func (s *Service) RateSeriesGame(ctx context.Context, guildID string, matchID int64, game, winner int, mapName string) (MatchResult, error) {
	if winner != 1 && winner != 2 {
		return MatchResult{}, Errorf(CodeInvalid, "a series game is won by team 1 or 2, not %d", winner)
	}
	key := seriesGameKey(matchID, game)
	var res MatchResult
	saved, err := s.store.InRatedTx(ctx, func(tx Tx) (*RatedWrite, error) {
		res = MatchResult{}
		parent, err := lockGuildMatch(ctx, tx, guildID, matchID)
		if err != nil {
			return nil, err
		}
		done, err := idempotent(ctx, tx, guildID, key)
		if err != nil || done.AlreadyDone {
			res = done
			return nil, err
		}
		if !parent.State.Active() {
			return nil, Errorf(CodeConflict, "match %d is %s; its games are no longer rated one by one", parent.ID, parent.State)
		}
		l, err := tx.LadderOf(ctx, parent.QueueID, parent.SeasonID)
		if err != nil {
			return nil, err
		}
		now := s.now()
		m := Match{GuildID: parent.GuildID, QueueID: parent.QueueID, SeasonID: parent.SeasonID, Teams: parent.Teams,
			State: StateConfirmed, Winner: winner, CreatedAt: now, PlayedAt: now, Source: "series", ReportedWinner: NoResult,
			Map: mapName, ChannelID: parent.ChannelID, Score: SeriesScore(b2i(winner == 1), b2i(winner == 2))}
		var w *RatedWrite
		res, w, err = s.rate(ctx, tx, l, nil, m, key)
		return w, err
	})
	if err != nil {
		return MatchResult{}, fmt.Errorf("ladder: rate series game: %w", err)
	}
	if saved.ID != 0 {
		res.Match = saved
	}
	return res, nil
}

// FinishSeries rates series match matchID with the winner and score its
// games gave (or a moderator decided): the series' one rated result, or,
// for a queue rating each game, its last game. A match already rated
// answers AlreadyDone.
func (s *Service) FinishSeries(ctx context.Context, guildID string, matchID int64, winner int, score, mapName string) (MatchResult, error) {
	if _, _, ok := rating.ParseSeriesScore(score); !ok || (winner != 1 && winner != 2) {
		return MatchResult{}, Errorf(CodeInvalid, "a series ends with team 1 or 2 winning and a score like 2-1, not %d and %q", winner, score)
	}
	var (
		l    Ladder
		rows []Rating
	)
	var res MatchResult
	saved, err := s.store.InRatedTx(ctx, func(tx Tx) (*RatedWrite, error) {
		res = MatchResult{}
		m, lad, rs, err := tx.LockMatchLadder(ctx, matchID)
		if err == nil && m.GuildID != guildID {
			err = Errorf(CodeNotFound, "match %d not found", matchID)
		}
		if err != nil {
			return nil, err
		}
		l, rows = lad, rs
		switch {
		case m.State.Rated():
			res = MatchResult{Match: m, AlreadyDone: true}
			return nil, nil
		case !m.State.Active():
			return nil, Errorf(CodeConflict, "match %d is %s", m.ID, m.State)
		}
		if err := refuseUntilStarted(ctx, tx, m); err != nil {
			return nil, err
		}
		m.State, m.Winner, m.Score = StateConfirmed, winner, score
		if mapName != "" {
			m.Map = mapName
		}
		if err := withSeriesMaps(ctx, tx, &m); err != nil {
			return nil, err
		}
		if m.PlayedAt.IsZero() {
			m.PlayedAt = s.now()
		}
		var w *RatedWrite
		res, w, err = s.rate(ctx, tx, l, rows, m, "")
		return w, err
	})
	if err != nil {
		return MatchResult{}, fmt.Errorf("ladder: finish series: %w", err)
	}
	if saved.ID != 0 {
		res.Match = saved
	}
	return res, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// CorrectSeries is Correct for a series: the moderator's new winner, and
// the score the corrected games give, in one transaction with the replay.
// For a queue rating each game the series' row is its last game, whose
// winner need not lead the corrected score.
func (s *Service) CorrectSeries(ctx context.Context, actor Actor, guildID string, matchID int64, winner int, score, reason string) (Correction, error) {
	if !actor.Moderator {
		return Correction{}, Errorf(CodeForbidden, "only moderators can do that")
	}
	if _, _, ok := rating.ParseSeriesScore(score); !ok || (winner != 1 && winner != 2) {
		return Correction{}, Errorf(CodeInvalid, "a series ends with team 1 or 2 winning and a score like 2-1, not %d and %q", winner, score)
	}
	reason, err := CheckReason(reason)
	if err != nil {
		return Correction{}, err
	}
	var res Correction
	err = s.store.InTx(ctx, func(tx Tx) error {
		m, err := lockGuildMatch(ctx, tx, guildID, matchID)
		if err != nil {
			return err
		}
		if !m.State.Rated() {
			return Errorf(CodeConflict, "match %d is %s: only a rated series is corrected", m.ID, m.State)
		}
		scored := m.Score != score
		if scored {
			before := m.Score
			m.Score = score
			if err := tx.UpdateMatch(ctx, m); err != nil {
				return err
			}
			err := audit(ctx, tx, AuditEntry{GuildID: guildID, ActorID: actor.UserID, Action: "match.score", MatchID: m.ID, Reason: reason, At: s.now()},
				map[string]any{"score": before}, map[string]any{"score": score})
			if err != nil {
				return err
			}
		}
		res, err = s.moderateTx(ctx, tx, actor, guildID, matchID, winner, reason, "match.correct", nil)
		res.AlreadyDone = res.AlreadyDone && !scored
		return err
	})
	if err != nil {
		return Correction{}, fmt.Errorf("ladder: correct series: %w", err)
	}
	return res, nil
}
