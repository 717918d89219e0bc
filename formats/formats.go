package formats

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// Ladder is what formats reads of the ladder outside its transactions.
type Ladder interface {
	// MatchDetail gives the players' ratings (stakes), which decide who
	// bans for a team without captains.
	MatchDetail(ctx context.Context, guildID string, id int64) (ladder.MatchDetail, error)
	Now() time.Time
	// RateSeriesGame and FinishSeries are the rated writes of a series.
	RateSeriesGame(ctx context.Context, guildID string, matchID int64, game, winner int, mapName string) (ladder.MatchResult, error)
	FinishSeries(ctx context.Context, guildID string, matchID int64, winner int, score, mapName string) (ladder.MatchResult, error)
	// CorrectSeries is a moderator's correction of a series' row or of a
	// game's own row, with its score, replayed; Void voids a game rated
	// on its own that the series' row rates instead (a correction made it
	// the deciding game).
	CorrectSeries(ctx context.Context, actor ladder.Actor, guildID string, matchID int64, winner int, score, reason string) (ladder.Correction, error)
	Void(ctx context.Context, actor ladder.Actor, guildID string, matchID int64, reason string) (ladder.Correction, error)
}

// Service runs map pools and picks. It keeps nothing between calls:
// everything is in the Store.
type Service struct {
	store Store
	lad   Ladder
}

// New returns a Service over store.
func New(store Store, lad Ladder) *Service { return &Service{store: store, lad: lad} }

func (s *Service) now() time.Time { return s.lad.Now().UTC().Truncate(time.Microsecond) }

// Settings returns a queue's format settings.
func (s *Service) Settings(ctx context.Context, queueID int64) (Settings, error) {
	st, err := s.store.FormatSettings(ctx, queueID)
	if err != nil {
		return Settings{}, fmt.Errorf("formats: settings of queue %d: %w", queueID, err)
	}
	return st, nil
}

// Maps returns a queue's pool in order.
func (s *Service) Maps(ctx context.Context, queueID int64) ([]Map, error) {
	ms, err := s.store.Maps(ctx, queueID)
	if err != nil {
		return nil, fmt.Errorf("formats: maps of queue %d: %w", queueID, err)
	}
	return ms, nil
}

// SaveSettings validates and stores a queue's format settings, audited
// as the admin's action.
func (s *Service) SaveSettings(ctx context.Context, actor ladder.Actor, q ladder.Queue, st Settings) error {
	st.QueueID = q.ID
	if err := st.Validate(); err != nil {
		return err
	}
	err := s.store.InFormatTx(ctx, func(tx Tx) error {
		before, err := tx.FormatSettings(ctx, q.ID)
		if err != nil {
			return err
		}
		if err := tx.SaveFormatSettings(ctx, st); err != nil {
			return err
		}
		return audit(ctx, tx, ladder.AuditEntry{GuildID: q.GuildID, ActorID: actor.UserID, Action: "queue.format", Target: q.Name, At: s.now()},
			map[string]any{"map_pick": before.MapPick, "best_of": before.BestOf, "series_rating": before.SeriesRating},
			map[string]any{"map_pick": st.MapPick, "best_of": st.BestOf, "series_rating": st.SeriesRating})
	})
	if err != nil {
		return fmt.Errorf("formats: save settings of queue %s: %w", q.Name, err)
	}
	return nil
}

// AddMap adds a map to a queue's pool, at most MaxMaps.
func (s *Service) AddMap(ctx context.Context, actor ladder.Actor, q ladder.Queue, m Map) ([]Map, error) {
	m.QueueID = q.ID
	if err := validateMap(m); err != nil {
		return nil, err
	}
	var out []Map
	err := s.store.InFormatTx(ctx, func(tx Tx) error {
		ms, err := tx.Maps(ctx, q.ID)
		if err != nil {
			return err
		}
		if slices.ContainsFunc(ms, func(x Map) bool { return x.Name == m.Name }) {
			return ladder.Errorf(ladder.CodeConflict, "queue %s already has the map %q", q.Name, m.Name)
		}
		if len(ms) >= MaxMaps {
			return ladder.Errorf(ladder.CodeInvalid, "queue %s already has %d maps, the most a pool holds; remove one first", q.Name, MaxMaps)
		}
		m.Position = 0
		for _, x := range ms {
			m.Position = max(m.Position, x.Position+1)
		}
		if err := tx.AddMap(ctx, m); err != nil {
			return err
		}
		out = append(ms, m)
		return audit(ctx, tx, ladder.AuditEntry{GuildID: q.GuildID, ActorID: actor.UserID, Action: "maps.add", Target: q.Name, At: s.now()},
			nil, map[string]any{"map": m.Name, "image": m.ImageURL})
	})
	if err != nil {
		return nil, fmt.Errorf("formats: add map: %w", err)
	}
	return out, nil
}

// RemoveMap removes a map from a queue's pool. Running picks keep the
// pool they started with.
func (s *Service) RemoveMap(ctx context.Context, actor ladder.Actor, q ladder.Queue, name string) ([]Map, error) {
	var out []Map
	err := s.store.InFormatTx(ctx, func(tx Tx) error {
		ok, err := tx.RemoveMap(ctx, q.ID, name)
		if err != nil {
			return err
		}
		if !ok {
			return ladder.Errorf(ladder.CodeNotFound, "queue %s has no map %q; /config maps list shows its pool", q.Name, name)
		}
		if out, err = tx.Maps(ctx, q.ID); err != nil {
			return err
		}
		return audit(ctx, tx, ladder.AuditEntry{GuildID: q.GuildID, ActorID: actor.UserID, Action: "maps.remove", Target: q.Name, At: s.now()},
			map[string]any{"map": name}, nil)
	})
	if err != nil {
		return nil, fmt.Errorf("formats: remove map: %w", err)
	}
	return out, nil
}

// Result answers a vote, a ban, a start and each step the deadline job
// makes.
type Result struct {
	Match ladder.Match
	Pick  Pick
	// Banned are the bans this call made.
	Banned []Ban
	// Chosen says this call chose the map (Pick.Chosen, Match.Map).
	Chosen bool
	// TimedOut says a deadline had passed: the vote was closed, or a ban
	// was made for its banner.
	TimedOut bool
	// AlreadyDone says the call changed nothing: the same vote again, a
	// ban already made, a pick already over.
	AlreadyDone bool
}

// Start begins the map pick of match m's first game once its teams are
// set (after the ready check and the captains' draft), when its queue
// picks maps and has a pool; Pick.MatchID is 0 when it picks none. A
// pick already started is answered as it is (AlreadyDone), so every
// process and every path that sees the match on may call it.
func (s *Service) Start(ctx context.Context, m ladder.Match) (Result, error) {
	st, err := s.store.FormatSettings(ctx, m.QueueID)
	if err != nil || st.MapPick == ModeNone {
		return Result{Match: m}, err
	}
	pool, err := s.store.Maps(ctx, m.QueueID)
	if err != nil || len(pool) == 0 {
		return Result{Match: m}, err
	}
	var banners [2]string
	if st.MapPick == ModeBan {
		if banners, err = s.banners(ctx, m); err != nil {
			return Result{}, err
		}
	}
	var res Result
	err = s.store.InFormatTx(ctx, func(tx Tx) error {
		res = Result{}
		lm, err := tx.LockMatch(ctx, m.ID)
		if err != nil {
			return err
		}
		res.Match = lm
		p, err := tx.Pick(ctx, m.ID, 1)
		switch {
		case err == nil:
			res.Pick, res.AlreadyDone = p, true
			return nil
		case ladder.ErrorCode(err) != ladder.CodeNotFound:
			return err
		case lm.State != ladder.StateOpen:
			return nil
		}
		if rc, err := tx.ReadyCheck(ctx, m.ID); err == nil && rc.State != ladder.ReadyPassed {
			return nil // not everyone is ready yet
		} else if err != nil && ladder.ErrorCode(err) != ladder.CodeNotFound {
			return err
		}
		if d, err := tx.Draft(ctx, m.ID); err == nil && d.State != ladder.DraftDone {
			return nil // the teams are not set yet
		} else if err != nil && ladder.ErrorCode(err) != ladder.CodeNotFound {
			return err
		}
		l, err := tx.Lobby(ctx, m.QueueID)
		if err != nil {
			return err
		}
		now := s.now()
		p = Pick{MatchID: m.ID, Game: 1, GuildID: m.GuildID, QueueID: m.QueueID, Mode: st.MapPick, State: StatePicking,
			Banners: banners, Seed: rand.Int64(), CreatedAt: now, Deadline: now.Add(l.PickWindow)}
		for _, x := range pool {
			p.Pool = append(p.Pool, x.Name)
		}
		if p.Mode == ModeLoser {
			p.Mode = ModeRandom
		}
		if err := tx.AddPick(ctx, p); err != nil {
			return err
		}
		res.Pick = p
		if p.Mode == ModeRandom || len(p.Pool) == 1 {
			return s.choose(ctx, tx, &res, p.Draw(), nil, now)
		}
		return audit(ctx, tx, ladder.AuditEntry{GuildID: m.GuildID, ActorID: ladder.System.UserID, Action: "maps.start", MatchID: m.ID, At: now},
			nil, map[string]any{"mode": p.Mode, "pool": p.Pool, "banners": banners, "seed": p.Seed})
	})
	if err != nil {
		return Result{}, fmt.Errorf("formats: start map pick of match %d: %w", m.ID, err)
	}
	return res, nil
}

// banners are who bans for each team: the captains of a drafted match,
// else each team's highest rated player (ties by user ID).
func (s *Service) banners(ctx context.Context, m ladder.Match) ([2]string, error) {
	d, err := s.lad.MatchDetail(ctx, m.GuildID, m.ID)
	if err != nil {
		return [2]string{}, err
	}
	if d.Draft.MatchID != 0 {
		return [2]string{d.Draft.Captain(1), d.Draft.Captain(2)}, nil
	}
	rating := map[string]float64{}
	for _, st := range d.Stakes {
		rating[st.UserID] = st.Rating
	}
	var out [2]string
	for t := range 2 {
		team := slices.Clone(d.Match.Teams[t])
		slices.SortFunc(team, func(a, b string) int { return cmp.Or(cmp.Compare(rating[b], rating[a]), cmp.Compare(a, b)) })
		out[t] = team[0]
	}
	return out, nil
}

// Vote records a player's vote for name in game's pick of match matchID.
// A player may change their vote until the vote closes; it closes when
// every player has voted or at its deadline.
func (s *Service) Vote(ctx context.Context, actor ladder.Actor, guildID string, matchID int64, game int, name string) (Result, error) {
	var res Result
	err := s.store.InFormatTx(ctx, func(tx Tx) error {
		res = Result{}
		m, p, err := lockPick(ctx, tx, guildID, matchID, game)
		if err != nil {
			return err
		}
		res.Match, res.Pick = m, p
		if m.Team(actor.UserID) == 0 {
			return ladder.Errorf(ladder.CodeForbidden, "you are not a player of match %d", m.ID)
		}
		switch {
		case p.State == StateDone:
			res.AlreadyDone = true
			return nil
		case p.Mode != ModeVote:
			return ladder.Errorf(ladder.CodeConflict, "match %d's map is picked by %s, not by a vote", m.ID, p.Mode)
		}
		now := s.now()
		if !p.Deadline.After(now) {
			res.TimedOut = true
			return s.closeVote(ctx, tx, &res, now)
		}
		if !slices.Contains(p.Pool, name) {
			return ladder.Errorf(ladder.CodeInvalid, "%q is not a map of this vote; choose one from the menu", name)
		}
		if p.VoteOf(actor.UserID) == name {
			res.AlreadyDone = true
			return nil
		}
		v := Vote{UserID: actor.UserID, Map: name, At: now}
		if err := tx.PutVote(ctx, m.ID, game, v); err != nil {
			return err
		}
		p.Votes = slices.DeleteFunc(p.Votes, func(x Vote) bool { return x.UserID == actor.UserID })
		res.Pick.Votes = append(p.Votes, v)
		if len(res.Pick.Votes) < len(m.Players()) {
			return nil
		}
		return s.closeVote(ctx, tx, &res, now)
	})
	if err != nil {
		return Result{}, fmt.Errorf("formats: vote: %w", err)
	}
	return res, nil
}

// closeVote tallies a vote and chooses its map.
func (s *Service) closeVote(ctx context.Context, tx Tx, res *Result, now time.Time) error {
	won, tied := res.Pick.Tally()
	detail := map[string]any{"counts": res.Pick.Counts(), "votes": len(res.Pick.Votes)}
	if len(tied) > 1 {
		detail["tied"] = tied
	}
	return s.choose(ctx, tx, res, won, detail, now)
}

// choose ends a pick with name: the pick is done, the match gets its
// map, and the audit log says how, with the seed that settled any tie.
func (s *Service) choose(ctx context.Context, tx Tx, res *Result, name string, detail map[string]any, now time.Time) error {
	p := &res.Pick
	p.State, p.Chosen, p.Deadline = StateDone, name, time.Time{}
	if err := tx.SetPick(ctx, *p); err != nil {
		return err
	}
	// The match's map is its first game's; a later game's map is kept
	// with the game (series_games) when the game is reported.
	if p.Game == 1 {
		if err := tx.SetMatchMap(ctx, p.MatchID, name); err != nil {
			return err
		}
		res.Match.Map = name
	}
	res.Chosen = true
	after := map[string]any{"map": name, "mode": p.Mode, "game": p.Game, "seed": p.Seed}
	if p.Team != 0 {
		after["team"] = p.Team
	}
	for k, v := range detail {
		after[k] = v
	}
	return audit(ctx, tx, ladder.AuditEntry{GuildID: p.GuildID, ActorID: ladder.System.UserID, Action: "maps.chosen", MatchID: p.MatchID, At: now},
		nil, after)
}

// Ban records a banner's ban of name as ban number turn (the number of
// bans made when the menu was shown) of game's pick of match matchID.
// When one map is left it is the match's map.
func (s *Service) Ban(ctx context.Context, actor ladder.Actor, guildID string, matchID int64, game, turn int, name string) (Result, error) {
	var res Result
	err := s.store.InFormatTx(ctx, func(tx Tx) error {
		res = Result{}
		m, p, err := lockPick(ctx, tx, guildID, matchID, game)
		if err != nil {
			return err
		}
		res.Match, res.Pick = m, p
		if m.Team(actor.UserID) == 0 {
			return ladder.Errorf(ladder.CodeForbidden, "you are not a player of match %d", m.ID)
		}
		switch {
		case p.State == StateDone || len(p.Bans) != turn:
			res.AlreadyDone = true
			return nil
		case p.Mode != ModeBan:
			return ladder.Errorf(ladder.CodeConflict, "match %d's map is picked by %s, not by bans", m.ID, p.Mode)
		}
		banner := p.Banners[p.Turn()-1]
		if actor.UserID != banner {
			if actor.UserID == p.Banners[2-p.Turn()] {
				return ladder.Errorf(ladder.CodeForbidden, "it is <@%s>'s ban, not yours; wait for your turn", banner)
			}
			return ladder.Errorf(ladder.CodeForbidden, "only <@%s> and <@%s> ban maps", p.Banners[0], p.Banners[1])
		}
		now := s.now()
		if !p.Deadline.After(now) {
			res.TimedOut = true
			return s.ban(ctx, tx, &res, p.AutoBan(), true, now)
		}
		if !slices.Contains(p.Left(), name) {
			return ladder.Errorf(ladder.CodeInvalid, "%q is not a map left to ban; choose one from the menu", name)
		}
		return s.ban(ctx, tx, &res, name, false, now)
	})
	if err != nil {
		return Result{}, fmt.Errorf("formats: ban: %w", err)
	}
	return res, nil
}

// ban makes the next ban and, when one map is left, chooses it; else the
// next banner gets a fresh deadline.
func (s *Service) ban(ctx context.Context, tx Tx, res *Result, name string, auto bool, now time.Time) error {
	p := &res.Pick
	team := p.Turn()
	b := Ban{Turn: len(p.Bans), Team: team, UserID: p.Banners[team-1], Map: name, Auto: auto, At: now}
	if err := tx.AddBan(ctx, p.MatchID, p.Game, b); err != nil {
		return err
	}
	p.Bans = append(p.Bans, b)
	res.Banned = append(res.Banned, b)
	err := audit(ctx, tx, ladder.AuditEntry{GuildID: p.GuildID, ActorID: b.UserID, Action: "maps.ban", MatchID: p.MatchID, Target: name, At: now},
		nil, map[string]any{"team": team, "turn": b.Turn, "auto": auto, "game": p.Game})
	if err != nil {
		return err
	}
	if left := p.Left(); len(left) == 1 {
		return s.choose(ctx, tx, res, left[0], map[string]any{"bans": len(p.Bans)}, now)
	}
	l, err := tx.Lobby(ctx, p.QueueID)
	if err != nil {
		return err
	}
	p.Deadline = now.Add(l.PickWindow)
	return tx.SetPick(ctx, *p)
}

// Expire closes every vote and makes every ban whose deadline has passed
// (the ready-checks job's tick). Deadlines are rows, so a pick that ran
// out while every process was down is settled at the next start.
func (s *Service) Expire(ctx context.Context) ([]Result, error) {
	var due [][2]int64
	err := s.store.InFormatTx(ctx, func(tx Tx) error {
		var err error
		due, err = tx.DuePicks(ctx, s.now(), 200)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("formats: expire picks: %w", err)
	}
	var out []Result
	for _, d := range due {
		var res Result
		err := s.store.InFormatTx(ctx, func(tx Tx) error {
			res = Result{}
			m, err := tx.LockMatch(ctx, d[0])
			if err != nil {
				return err
			}
			p, err := tx.Pick(ctx, d[0], int(d[1]))
			if err != nil {
				return err
			}
			now := s.now()
			res.Match, res.Pick = m, p
			if p.State != StatePicking || p.Deadline.After(now) {
				res.AlreadyDone = true
				return nil
			}
			res.TimedOut = true
			switch p.Mode {
			case ModeBan:
				return s.ban(ctx, tx, &res, p.AutoBan(), true, now)
			case ModeLoser:
				return s.choose(ctx, tx, &res, p.Draw(), map[string]any{"timed_out": true}, now)
			}
			return s.closeVote(ctx, tx, &res, now)
		})
		if err != nil {
			return out, fmt.Errorf("formats: expire pick of match %d: %w", d[0], err)
		}
		if !res.AlreadyDone {
			out = append(out, res)
		}
	}
	return out, nil
}

// startGrace is how old a match must be before the job starts its pick:
// the click that put it on starts it at once and shows it in place, and
// the job is only for what a crash left behind.
const startGrace = 15 * time.Second

// StartMissed starts the picks a crash left unstarted (the job's tick)
// and answers those it started, for the job to show.
func (s *Service) StartMissed(ctx context.Context) ([]Result, error) {
	var ids []int64
	err := s.store.InFormatTx(ctx, func(tx Tx) error {
		var err error
		ids, err = tx.UnstartedPicks(ctx, s.now().Add(-startGrace), 100)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("formats: unstarted picks: %w", err)
	}
	var out []Result
	for _, id := range ids {
		var m ladder.Match
		err := s.store.InFormatTx(ctx, func(tx Tx) error {
			var err error
			m, err = tx.LockMatch(ctx, id)
			return err
		})
		if err != nil {
			return out, fmt.Errorf("formats: unstarted pick of match %d: %w", id, err)
		}
		res, err := s.Start(ctx, m)
		if err != nil {
			return out, err
		}
		if res.Pick.MatchID != 0 && !res.AlreadyDone {
			out = append(out, res)
		}
	}
	return out, nil
}

// RecordMessage records the message that shows a game's pick.
func (s *Service) RecordMessage(ctx context.Context, matchID int64, game int, channelID, messageID string) error {
	err := s.store.InFormatTx(ctx, func(tx Tx) error {
		return tx.SetPickMessage(ctx, matchID, game, channelID, messageID)
	})
	if err != nil {
		return fmt.Errorf("formats: record pick message: %w", err)
	}
	return nil
}

// Pick returns game's pick of a guild's match; CodeNotFound when none.
func (s *Service) Pick(ctx context.Context, guildID string, matchID int64, game int) (Pick, error) {
	var p Pick
	err := s.store.InFormatTx(ctx, func(tx Tx) error {
		var err error
		p, err = tx.Pick(ctx, matchID, game)
		return err
	})
	if err == nil && p.GuildID != guildID {
		err = ladder.Errorf(ladder.CodeNotFound, "match %d has no map pick", matchID)
	}
	if err != nil {
		return Pick{}, fmt.Errorf("formats: pick: %w", err)
	}
	return p, nil
}

// lockPick locks a guild's match and reads a game's pick.
func lockPick(ctx context.Context, tx Tx, guildID string, matchID int64, game int) (ladder.Match, Pick, error) {
	m, err := tx.LockMatch(ctx, matchID)
	if err == nil && m.GuildID != guildID {
		err = ladder.Errorf(ladder.CodeNotFound, "match %d not found", matchID)
	}
	if err != nil {
		return ladder.Match{}, Pick{}, err
	}
	p, err := tx.Pick(ctx, matchID, game)
	switch {
	case ladder.ErrorCode(err) == ladder.CodeNotFound:
		return ladder.Match{}, Pick{}, ladder.Errorf(ladder.CodeConflict, "match %d has no map pick running", matchID)
	case err == nil && p.State == StatePicking && !m.State.Active():
		// A match cancelled, voided or rated while its map was being
		// picked picks none: its menus are stale (the deadline job
		// passes its pick over too).
		return ladder.Match{}, Pick{}, ladder.Errorf(ladder.CodeConflict, "match %d is %s", m.ID, m.State)
	}
	return m, p, err
}

// audit appends an audit entry with before and after as JSON.
func audit(ctx context.Context, tx Tx, e ladder.AuditEntry, before, after any) error {
	e.Before, e.After = jsonText(before), jsonText(after)
	return tx.AddAudit(ctx, e)
}

func jsonText(v any) string {
	if v == nil {
		return ""
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%q", err.Error())
	}
	return string(b)
}
