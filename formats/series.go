package formats

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// Game is one reported game of a best-of series.
type Game struct {
	MatchID int64
	Game    int
	GuildID string
	// BestOf and Rating are the queue's settings when the series' first
	// game was reported: a series keeps them to its end.
	BestOf int
	Rating Rating
	// Winner is the team that won the game, as reported.
	Winner     int
	ReportedBy string
	ReportedAt time.Time
	// ConfirmedBy is the player of the other team who confirmed; "" while
	// the game waits for them.
	ConfirmedBy string
	ConfirmedAt time.Time
	// RatedMatch is the match row that rated the game (series_rating
	// games): its own for a game before the last, the series' for the
	// last; 0 before it is rated.
	RatedMatch int64
	// Replay is the Showdown replay that proved the game, "" when the
	// teams reported and confirmed it.
	Replay string
	// Map is the map the game was played on ("" without a pick).
	Map string
	// DisputedBy is the player of the other team who disputed the
	// reported winner, with why and when; the game then waits for a
	// moderator (ConfirmedBy is the moderator once settled).
	DisputedBy    string
	DisputeReason string
	DisputedAt    time.Time
}

// Disputed reports whether the game waits for a moderator.
func (g Game) Disputed() bool { return g.DisputedBy != "" && !g.Confirmed() }

// Confirmed reports whether the other team confirmed the game.
func (g Game) Confirmed() bool { return g.ConfirmedBy != "" }

// Series is a match played as a series and its games so far.
type Series struct {
	Match  ladder.Match
	BestOf int
	Rating Rating
	Games  []Game
	// NextPick is the map pick of the game to report next, when it has
	// one (NextPick.MatchID 0 when not).
	NextPick Pick
}

// NextMap is the map of the game to report next, once chosen.
func (s Series) NextMap() string {
	if s.NextPick.MatchID != 0 && s.NextPick.Game == s.Next() && s.NextPick.State == StateDone {
		return s.NextPick.Chosen
	}
	return ""
}

// Wins are the confirmed games each team won.
func (s Series) Wins() [2]int {
	var w [2]int
	for _, g := range s.Games {
		if g.Confirmed() {
			w[g.Winner-1]++
		}
	}
	return w
}

// Score is the series' score, team 1's wins first: "1-1".
func (s Series) Score() string {
	w := s.Wins()
	return ladder.SeriesScore(w[0], w[1])
}

// Winner is the team with the majority of BestOf, 0 while none has it.
func (s Series) Winner() int {
	w := s.Wins()
	for t := range 2 {
		if w[t] > s.BestOf/2 {
			return t + 1
		}
	}
	return 0
}

// lastConfirmed is the index of the last confirmed game, -1 when none
// is. Once a team has the majority it is the deciding game: a queue
// rating each game rates it as the series' row. A game reported after it
// (a correction decided the series while it waited) is never rated.
func (s Series) lastConfirmed() int {
	for i := len(s.Games) - 1; i >= 0; i-- {
		if s.Games[i].Confirmed() {
			return i
		}
	}
	return -1
}

// Pending is the last game when it waits for confirmation.
func (s Series) Pending() (Game, bool) {
	if n := len(s.Games); n > 0 && !s.Games[n-1].Confirmed() {
		return s.Games[n-1], true
	}
	return Game{}, false
}

// Next is the number of the game to report next (or the pending one).
func (s Series) Next() int {
	if g, ok := s.Pending(); ok {
		return g.Game
	}
	return len(s.Games) + 1
}

// SeriesResult answers a game's report or confirmation.
type SeriesResult struct {
	Series Series
	// Game is the game reported or confirmed.
	Game Game
	// Confirmed says this call confirmed the game.
	Confirmed bool
	// Rated is the rated result that ended the series, once it ended
	// (State rated); zero before.
	Rated ladder.MatchResult
	// AlreadyDone says the call changed nothing.
	AlreadyDone bool
	// Next is the map pick of the next game this call started, to show
	// (Next.Pick.MatchID 0 when none).
	Next Result
}

// IsSeries reports whether a queue's matches are series, and reads the
// series of match m (its settings fixed at the first game).
func (s *Service) Series(ctx context.Context, m ladder.Match) (Series, bool, error) {
	var out Series
	var ok bool
	err := s.store.InFormatTx(ctx, func(tx Tx) error {
		var err error
		out, ok, err = readSeries(ctx, tx, m)
		return err
	})
	if err != nil {
		return Series{}, false, fmt.Errorf("formats: series of match %d: %w", m.ID, err)
	}
	return out, ok, nil
}

// readSeries reads match m's series in tx: its games and, before the
// first, the queue's settings. ok is false for a single-game match.
func readSeries(ctx context.Context, tx Tx, m ladder.Match) (Series, bool, error) {
	gs, err := tx.SeriesGames(ctx, m.ID)
	if err != nil {
		return Series{}, false, err
	}
	sr := Series{Match: m, Games: gs}
	if len(gs) > 0 {
		sr.BestOf, sr.Rating = gs[0].BestOf, gs[0].Rating
	} else {
		st, err := tx.FormatSettings(ctx, m.QueueID)
		if err != nil || st.BestOf == 1 {
			return Series{}, false, err
		}
		sr.BestOf, sr.Rating = st.BestOf, st.SeriesRating
	}
	if sr.Winner() == 0 {
		if p, err := tx.Pick(ctx, m.ID, sr.Next()); err == nil {
			sr.NextPick = p
		} else if ladder.ErrorCode(err) != ladder.CodeNotFound {
			return Series{}, false, err
		}
	}
	return sr, true, nil
}

// ReportGame records a player's report that their team won (or lost)
// game number game of their series. The other team's matching report
// confirms it; a team may change its own report until then. Once a team
// has the majority the series is rated (Rated).
func (s *Service) ReportGame(ctx context.Context, actor ladder.Actor, guildID string, matchID int64, game int, won bool) (SeriesResult, error) {
	var res SeriesResult
	err := s.store.InFormatTx(ctx, func(tx Tx) error {
		res = SeriesResult{}
		m, sr, team, err := playerSeries(ctx, tx, guildID, matchID, actor.UserID)
		if err != nil {
			return err
		}
		res.Series = sr
		winner := team
		if !won {
			winner = 3 - team
		}
		now := s.now()
		if p, ok := sr.Pending(); ok {
			switch {
			case p.Disputed() && game == p.Game:
				return ladder.Errorf(ladder.CodeConflict, "game %d of match %d is disputed: a moderator settles it with /mod series game", p.Game, m.ID)
			case game != p.Game:
				res.AlreadyDone = game < p.Game
				if !res.AlreadyDone {
					return ladder.Errorf(ladder.CodeConflict, "game %d of match %d waits for the other team's confirmation first", p.Game, m.ID)
				}
				return nil
			case m.Team(p.ReportedBy) == team && p.Winner == winner:
				res.Game, res.AlreadyDone = p, true
				return nil
			case m.Team(p.ReportedBy) == team:
				p.Winner, p.ReportedBy = winner, actor.UserID
				res.Game = p
				return tx.SetGame(ctx, p)
			case p.Winner != winner:
				return ladder.Errorf(ladder.CodeConflict, "<@%s> reported that team %d won game %d: confirm it, or dispute the game and a moderator settles it", p.ReportedBy, p.Winner, p.Game)
			}
			return s.confirmGame(ctx, tx, &res, p, actor, now)
		}
		switch {
		case sr.Winner() != 0 || game < sr.Next():
			res.AlreadyDone = true
			return nil
		case game > sr.Next():
			return ladder.Errorf(ladder.CodeInvalid, "report game %d of match %d first", sr.Next(), m.ID)
		}
		mapName, err := gameMap(ctx, tx, m, game)
		if err != nil {
			return err
		}
		g := Game{MatchID: m.ID, Game: game, GuildID: m.GuildID, BestOf: sr.BestOf, Rating: sr.Rating, Winner: winner,
			ReportedBy: actor.UserID, ReportedAt: now, Map: mapName}
		if err := tx.AddGame(ctx, g); err != nil {
			return err
		}
		res.Game = g
		res.Series.Games = append(res.Series.Games, g)
		return nil
	})
	if err != nil {
		return SeriesResult{}, fmt.Errorf("formats: report game: %w", err)
	}
	return s.settled(ctx, guildID, res)
}

// ConfirmGame records the other team's confirmation of the pending game.
func (s *Service) ConfirmGame(ctx context.Context, actor ladder.Actor, guildID string, matchID int64, game int) (SeriesResult, error) {
	var res SeriesResult
	err := s.store.InFormatTx(ctx, func(tx Tx) error {
		res = SeriesResult{}
		m, sr, team, err := playerSeries(ctx, tx, guildID, matchID, actor.UserID)
		if err != nil {
			return err
		}
		res.Series = sr
		p, ok := sr.Pending()
		if !ok || p.Game != game {
			res.AlreadyDone = true
			return nil
		}
		if m.Team(p.ReportedBy) == team {
			return ladder.Errorf(ladder.CodeForbidden, "the other team must confirm game %d", p.Game)
		}
		if p.Disputed() {
			return ladder.Errorf(ladder.CodeConflict, "game %d of match %d is disputed: a moderator settles it with /mod series game", p.Game, m.ID)
		}
		return s.confirmGame(ctx, tx, &res, p, actor, s.now())
	})
	if err != nil {
		return SeriesResult{}, fmt.Errorf("formats: confirm game: %w", err)
	}
	return s.settled(ctx, guildID, res)
}

// confirmGame confirms pending game p for actor, audited.
func (s *Service) confirmGame(ctx context.Context, tx Tx, res *SeriesResult, p Game, actor ladder.Actor, now time.Time) error {
	p.ConfirmedBy, p.ConfirmedAt = actor.UserID, now
	if err := tx.SetGame(ctx, p); err != nil {
		return err
	}
	res.Game, res.Confirmed = p, true
	res.Series.Games[len(res.Series.Games)-1] = p
	err := audit(ctx, tx, ladder.AuditEntry{GuildID: p.GuildID, ActorID: actor.UserID, Action: "series.game", MatchID: p.MatchID, At: now},
		nil, map[string]any{"game": p.Game, "winner": p.Winner, "reported_by": p.ReportedBy, "score": res.Series.Score(), "map": p.Map})
	if err != nil {
		return err
	}
	return s.next(ctx, tx, res, now)
}

// next starts the next game's map pick after a confirmation in res.
func (s *Service) next(ctx context.Context, tx Tx, res *SeriesResult, now time.Time) error {
	next, err := s.startNext(ctx, tx, res.Series, now)
	if err != nil {
		return err
	}
	res.Next = next
	if next.Pick.MatchID != 0 {
		res.Series.NextPick = next.Pick
	}
	return nil
}

// lockSeries locks a guild's open series match and reads its series.
// playerSeries is lockSeries for a player's action: it refuses a user
// who is not a player of the match and returns their team.
func playerSeries(ctx context.Context, tx Tx, guildID string, matchID int64, userID string) (ladder.Match, Series, int, error) {
	m, sr, err := lockSeries(ctx, tx, guildID, matchID)
	if err != nil {
		return ladder.Match{}, Series{}, 0, err
	}
	team := m.Team(userID)
	if team == 0 {
		return ladder.Match{}, Series{}, 0, ladder.Errorf(ladder.CodeForbidden, "you are not a player of match %d", m.ID)
	}
	return m, sr, team, nil
}

func lockSeries(ctx context.Context, tx Tx, guildID string, matchID int64) (ladder.Match, Series, error) {
	m, err := tx.LockMatch(ctx, matchID)
	if err == nil && m.GuildID != guildID {
		err = ladder.Errorf(ladder.CodeNotFound, "match %d not found", matchID)
	}
	if err != nil {
		return ladder.Match{}, Series{}, err
	}
	sr, ok, err := readSeries(ctx, tx, m)
	switch {
	case err != nil:
		return ladder.Match{}, Series{}, err
	case !ok:
		return ladder.Match{}, Series{}, ladder.Errorf(ladder.CodeConflict, "match %d is a single game: report it with /report", m.ID)
	case m.State != ladder.StateOpen:
		return ladder.Match{}, Series{}, ladder.Errorf(ladder.CodeConflict, "match %d is %s", m.ID, m.State)
	}
	if rc, err := tx.ReadyCheck(ctx, m.ID); err == nil && rc.State != ladder.ReadyPassed {
		return ladder.Match{}, Series{}, ladder.Errorf(ladder.CodeConflict, "match %d has not started: everyone must click Ready first", m.ID)
	}
	if d, err := tx.Draft(ctx, m.ID); err == nil && d.State != ladder.DraftDone {
		return ladder.Match{}, Series{}, ladder.Errorf(ladder.CodeConflict, "match %d has not started: the captains are still picking the teams", m.ID)
	}
	return m, sr, nil
}

// settled runs Settle after a report or confirmation and folds what it
// rated into res.
func (s *Service) settled(ctx context.Context, guildID string, res SeriesResult) (SeriesResult, error) {
	if res.AlreadyDone || !res.Confirmed {
		return res, nil
	}
	sr, rated, err := s.Settle(ctx, guildID, res.Series.Match.ID)
	if err != nil {
		return res, err
	}
	res.Series, res.Rated = sr, rated
	return res, nil
}

// Settle rates what a series' confirmed games call for, in order: for a
// queue rating each game, every confirmed game before the deciding one as
// a match of its own; once a team has the majority, the series itself
// (its one result, or its last game). Every step is idempotent — the
// ladder keys each game's result and rates a match once — so a settle
// interrupted by a crash is finished by the next report or by the job.
func (s *Service) Settle(ctx context.Context, guildID string, matchID int64) (Series, ladder.MatchResult, error) {
	for {
		var sr Series
		err := s.store.InFormatTx(ctx, func(tx Tx) error {
			m, err := tx.LockMatch(ctx, matchID)
			if err != nil {
				return err
			}
			var ok bool
			sr, ok, err = readSeries(ctx, tx, m)
			if err == nil && !ok {
				err = ladder.Errorf(ladder.CodeConflict, "match %d is a single game", matchID)
			}
			return err
		})
		if err != nil {
			return Series{}, ladder.MatchResult{}, fmt.Errorf("formats: settle series %d: %w", matchID, err)
		}
		winner := sr.Winner()
		if !sr.Match.State.Active() {
			return sr, ladder.MatchResult{Match: sr.Match}, nil
		}
		deciding := -1
		if winner != 0 {
			deciding = sr.lastConfirmed()
		}
		if d := deciding; sr.Rating == RateGames && d >= 0 && sr.Games[d].RatedMatch != 0 && sr.Games[d].RatedMatch != matchID {
			// A moderator's correction of another game made this one,
			// rated on its own already, the deciding game: the series'
			// row rates it now, so its own result is voided (once: a
			// retry finds it voided).
			reason := fmt.Sprintf("game %d decides series %d after a correction: the series' result rates it", sr.Games[d].Game, matchID)
			if _, err := s.lad.Void(ctx, ladder.System, guildID, sr.Games[d].RatedMatch, reason); err != nil {
				return sr, ladder.MatchResult{}, err
			}
			sr.Games[d].RatedMatch = 0
			if err := s.setGame(ctx, sr.Games[d]); err != nil {
				return sr, ladder.MatchResult{}, err
			}
			continue
		}
		var next *Game
		for i, g := range sr.Games {
			if g.Confirmed() && g.RatedMatch == 0 && i != deciding {
				next = &sr.Games[i]
				break
			}
		}
		if sr.Rating == RateGames && next != nil {
			r, err := s.lad.RateSeriesGame(ctx, guildID, matchID, next.Game, next.Winner, cmp.Or(next.Map, sr.Match.Map))
			if err != nil {
				return sr, ladder.MatchResult{}, err
			}
			next.RatedMatch = r.Match.ID
			if err := s.setGame(ctx, *next); err != nil {
				return sr, ladder.MatchResult{}, err
			}
			continue
		}
		if winner == 0 {
			return sr, ladder.MatchResult{}, nil
		}
		// A queue rating each game rates the deciding game as the
		// series' row: its winner is that game's (the series' winner but
		// after a correction of an earlier game).
		rowWinner := winner
		if sr.Rating == RateGames {
			rowWinner = sr.Games[deciding].Winner
		}
		r, err := s.lad.FinishSeries(ctx, guildID, matchID, rowWinner, sr.Score(), "")
		if err != nil {
			return sr, ladder.MatchResult{}, err
		}
		sr.Match = r.Match
		if sr.Rating == RateGames {
			last := sr.Games[deciding]
			last.RatedMatch = matchID
			if err := s.setGame(ctx, last); err != nil {
				return sr, r, err
			}
			sr.Games[deciding] = last
		}
		return sr, r, nil
	}
}

func (s *Service) setGame(ctx context.Context, g Game) error {
	return s.store.InFormatTx(ctx, func(tx Tx) error { return tx.SetGame(ctx, g) })
}

// EndSeries is a moderator ending a series early for the team that leads
// it: rated as the series' one result with the score so far. A queue
// rating each game keeps the games rated so far; its series ends with
// /match cancel or a moderator's void instead.
func (s *Service) EndSeries(ctx context.Context, actor ladder.Actor, guildID string, matchID int64) (Series, ladder.MatchResult, error) {
	if !actor.Moderator {
		return Series{}, ladder.MatchResult{}, ladder.Errorf(ladder.CodeForbidden, "only moderators end a series early")
	}
	var sr Series
	err := s.store.InFormatTx(ctx, func(tx Tx) error {
		var err error
		_, sr, err = lockSeries(ctx, tx, guildID, matchID)
		return err
	})
	if err != nil {
		return Series{}, ladder.MatchResult{}, fmt.Errorf("formats: end series: %w", err)
	}
	w := sr.Wins()
	switch {
	case sr.Rating == RateGames:
		return sr, ladder.MatchResult{}, ladder.Errorf(ladder.CodeConflict, "match %d rates each game: the games rated so far stand; void or cancel the match to end it", matchID)
	case w[0] == w[1]:
		return sr, ladder.MatchResult{}, ladder.Errorf(ladder.CodeConflict, "nobody leads match %d (%s): a moderator resolves or voids it instead", matchID, sr.Score())
	}
	winner := 1
	if w[1] > w[0] {
		winner = 2
	}
	r, err := s.lad.FinishSeries(ctx, guildID, matchID, winner, sr.Score(), "")
	if err != nil {
		return sr, ladder.MatchResult{}, err
	}
	sr.Match = r.Match
	err = s.store.InFormatTx(ctx, func(tx Tx) error {
		return audit(ctx, tx, ladder.AuditEntry{GuildID: guildID, ActorID: actor.UserID, Action: "series.end", MatchID: matchID, At: s.now()},
			nil, map[string]any{"winner": winner, "score": sr.Score()})
	})
	return sr, r, err
}

// CorrectGame is a moderator's correction of game number game of a
// series, also of a finished one: the game's winner changes, and so does
// what rated it — the game's own result (series_rating games), or the
// series' result with the corrected score, whose winner is the team with
// the majority of the corrected games. A correction that leaves no team
// with a majority is refused (void the match instead). The rated result
// is corrected first, through the ladder's correction and replay, then the
// game's row: a retry after a crash in between finds the result corrected
// already and finishes the row.
func (s *Service) CorrectGame(ctx context.Context, actor ladder.Actor, guildID string, matchID int64, game, winner int, reason string) (Series, error) {
	if !actor.Moderator {
		return Series{}, ladder.Errorf(ladder.CodeForbidden, "only moderators correct a game")
	}
	if winner != 1 && winner != 2 {
		return Series{}, ladder.Errorf(ladder.CodeInvalid, "a game is won by team 1 or 2, not %d", winner)
	}
	reason, err := ladder.CheckReason(reason)
	if err != nil {
		return Series{}, err
	}
	var sr Series
	err = s.store.InFormatTx(ctx, func(tx Tx) error {
		m, err := tx.LockMatch(ctx, matchID)
		if err == nil && m.GuildID != guildID {
			err = ladder.Errorf(ladder.CodeNotFound, "match %d not found", matchID)
		}
		if err != nil {
			return err
		}
		var ok bool
		if sr, ok, err = readSeries(ctx, tx, m); err == nil && !ok {
			err = ladder.Errorf(ladder.CodeConflict, "match %d is a single game: correct it with /mod correct", matchID)
		}
		return err
	})
	if err != nil {
		return Series{}, fmt.Errorf("formats: correct game: %w", err)
	}
	i := game - 1
	if i >= 0 && i < len(sr.Games) && sr.Games[i].Disputed() {
		return s.resolveGame(ctx, actor, guildID, matchID, game, winner, reason)
	}
	if i < 0 || i >= len(sr.Games) || !sr.Games[i].Confirmed() {
		return sr, ladder.Errorf(ladder.CodeNotFound, "match %d has no confirmed game %d", matchID, game)
	}
	g := sr.Games[i]
	if g.Winner == winner && (!sr.Match.State.Rated() || sr.Match.Score == sr.Score()) {
		return sr, nil
	}
	fixed := sr
	fixed.Games = append([]Game(nil), sr.Games...)
	fixed.Games[i].Winner = winner
	if sr.Match.State.Rated() {
		if err := s.correctRated(ctx, actor, guildID, sr, fixed, i, reason); err != nil {
			return sr, err
		}
	} else if sr.Rating == RateGames && g.RatedMatch != 0 {
		if err := s.correctOwn(ctx, actor, guildID, g.RatedMatch, winner, reason); err != nil {
			return sr, err
		}
	}
	g.Winner = winner
	err = s.store.InFormatTx(ctx, func(tx Tx) error {
		if _, err := tx.LockMatch(ctx, matchID); err != nil {
			return err
		}
		if err := tx.SetGame(ctx, g); err != nil {
			return err
		}
		if !sr.Match.State.Rated() && i == fixed.lastConfirmed() {
			if err := moveLosersPick(ctx, tx, matchID, game+1, 3-winner); err != nil {
				return err
			}
		}
		return audit(ctx, tx, ladder.AuditEntry{GuildID: guildID, ActorID: actor.UserID, Action: "series.correct", MatchID: matchID, Reason: reason, At: s.now()},
			map[string]any{"game": game, "winner": sr.Games[i].Winner, "score": sr.Score()}, map[string]any{"game": game, "winner": winner, "score": fixed.Score()})
	})
	if err != nil {
		return sr, fmt.Errorf("formats: correct game: %w", err)
	}
	fixed.Games[i] = g
	if !sr.Match.State.Rated() {
		// An unfinished series may be decided by the correction.
		fixed, _, err = s.Settle(ctx, guildID, matchID)
		return fixed, err
	}
	m, err := s.lad.MatchDetail(ctx, guildID, matchID)
	fixed.Match = m.Match
	return fixed, err
}

// correctRated corrects the rated results of a finished series whose
// game i changes as fixed says.
func (s *Service) correctRated(ctx context.Context, actor ladder.Actor, guildID string, sr, fixed Series, i int, reason string) error {
	g := fixed.Games[i]
	if sr.Rating == RateSeries {
		w := fixed.Winner()
		if w == 0 {
			return ladder.Errorf(ladder.CodeConflict, "that leaves match %d at %s with no winner: void the match instead", sr.Match.ID, fixed.Score())
		}
		_, err := s.lad.CorrectSeries(ctx, actor, guildID, sr.Match.ID, w, fixed.Score(), reason)
		return err
	}
	// Each game rated: the game's own result, and the series' row for its
	// score (its winner is its last game's).
	if g.RatedMatch != 0 && g.RatedMatch != sr.Match.ID {
		if err := s.correctOwn(ctx, actor, guildID, g.RatedMatch, g.Winner, reason); err != nil {
			return err
		}
	}
	last := fixed.Games[fixed.lastConfirmed()]
	_, err := s.lad.CorrectSeries(ctx, actor, guildID, sr.Match.ID, last.Winner, fixed.Score(), reason)
	return err
}

// moveLosersPick gives the running pick of game n to team, the team that
// lost the game before once a correction changed its winner: it picks the
// map (loser) or bans first (ban, while no ban is made). A pick already
// over, or with bans made, stays as it is.
func moveLosersPick(ctx context.Context, tx Tx, matchID int64, n, team int) error {
	p, err := tx.Pick(ctx, matchID, n)
	switch {
	case ladder.ErrorCode(err) == ladder.CodeNotFound:
		return nil
	case err != nil:
		return err
	case p.State != StatePicking || len(p.Bans) > 0 || p.Team == team:
		return nil
	}
	p.Team = team
	return tx.SetPick(ctx, p)
}

// correctOwn corrects the result a game rated on its own (series_rating
// games) to winner, with its one-game score: 1-0 or 0-1, as it was rated.
func (s *Service) correctOwn(ctx context.Context, actor ladder.Actor, guildID string, rated int64, winner int, reason string) error {
	score := ladder.SeriesScore(1, 0)
	if winner == 2 {
		score = ladder.SeriesScore(0, 1)
	}
	_, err := s.lad.CorrectSeries(ctx, actor, guildID, rated, winner, score, reason)
	return err
}

// ProveGame records the next game of a series (or the one waiting for
// confirmation) as won by winner, proved by a Showdown replay the caller
// verified against the teams' linked names: confirmed at once, whoever
// reported it before. A replay proves one game: the same replay again,
// at any of its URLs, answers AlreadyDone, and a replay that proved a
// game of another series is refused.
func (s *Service) ProveGame(ctx context.Context, actor ladder.Actor, guildID string, matchID int64, winner int, replay string) (SeriesResult, error) {
	if winner != 1 && winner != 2 {
		return SeriesResult{}, ladder.Errorf(ladder.CodeInvalid, "a replay proves a game won by team 1 or 2, not %d", winner)
	}
	var res SeriesResult
	err := s.store.InFormatTx(ctx, func(tx Tx) error {
		res = SeriesResult{}
		m, sr, _, err := playerSeries(ctx, tx, guildID, matchID, actor.UserID)
		if err != nil {
			return err
		}
		res.Series = sr
		for _, g := range sr.Games {
			if g.Replay != "" && sameReplay(g.Replay, replay) {
				res.Game, res.AlreadyDone = g, true
				return nil
			}
		}
		// Nor does the battle prove a game of another series, such as a
		// rematch between the same teams.
		others, err := tx.ReplayGames(ctx, m.GuildID, path.Base(replayKey(replay)))
		if err != nil {
			return err
		}
		for _, g := range others {
			if g.MatchID != m.ID && sameReplay(g.Replay, replay) {
				return ladder.Errorf(ladder.CodeConflict, "that replay already proved game %d of match %d: a replay proves one game", g.Game, g.MatchID)
			}
		}
		if sr.Winner() != 0 {
			res.AlreadyDone = true
			return nil
		}
		now := s.now()
		g, pending := sr.Pending()
		if !pending {
			mapName, err := gameMap(ctx, tx, m, sr.Next())
			if err != nil {
				return err
			}
			g = Game{MatchID: m.ID, Game: sr.Next(), GuildID: m.GuildID, BestOf: sr.BestOf, Rating: sr.Rating,
				ReportedBy: actor.UserID, ReportedAt: now, Map: mapName}
		}
		g.Winner, g.Replay, g.ConfirmedBy, g.ConfirmedAt = winner, replay, actor.UserID, now
		if pending {
			err = tx.SetGame(ctx, g)
			res.Series.Games[len(res.Series.Games)-1] = g
		} else {
			err = tx.AddGame(ctx, g)
			res.Series.Games = append(res.Series.Games, g)
		}
		if err != nil {
			return err
		}
		res.Game, res.Confirmed = g, true
		err = audit(ctx, tx, ladder.AuditEntry{GuildID: m.GuildID, ActorID: actor.UserID, Action: "series.replay", MatchID: m.ID, Reason: replay, At: now},
			nil, map[string]any{"game": g.Game, "winner": winner, "score": res.Series.Score(), "map": g.Map})
		if err != nil {
			return err
		}
		return s.next(ctx, tx, &res, now)
	})
	if err != nil {
		return SeriesResult{}, fmt.Errorf("formats: prove game: %w", err)
	}
	return s.settled(ctx, guildID, res)
}

// sameReplay reports whether two replay URLs name the same battle: the
// replay server serves one replay at many URLs (http or https, any case
// of its ID, with .json or .log, a query or a fragment), and a replay
// proves one game, whichever URL it is given by.
func sameReplay(a, b string) bool { return replayKey(a) == replayKey(b) }

// replayKey is a replay URL's host and path, lower case, without .json
// or .log: what the replay fetcher asks the server for.
func replayKey(raw string) string {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err != nil {
		return strings.ToLower(raw)
	}
	p := strings.ToLower(strings.TrimSuffix(u.Path, "/"))
	return strings.ToLower(u.Host) + strings.TrimSuffix(strings.TrimSuffix(p, ".json"), ".log")
}
