package formats

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// This file is the map of each game of a series after the first. When a
// game is confirmed and the series goes on, the next game's pick starts
// in the same transaction, as a map_picks row of its own:
//
//   - The pool is the one the series' first pick started with, without
//     the maps already played in the series (the whole pool again once
//     every map was played), so a series does not repeat a map.
//   - ban starts over with the maps left; the team that lost the game
//     before bans first.
//   - vote runs again, every player voting.
//   - random draws again, with a seed of its own (recorded with the pick).
//   - loser lets a player of the team that lost the game before pick the
//     map from a menu; when its time runs out the map is drawn by the seed.
//
// The mode is the queue's map_pick when the game before is confirmed; a
// series whose first game had no pick (the queue had no pool) picks none.
// A game cannot be reported while its map is being picked, and the map
// it was played on is stored with the game.

// startNext starts the pick of the game after sr's last confirmed one,
// when the series goes on and its first game had a pick. It answers the
// started pick (Pick.MatchID 0 when none); a pick already there is left
// as it is.
func (s *Service) startNext(ctx context.Context, tx Tx, sr Series, now time.Time) (Result, error) {
	if sr.Winner() != 0 || len(sr.Games) == 0 {
		return Result{}, nil
	}
	last := sr.Games[len(sr.Games)-1]
	if !last.Confirmed() || last.Game >= sr.BestOf {
		return Result{}, nil
	}
	game := last.Game + 1
	first, err := tx.Pick(ctx, sr.Match.ID, 1)
	if ladder.ErrorCode(err) == ladder.CodeNotFound {
		return Result{}, nil
	} else if err != nil {
		return Result{}, err
	}
	if _, err := tx.Pick(ctx, sr.Match.ID, game); err == nil {
		return Result{}, nil
	} else if ladder.ErrorCode(err) != ladder.CodeNotFound {
		return Result{}, err
	}
	st, err := tx.FormatSettings(ctx, sr.Match.QueueID)
	if err != nil || st.MapPick == ModeNone {
		return Result{}, err
	}
	l, err := tx.Lobby(ctx, sr.Match.QueueID)
	if err != nil {
		return Result{}, err
	}
	p := Pick{MatchID: sr.Match.ID, Game: game, GuildID: sr.Match.GuildID, QueueID: sr.Match.QueueID, Mode: st.MapPick,
		State: StatePicking, Pool: nextPool(first.Pool, sr.Games), Banners: first.Banners, Team: 3 - last.Winner,
		Seed: rand.Int64(), CreatedAt: now, Deadline: now.Add(l.PickWindow)}
	if p.Mode == ModeBan && p.Banners == [2]string{} {
		// The first game was not banned (the queue changed its map_pick
		// during the series): each team's captain, else its first player.
		p.Banners = [2]string{sr.Match.Teams[0][0], sr.Match.Teams[1][0]}
		if d, err := tx.Draft(ctx, sr.Match.ID); err == nil {
			p.Banners = [2]string{d.Captain(1), d.Captain(2)}
		} else if ladder.ErrorCode(err) != ladder.CodeNotFound {
			return Result{}, err
		}
	}
	if err := tx.AddPick(ctx, p); err != nil {
		return Result{}, err
	}
	res := Result{Match: sr.Match, Pick: p}
	if p.Mode == ModeRandom || len(p.Pool) == 1 {
		return res, s.choose(ctx, tx, &res, p.Draw(), nil, now)
	}
	return res, audit(ctx, tx, ladder.AuditEntry{GuildID: p.GuildID, ActorID: ladder.System.UserID, Action: "maps.start", MatchID: p.MatchID, At: now},
		nil, map[string]any{"mode": p.Mode, "pool": p.Pool, "banners": p.Banners, "seed": p.Seed, "game": game, "team": p.Team})
}

// nextPool is pool without the maps played in games, or the whole pool
// when that leaves none.
func nextPool(pool []string, games []Game) []string {
	out := slices.DeleteFunc(slices.Clone(pool), func(name string) bool {
		return slices.ContainsFunc(games, func(g Game) bool { return g.Map == name })
	})
	if len(out) == 0 {
		return slices.Clone(pool)
	}
	return out
}

// gameMap is the map game n of match m is played on, for its report: its
// pick's choice, or the match's map for the first game without a pick. A
// game whose pick still runs is refused.
func gameMap(ctx context.Context, tx Tx, m ladder.Match, n int) (string, error) {
	p, err := tx.Pick(ctx, m.ID, n)
	switch {
	case ladder.ErrorCode(err) == ladder.CodeNotFound:
		if n == 1 {
			return m.Map, nil
		}
		return "", nil
	case err != nil:
		return "", err
	case p.State != StateDone:
		return "", ladder.Errorf(ladder.CodeConflict, "the map of game %d of match %d is still being picked: report the game once it is chosen and played", n, m.ID)
	}
	return p.Chosen, nil
}

// PickMap is a player of the team that lost the game before picking
// name as the map of game (map_pick loser). The first pick counts; a
// pick after the deadline gets the map drawn by the seed instead.
func (s *Service) PickMap(ctx context.Context, actor ladder.Actor, guildID string, matchID int64, game int, name string) (Result, error) {
	var res Result
	err := s.store.InFormatTx(ctx, func(tx Tx) error {
		res = Result{}
		m, p, err := lockPick(ctx, tx, guildID, matchID, game)
		if err != nil {
			return err
		}
		res.Match, res.Pick = m, p
		team := m.Team(actor.UserID)
		switch {
		case team == 0:
			return ladder.Errorf(ladder.CodeForbidden, "you are not a player of match %d", m.ID)
		case p.State == StateDone:
			res.AlreadyDone = true
			return nil
		case p.Mode != ModeLoser:
			return ladder.Errorf(ladder.CodeConflict, "match %d's map is picked by %s, not by the team that lost", m.ID, p.Mode)
		case team != p.Team:
			return ladder.Errorf(ladder.CodeForbidden, "team %d lost game %d, so team %d picks the map of game %d", p.Team, game-1, p.Team, game)
		}
		now := s.now()
		if !p.Deadline.After(now) {
			res.TimedOut = true
			return s.choose(ctx, tx, &res, p.Draw(), map[string]any{"timed_out": true}, now)
		}
		if !slices.Contains(p.Pool, name) {
			return ladder.Errorf(ladder.CodeInvalid, "%q is not a map of this pick; choose one from the menu", name)
		}
		return s.choose(ctx, tx, &res, name, map[string]any{"picked_by": actor.UserID}, now)
	})
	if err != nil {
		return Result{}, fmt.Errorf("formats: pick map: %w", err)
	}
	return res, nil
}

// maxDisputeReason bounds a dispute's reason, as the dispute form does.
const maxDisputeReason = 1000

// DisputeGame is a player of the other team disputing the winner
// reported for the game waiting for their confirmation: the game waits
// for a moderator (CorrectGame settles it), the games before it stand,
// and nothing else of the series can be reported until then.
func (s *Service) DisputeGame(ctx context.Context, actor ladder.Actor, guildID string, matchID int64, game int, reason string) (SeriesResult, error) {
	// Trimmed as a match's dispute is: a reason of blanks is none.
	reason, err := ladder.CheckReason(reason)
	if err != nil {
		return SeriesResult{}, err
	}
	if reason == "" || len(reason) > maxDisputeReason {
		return SeriesResult{}, ladder.Errorf(ladder.CodeInvalid, "a dispute needs a reason of at most %d characters", maxDisputeReason)
	}
	var res SeriesResult
	err = s.store.InFormatTx(ctx, func(tx Tx) error {
		res = SeriesResult{}
		m, sr, team, err := playerSeries(ctx, tx, guildID, matchID, actor.UserID)
		if err != nil {
			return err
		}
		res.Series = sr
		p, ok := sr.Pending()
		switch {
		case !ok || p.Game != game:
			if game >= 1 && game < sr.Next() {
				res.AlreadyDone = true // confirmed already: a moderator corrects it
				return nil
			}
			return ladder.Errorf(ladder.CodeConflict, "game %d of match %d waits for no confirmation: only a reported game is disputed", game, m.ID)
		case p.Disputed():
			res.Game, res.AlreadyDone = p, true
			return nil
		case m.Team(p.ReportedBy) == team:
			return ladder.Errorf(ladder.CodeForbidden, "your team reported game %d: report it the other way instead of disputing it", p.Game)
		}
		now := s.now()
		p.DisputedBy, p.DisputeReason, p.DisputedAt = actor.UserID, reason, now
		if err := tx.SetGame(ctx, p); err != nil {
			return err
		}
		res.Game = p
		res.Series.Games[len(res.Series.Games)-1] = p
		return audit(ctx, tx, ladder.AuditEntry{GuildID: m.GuildID, ActorID: actor.UserID, Action: "series.dispute", MatchID: m.ID, Reason: reason, At: now},
			nil, map[string]any{"game": p.Game, "reported_winner": p.Winner, "reported_by": p.ReportedBy, "score": sr.Score()})
	})
	if err != nil {
		return SeriesResult{}, fmt.Errorf("formats: dispute game: %w", err)
	}
	return res, nil
}

// resolveGame is a moderator settling a disputed game: it is confirmed
// for winner (by the moderator), audited, the next game's map pick
// starts, and the series is rated when that decides it.
func (s *Service) resolveGame(ctx context.Context, actor ladder.Actor, guildID string, matchID int64, game, winner int, reason string) (Series, error) {
	var res SeriesResult
	err := s.store.InFormatTx(ctx, func(tx Tx) error {
		res = SeriesResult{}
		m, sr, err := lockSeries(ctx, tx, guildID, matchID)
		if err != nil {
			return err
		}
		res.Series = sr
		p, ok := sr.Pending()
		if !ok || p.Game != game || !p.Disputed() {
			return nil // settled by another call meanwhile
		}
		now := s.now()
		before := p.Winner
		p.Winner, p.ConfirmedBy, p.ConfirmedAt = winner, actor.UserID, now
		if err := tx.SetGame(ctx, p); err != nil {
			return err
		}
		res.Game, res.Confirmed = p, true
		res.Series.Games[len(res.Series.Games)-1] = p
		err = audit(ctx, tx, ladder.AuditEntry{GuildID: m.GuildID, ActorID: actor.UserID, Action: "series.resolve", MatchID: m.ID, Reason: reason, At: now},
			map[string]any{"game": game, "reported_winner": before, "disputed_by": p.DisputedBy, "score": sr.Score()},
			map[string]any{"game": game, "winner": winner, "score": res.Series.Score()})
		if err != nil {
			return err
		}
		return s.next(ctx, tx, &res, now)
	})
	if err != nil {
		return Series{}, fmt.Errorf("formats: resolve game: %w", err)
	}
	res, err = s.settled(ctx, guildID, res)
	return res.Series, err
}

// Disputes lists a guild's disputed series games, oldest first.
func (s *Service) Disputes(ctx context.Context, guildID string, limit int) ([]Game, error) {
	var out []Game
	err := s.store.InFormatTx(ctx, func(tx Tx) error {
		var err error
		out, err = tx.DisputedGames(ctx, guildID, limit)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("formats: disputed games: %w", err)
	}
	return out, nil
}

// MapRecord is a player's games and wins on one map.
type MapRecord struct {
	Map   string
	Games int
	Wins  int
}

// MinMapGames is how many games a player must have played on a map
// before their win rate on it is shown.
const MinMapGames = 5

// MapRecords are a player's records per map in a queue's season, the
// maps with at least MinMapGames games, most played first. A series
// counts each of its games on that game's map; a single game counts on
// the match's map; only rated matches count (a voided series counts
// none of its games). It is one indexed query over the player's matches.
func (s *Service) MapRecords(ctx context.Context, guildID string, queueID, seasonID int64, userID string) ([]MapRecord, error) {
	var out []MapRecord
	err := s.store.InFormatTx(ctx, func(tx Tx) error {
		var err error
		out, err = tx.MapRecords(ctx, guildID, queueID, seasonID, userID, MinMapGames)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("formats: map records of %s: %w", userID, err)
	}
	return out, nil
}
