// Package sim runs a ladder season offline (docs/spec.md 8, `ladderbot simulate`):
// a population with hidden true skill arrives over simulated days, queues,
// plays matches whose outcomes are drawn from true skill, reports and
// confirms them — all through the real ladder.Service and storage on a
// database, with a simulated clock — and measures what matchmaking and
// rating achieved.
package sim

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"log/slog"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/ladderbot/ladderbot/derived"
	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// Config is one simulated season. Zero fields take Defaults' values, except
// QFloor, whose 0 is the "match immediately" mode: set it explicitly.
type Config struct {
	Players  int
	Days     int
	TeamSize int
	Model    string
	// Params are the queue's model parameters over the model's defaults,
	// e.g. placement_games (seed 002's calibration matches).
	Params map[string]float64
	Seed   uint64
	// QStart and QFloor are the queue's quality thresholds (docs/spec.md 3).
	QStart, QFloor float64
	// DSN is the database; "" makes a temporary one, removed after: held
	// in memory for a season of up to memorySeason player-days, else a
	// SQLite file.
	DSN string
	// SkillSD is the spread of true skill around 1500, on the Elo scale:
	// P(A beats B) = 1/(1 + 10^(−(mean skill A − mean skill B)/400)).
	SkillSD float64
	// ActiveProb is the chance that an arrived player plays on a given day;
	// GamesPerSession is the mean number of matches of one evening.
	ActiveProb      float64
	GamesPerSession float64
	// NoShow is the chance that a player misses a formed match's ready
	// check: the match is cancelled at the deadline, the ready
	// players wait on at the front of the queue, the missing one is
	// penalised and leaves for the evening.
	NoShow float64
	// PickMode is the queue's pick mode: "" or balanced for the
	// matcher's split; captains has the group's two best-rated players
	// draft the teams, each picking the best-rated player left, as most
	// captains do.
	PickMode ladder.PickMode
	// Parties is the share of players who queue as premade pairs (seed
	// 003: "friends queuing together have a greater skill than a
	// simple sum of their solo skills"); each pair plays PartySynergy Elo
	// points stronger, per player, when on one team. 0 is everyone solo.
	Parties      float64
	PartySynergy float64
	// PartyMaxWeight, PartyMedianWeight and OrdinalDeviations are the
	// queue's party rating (seed 003's musigma); both weights 0 is off.
	PartyMaxWeight, PartyMedianWeight, OrdinalDeviations float64
	// BestOf plays each match as a series of this many games at most (1,
	// 3 or 5; 0 is 1): games are drawn from true skill until one team has
	// the majority, and the series is one rated result, as a queue with
	// series_rating series rates it. A series takes its games' time out
	// of the players' evening, so a season of series has fewer results.
	BestOf int
	// Cheaters are injected cheaters by kind (CheatWinTrade rings,
	// CheatSmurf, CheatBoost); nil is none. Thresholds, when set, replace
	// the integrity flags' defaults (tuning).
	Cheaters   map[string]int
	Thresholds *integrity.Thresholds
	// LatePlayers are ordinary players added to the population who arrive
	// when the smurfs and boosted accounts do, a third into the season:
	// new accounts on an established ladder that are not cheating, the
	// look-alikes the integrity flags must leave alone (the other ordinary
	// players arrive in the season's first fifth). 0 is none.
	LatePlayers int
	// Exact says every field above is as meant, zero included: a zero is
	// then checked like any other value instead of standing for the
	// default. `ladderbot simulate` sets it, since its flags carry the
	// defaults, so --days 0 is refused and --q-start 0 is kept rather
	// than silently running the default season.
	Exact bool
	// Progress, when set, is called after each simulated day.
	Progress func(day, days int)
	// Log receives the storage's log; nil discards it.
	Log *slog.Logger

	// observe, when set, sees each queue match played (not the rings'
	// games): its players, what each played at (skill, with a party's
	// synergy), the chance shown that team 1 wins, and whether team 1
	// won. For analyses in tests.
	observe func(teams [2][]*player, playing [2][]float64, pTeam1 float64, team1Won bool)
}

// Defaults returns the season `ladderbot simulate` runs without flags:
// 200 players over 30 days in 2v2 team-glicko, q_min 0.80 → 0.50.
func Defaults() Config {
	return Config{Players: 200, Days: 30, TeamSize: 2, Model: rating.DefaultModel, Seed: 1,
		QStart: 0.80, QFloor: 0.50, SkillSD: 300, ActiveProb: 0.5, GamesPerSession: 4}
}

func (c *Config) fill() error {
	d := Defaults()
	if c.Exact {
		d = *c
	}
	if c.Players == 0 {
		c.Players = d.Players
	}
	if c.Days == 0 {
		c.Days = d.Days
	}
	if c.TeamSize == 0 {
		c.TeamSize = d.TeamSize
	}
	if c.Model == "" {
		c.Model = d.Model
	}
	if c.QStart == 0 {
		c.QStart = d.QStart
	}
	if c.SkillSD == 0 {
		c.SkillSD = d.SkillSD
	}
	if c.ActiveProb == 0 {
		c.ActiveProb = d.ActiveProb
	}
	if c.GamesPerSession == 0 {
		c.GamesPerSession = d.GamesPerSession
	}
	switch {
	case !(c.Parties >= 0 && c.Parties <= 1):
		return fmt.Errorf("sim: party share must be from 0 to 1, not %v", c.Parties)
	case c.Parties > 0 && c.TeamSize < 2:
		return fmt.Errorf("sim: parties need teams of 2 or more, not %d", c.TeamSize)
	case !(math.Abs(c.PartySynergy) <= 1000):
		return fmt.Errorf("sim: party synergy must be from -1000 to 1000 Elo points, not %v", c.PartySynergy)
	case c.PickMode != "" && c.PickMode != ladder.PickBalanced && c.PickMode != ladder.PickCaptains:
		return fmt.Errorf("sim: pick mode must be balanced or captains, not %q", c.PickMode)
	case !(c.NoShow >= 0 && c.NoShow < 1):
		return fmt.Errorf("sim: no-show probability must be from 0 to below 1, not %v", c.NoShow)
	case c.LatePlayers < 0 || c.LatePlayers > 100000:
		return fmt.Errorf("late players must be from 0 to 100000, not %d", c.LatePlayers)
	case c.TeamSize < 1 || c.TeamSize > rating.MaxTeamSize:
		return fmt.Errorf("team size must be from 1 to %d, not %d", rating.MaxTeamSize, c.TeamSize)
	case c.Players < 2*c.TeamSize || c.Players > 100000:
		return fmt.Errorf("players must be from %d (two teams) to 100000, not %d", 2*c.TeamSize, c.Players)
	case c.Days < 1 || c.Days > 3650:
		return fmt.Errorf("days must be from 1 to 3650, not %d", c.Days)
	case !(c.SkillSD > 0 && c.SkillSD < 5000):
		return fmt.Errorf("skill spread must be above 0 and below 5000, not %g", c.SkillSD)
	case !(c.ActiveProb > 0 && c.ActiveProb <= 1):
		return fmt.Errorf("active probability must be in (0, 1], not %g", c.ActiveProb)
	case !(c.GamesPerSession >= 1 && c.GamesPerSession <= 100):
		return fmt.Errorf("games per session must be from 1 to 100, not %g", c.GamesPerSession)
	case c.BestOf != 0 && c.BestOf != 1 && c.BestOf != 3 && c.BestOf != 5:
		return fmt.Errorf("best of must be 1, 3 or 5, not %d", c.BestOf)
	}
	return nil
}

// GuildID is the simulated guild; `ladderbot simulate` names it, so the
// database it kept (--db) can be served and looked at.
const GuildID = "100000000000000000"

// guildID is GuildID, the name the simulation's code uses.
const guildID = GuildID

// player is one simulated player and what the simulation knows of them.
type player struct {
	id, name   string
	skill      float64
	arrival    int // day
	queued     bool
	ticket     int64
	joinedAt   time.Time
	gamesLeft  int
	inMatch    bool
	games      int // rated matches played
	trajectory []Point
	// partner is the other player of a premade pair; the leader queues
	// both (an invitation the partner accepts).
	partner *player
	leader  bool
	// cheat is the kind of injected cheater ("" an ordinary player).
	cheat string
}

// memorySeason is the most player-days (players × days) a temporary season
// is held in memory for: the default season (200 × 30) takes about 15 MB,
// so this one about 150 MB. A longer or larger season goes to a file.
// (A variable: tests lower it to run the file's path.)
var memorySeason = 60000

// openSeason opens the season's database: cfg.DSN, or a temporary one
// that done removes. A temporary season small enough to hold
// (memorySeason) is held in memory, since it is thrown away at the end and
// no commit need reach a disk; a larger one goes to a scratch file without
// an fsync per commit. done closes the database.
func openSeason(ctx context.Context, cfg Config) (db *storage.DB, done func(), err error) {
	switch {
	case cfg.DSN != "":
		db, err = storage.Open(ctx, cfg.DSN, cfg.Log)
	case cfg.Players*cfg.Days <= memorySeason:
		db, err = storage.OpenMemory(ctx, cfg.Log)
	default:
		// A scratch file, removed with the season.
		var dir string
		if dir, err = os.MkdirTemp("", "ladderbot-sim-"); err != nil {
			return nil, nil, err
		}
		if db, err = storage.OpenScratch(ctx, filepath.Join(dir, "sim.db"), cfg.Log); err != nil {
			os.RemoveAll(dir)
			return nil, nil, err
		}
		return db, func() { db.Close(); os.RemoveAll(dir) }, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return db, func() { db.Close() }, nil
}

// Run simulates a season and returns its measurements.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.fill(); err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	db, done, err := openSeason(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	defer done()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clk := ladder.NewManualClock(start)
	// The integrity flags are folded by the rated writes, as the bot does.
	in := integrity.New(db, clk.Now)
	if cfg.Thresholds != nil {
		in = in.WithThresholds(*cfg.Thresholds)
	}
	derived.Wire(db, in)
	s := &season{cfg: cfg, svc: ladder.NewService(db, clk), db: db, clock: clk, start: start, integrity: in,
		rng: rand.New(rand.NewPCG(cfg.Seed, 0x5eed)), byID: map[string]*player{}}
	if err := s.setup(ctx); err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	if err := s.loop(ctx); err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	res, err := s.finish(ctx)
	if err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	res.BestOf = max(cfg.BestOf, 1)
	return res, nil
}

// season is the running simulation.
type season struct {
	cfg Config
	svc *ladder.Service
	db  *storage.DB
	// integrity is the integrity service wired into db's rated write.
	integrity *integrity.Service
	clock     *ladder.ManualClock
	start     time.Time
	rng       *rand.Rand
	queue     ladder.Queue
	players   []*player
	byID      map[string]*player
	events    eventQueue
	seq       int
	res       Result
	rings     []*ring
}

func (s *season) setup(ctx context.Context) error {
	if _, err := s.svc.EnsureGuild(ctx, guildID); err != nil {
		return err
	}
	qs, err := s.svc.Queues(ctx, guildID)
	if err != nil {
		return err
	}
	q := qs[0]
	q.TeamSize, q.Model, q.Params = s.cfg.TeamSize, s.cfg.Model, s.cfg.Params
	q.QStart, q.QFloor = s.cfg.QStart, s.cfg.QFloor
	q.PartyMaxWeight, q.PartyMedianWeight = s.cfg.PartyMaxWeight, s.cfg.PartyMedianWeight
	if s.cfg.OrdinalDeviations != 0 {
		q.OrdinalDeviations = s.cfg.OrdinalDeviations
	}
	q.Name = fmt.Sprintf("%dv%d", q.TeamSize, q.TeamSize)
	if s.queue, err = s.svc.UpdateQueue(ctx, ladder.System, q); err != nil {
		return err
	}
	if s.cfg.PickMode == ladder.PickCaptains {
		_, l, err := s.svc.Lobby(ctx, guildID, s.queue.Name)
		if err != nil {
			return err
		}
		l.PickMode = ladder.PickCaptains
		if _, err := s.svc.UpdateLobby(ctx, ladder.System, guildID, l); err != nil {
			return err
		}
	}
	// arrivals spread over the first fifth of the season
	for i := range s.cfg.Players {
		p := &player{id: fmt.Sprintf("%d", 200000000000000000+i), name: playerName(i),
			skill: 1500 + s.cfg.SkillSD*s.rng.NormFloat64(), arrival: s.rng.IntN(max(1, s.cfg.Days/5))}
		s.players = append(s.players, p)
		s.byID[p.id] = p
	}
	s.pair()
	s.injectCheaters()
	s.addLatePlayers()
	for day := range s.cfg.Days {
		s.push(event{at: s.start.Add(time.Duration(day) * 24 * time.Hour), kind: evDay, day: day})
	}
	return nil
}

// Event kinds of the simulation.
const (
	evDay   = iota // plan the day's sessions
	evJoin         // a player queues
	evWiden        // a waiting ticket enters a new q_min bucket
	evMatchEnd
	evExpire
	evReady // a ready check's deadline
	evRing  // a win-trading ring's night (day is the ring)
)

type event struct {
	at     time.Time
	seq    int
	kind   int
	day    int
	player *player
	ticket int64
	match  ladder.Match
}

type eventQueue []event

func (q eventQueue) Len() int { return len(q) }
func (q eventQueue) Less(i, j int) bool {
	if !q[i].at.Equal(q[j].at) {
		return q[i].at.Before(q[j].at)
	}
	return q[i].seq < q[j].seq
}
func (q eventQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *eventQueue) Push(x any)   { *q = append(*q, x.(event)) }
func (q *eventQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

func (s *season) push(e event) {
	s.seq++
	e.seq = s.seq
	heap.Push(&s.events, e)
}

func (s *season) loop(ctx context.Context) error {
	end := s.start.Add(time.Duration(s.cfg.Days) * 24 * time.Hour)
	for s.events.Len() > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		e := heap.Pop(&s.events).(event)
		if e.at.After(end) && e.kind != evMatchEnd {
			continue // the season is over; only finish the matches being played
		}
		s.clock.Set(e.at)
		var err error
		switch e.kind {
		case evDay:
			s.planDay(e)
		case evJoin:
			err = s.join(ctx, e.player)
		case evWiden:
			if e.player.queued && e.player.ticket == e.ticket {
				var fs []ladder.FormedMatch
				if fs, err = s.svc.Matchmake(ctx, s.queue.ID); err == nil {
					err = s.formed(ctx, fs)
				}
			}
		case evExpire:
			if e.player.queued && e.player.ticket == e.ticket {
				err = s.expire(ctx)
			}
		case evMatchEnd:
			err = s.play(ctx, e.match)
		case evReady:
			err = s.readyDeadline(ctx)
		case evRing:
			err = s.playRing(ctx, s.rings[e.day])
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// planDay starts the evening sessions of the players who play that day:
// communities play on ladder evenings, so sessions start between 19:00
// and 19:40 UTC.
func (s *season) planDay(e event) {
	if s.cfg.Progress != nil && e.day > 0 {
		s.cfg.Progress(e.day, s.cfg.Days)
	}
	for _, p := range s.players {
		if p.partner != nil && !p.leader {
			continue // the leader plans the pair's evening
		}
		if p.arrival > e.day || p.gamesLeft > 0 || s.rng.Float64() >= s.cfg.ActiveProb {
			continue
		}
		solo := p.partner != nil && p.partner.arrival > e.day // a booster before the boosted account arrives
		if p.partner != nil && !solo && (p.partner.gamesLeft > 0 || p.partner.queued || p.partner.inMatch) {
			continue
		}
		// geometric number of games with the configured mean
		p.gamesLeft = 1
		for s.rng.Float64() < 1-1/s.cfg.GamesPerSession {
			p.gamesLeft++
		}
		if p.partner != nil && !solo {
			p.partner.gamesLeft = p.gamesLeft
		}
		at := e.at.Add(19*time.Hour + time.Duration(s.rng.Float64()*40*float64(time.Minute)))
		s.push(event{at: at, kind: evJoin, player: p})
	}
}

// day is the simulated day of the clock.
func (s *season) day() int { return int(s.clock.Now().Sub(s.start) / (24 * time.Hour)) }

func (s *season) join(ctx context.Context, p *player) error {
	if p.queued || p.inMatch {
		return nil
	}
	if p.partner != nil && p.partner.arrival <= s.day() {
		return s.joinParty(ctx, p)
	}
	res, err := s.svc.JoinQueue(ctx, ladder.JoinRequest{GuildID: guildID, UserID: p.id, Name: p.name, ChannelID: "300000000000000000"})
	if err != nil {
		return fmt.Errorf("join %s: %w", p.name, err)
	}
	return s.queued(ctx, res, p)
}

// queued marks the players of a join's ticket as queued, books the events
// of its wait (widening q_min, expiry) on the first, and books the matches
// the pass after the join formed.
func (s *season) queued(ctx context.Context, res ladder.JoinResult, ps ...*player) error {
	for _, m := range ps {
		m.queued, m.ticket, m.joinedAt = true, res.Ticket.ID, res.Ticket.JoinedAt
	}
	p := ps[0]
	st := s.queue.Matchmaking()
	for j := 1; j < st.Buckets; j++ {
		s.push(event{at: p.joinedAt.Add(st.Bucket * time.Duration(j*j)), kind: evWiden, player: p, ticket: p.ticket})
	}
	s.push(event{at: p.joinedAt.Add(ladder.DefaultQueueTimeout + time.Second), kind: evExpire, player: p, ticket: p.ticket})
	return s.formed(ctx, res.Formed)
}

// formed books the matches a pass opened: waits, quality, the model's
// prediction, and when each match ends (5 to 9 minutes of play, a
// Showdown doubles battle).
func (s *season) formed(ctx context.Context, fs []ladder.FormedMatch) error {
	for _, f := range fs {
		for _, u := range f.Match.Players() {
			s.byID[u].queued, s.byID[u].inMatch = false, true
		}
		if f.Ready.MatchID != 0 {
			on, err := s.readyCheck(ctx, f)
			if err != nil || !on {
				return err
			}
		}
		if f.Draft.MatchID != 0 {
			m, err := s.draft(ctx, f.Match)
			if err != nil {
				return err
			}
			f.Match = m
		}
		for _, u := range f.Match.Players() {
			p := s.byID[u]
			s.res.Waits = append(s.res.Waits, f.Match.CreatedAt.Sub(p.joinedAt).Seconds())
			p.queued, p.inMatch = false, true
		}
		s.res.Qualities = append(s.res.Qualities, f.Proposal.Quality)
		d := 5*time.Minute + time.Duration(s.rng.Float64()*4*float64(time.Minute))
		s.push(event{at: f.Match.CreatedAt.Add(d), kind: evMatchEnd, match: f.Match})
	}
	return nil
}

// readyCheck has each player of a formed match click Ready, unless they
// miss it (NoShow); on is whether everyone did. A missed check waits for
// its deadline event.
func (s *season) readyCheck(ctx context.Context, f ladder.FormedMatch) (on bool, err error) {
	missed := false
	for _, u := range f.Match.Players() {
		if s.rng.Float64() < s.cfg.NoShow {
			missed = true
			continue
		}
		if _, err := s.svc.Ready(ctx, ladder.Actor{UserID: u}, guildID, f.Match.ID, true); err != nil {
			return false, fmt.Errorf("ready match %d: %w", f.Match.ID, err)
		}
	}
	if missed {
		s.push(event{at: f.Ready.Deadline, kind: evReady})
	}
	return !missed, nil
}

// draft has the captains of a match pick until the teams are set, each
// taking the best-rated player left, and returns the match with the
// drafted teams.
func (s *season) draft(ctx context.Context, m ladder.Match) (ladder.Match, error) {
	d, err := s.svc.Draft(ctx, guildID, m.ID)
	for err == nil && d.State == ladder.DraftPicking {
		var res ladder.DraftResult
		res, err = s.svc.Pick(ctx, ladder.Actor{UserID: d.Captain(d.Turn())}, guildID, m.ID, d.Picks(), d.Pool()[0].UserID)
		d, m = res.Draft, res.Match
	}
	if err != nil {
		return ladder.Match{}, fmt.Errorf("draft match %d: %w", m.ID, err)
	}
	return m, nil
}

// readyDeadline closes the ready checks that ran out: the ready players
// are queued again with their original join time, so their wait goes on;
// the missing ones leave for the evening.
func (s *season) readyDeadline(ctx context.Context) error {
	rs, err := s.svc.ExpireReadyChecks(ctx)
	if err != nil {
		return err
	}
	for _, r := range rs {
		s.res.ReadyFailed++
		for _, u := range r.Match.Players() {
			s.byID[u].inMatch = false
		}
		for _, c := range r.Penalised {
			s.byID[c.UserID].gamesLeft = 0
		}
		for _, t := range r.Requeued {
			for _, u := range t.UserIDs {
				p := s.byID[u]
				p.queued, p.ticket = true, t.ID
				s.push(event{at: t.ExpiresAt.Add(time.Second), kind: evExpire, player: p, ticket: t.ID})
			}
		}
	}
	fs, err := s.svc.Matchmake(ctx, s.queue.ID)
	if err != nil {
		return err
	}
	return s.formed(ctx, fs)
}

func (s *season) expire(ctx context.Context) error {
	ts, err := s.svc.ExpireQueue(ctx)
	if err != nil {
		return err
	}
	for _, t := range ts {
		for _, u := range t.UserIDs {
			p := s.byID[u]
			p.queued, p.gamesLeft = false, 0
			s.res.Expired++
		}
	}
	return nil
}

// play draws the result from true skill, reports it from team 1 and
// confirms it from team 2, then sends the players back to the queue.
func (s *season) play(ctx context.Context, m ladder.Match) error {
	var sk [2]float64
	for t := range 2 {
		for _, u := range m.Teams[t] {
			sk[t] += s.playing(u, m.Teams[t]) / float64(len(m.Teams[t]))
		}
	}
	pGame := 1 / (1 + math.Pow(10, -(sk[0]-sk[1])/400))
	// A single game is a series of one: one draw, as before series.
	need := max(s.cfg.BestOf, 1)/2 + 1
	games, wins := 0, 0
	for wins < need && games-wins < need {
		games++
		if s.rng.Float64() < pGame {
			wins++
		}
	}
	won := wins >= need
	if s.cfg.observe != nil {
		var ps [2][]*player
		var pl [2][]float64
		for t := range 2 {
			for _, u := range m.Teams[t] {
				ps[t] = append(ps[t], s.byID[u])
				pl[t] = append(pl[t], s.playing(u, m.Teams[t]))
			}
		}
		s.cfg.observe(ps, pl, m.PTeam1, won)
	}
	pTrue := SeriesWin(pGame, max(s.cfg.BestOf, 1))
	o := ladder.Loss
	if won {
		o = ladder.Win
	}
	if _, err := s.svc.Report(ctx, ladder.Actor{UserID: m.Teams[0][0]}, guildID, m.ID, o); err != nil {
		return fmt.Errorf("report match %d: %w", m.ID, err)
	}
	r, err := s.svc.Confirm(ctx, ladder.Actor{UserID: m.Teams[1][0]}, guildID, m.ID)
	if err != nil {
		return fmt.Errorf("confirm match %d: %w", m.ID, err)
	}
	if !r.Match.State.Rated() {
		return errors.New("confirmed match is not rated")
	}
	newcomers := 0
	for _, u := range m.Players() {
		if s.byID[u].games < NewcomerGames {
			newcomers++
		}
		s.byID[u].games++
	}
	s.res.Predictions = append(s.res.Predictions, Prediction{P: m.PTeam1, PTrue: pTrue, Team1Won: won, Newcomers: newcomers,
		Settled: len(m.Players()) - newcomers, Parties: [2]int{s.pairsIn(m.Teams[0]), s.pairsIn(m.Teams[1])}})
	now := s.clock.Now()
	for _, c := range r.Changes {
		p := s.byID[c.UserID]
		p.trajectory = append(p.trajectory, Point{At: now, Rating: c.Rating, RD: c.RD})
	}
	for _, u := range m.Players() {
		p := s.byID[u]
		p.inMatch = false
		if p.gamesLeft -= games; p.gamesLeft > 0 && (p.partner == nil || p.leader) {
			s.push(event{at: now.Add(5*time.Second + time.Duration(s.rng.Float64()*25*float64(time.Second))), kind: evJoin, player: p})
		}
	}
	return nil
}

// Name parts of simulated players: a board of "p017"s reads like a test
// fixture, and the sample data in docs/sample is meant to look like a ladder.
var (
	nameAdjectives = []string{"Amber", "Brisk", "Clever", "Dusky", "Eager", "Fierce", "Gentle", "Hasty", "Icy", "Jolly",
		"Keen", "Lucky", "Mellow", "Nimble", "Odd", "Plucky", "Quiet", "Rusty", "Sly", "Tidy"}
	nameAnimals = []string{"Otter", "Falcon", "Badger", "Lynx", "Heron", "Marten", "Raven", "Wombat", "Ibex", "Gecko",
		"Puffin", "Bison", "Koala", "Newt", "Osprey", "Panda", "Quail", "Stoat", "Tapir", "Viper"}
)

// playerName is the i-th simulated player's display name: unique for the
// first 400 players, numbered after that.
func playerName(i int) string {
	n := len(nameAdjectives) * len(nameAnimals)
	name := nameAdjectives[i%len(nameAdjectives)] + " " + nameAnimals[(i/len(nameAdjectives))%len(nameAnimals)]
	if i >= n {
		name += fmt.Sprintf(" %d", i/n+1)
	}
	return name
}

// SeriesWin is the chance of winning a best-of-n series (n odd) for a
// side that wins each game with chance p: the chance of reaching n/2+1
// wins before the other side does.
func SeriesWin(p float64, n int) float64 {
	need := n/2 + 1
	// P(win the series) = Σ over the other side's wins k < need of
	// C(need−1+k, k) p^need (1−p)^k.
	total, c := 0.0, 1.0
	for k := range need {
		if k > 0 {
			c = c * float64(need-1+k) / float64(k)
		}
		total += c * math.Pow(p, float64(need)) * math.Pow(1-p, float64(k))
	}
	return total
}
