package ladder

import (
	"context"
	"errors"
	"fmt"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"slices"
	"time"
)

// ResultInput is a finished match to record at once as confirmed (the API,
// an import, the simulator).
type ResultInput struct {
	GuildID string
	// Queue is the queue's name; "" is the guild's default queue.
	Queue        string
	Team1, Team2 []string
	// Names optionally gives display names by user ID.
	Names map[string]string
	// Winner is 1, 2 or Draw.
	Winner int
	// PlayedAt is when it was played; zero means now. It may not be in the future.
	PlayedAt time.Time
	// IdempotencyKey, when set, makes a retry answer the first result
	// with AlreadyDone instead of recording again.
	IdempotencyKey string
	// Source is stored with the match: "api", "import", "simulate"…; "" is "api".
	Source string
}

// errIdempotencyRace makes RecordResult re-read a key another request
// claimed at the same moment.
var errIdempotencyRace = errors.New("idempotency key claimed concurrently")

// RecordResult records a finished match as confirmed and rates it, all in
// one transaction. With an idempotency key already used it records nothing
// and answers the first result with AlreadyDone.
func (s *Service) RecordResult(ctx context.Context, in ResultInput) (MatchResult, error) {
	if err := validateResult(in); err != nil {
		return MatchResult{}, err
	}
	now := s.now()
	at := in.PlayedAt.UTC().Truncate(time.Microsecond)
	if at.IsZero() {
		at = now
	}
	if err := CheckPlayedAt(at, now); err != nil {
		return MatchResult{}, err
	}
	source := in.Source
	if source == "" {
		source = "api"
	}
	for attempt := 0; ; attempt++ {
		var res MatchResult
		err := s.store.InTx(ctx, func(tx Tx) error {
			res = MatchResult{}
			if in.IdempotencyKey != "" {
				id, err := tx.IdempotentMatch(ctx, in.GuildID, in.IdempotencyKey)
				if err == nil {
					res, err = matchResult(ctx, tx, id)
					res.AlreadyDone = true
					return err
				}
				if !isCode(err, CodeNotFound) {
					return err
				}
			}
			// One read finds the ladder and locks the players' rows.
			users := append(slices.Clone(in.Team1), in.Team2...)
			slices.Sort(users)
			l, rows, err := tx.LockLadder(ctx, in.GuildID, in.Queue, users)
			if isCode(err, CodeNotFound) && in.Queue == "" {
				// A guild's first result: create it with its default queue.
				if _, err := ensureGuild(ctx, tx, in.GuildID, now); err != nil {
					return err
				}
				l, rows, err = tx.LockLadder(ctx, in.GuildID, in.Queue, users)
			}
			if err != nil {
				return err
			}
			q := l.Queue
			if len(in.Team1) != q.TeamSize || len(in.Team2) != q.TeamSize {
				return Errorf(CodeInvalid, "queue %s is %dv%d, not %dv%d", q.Name, q.TeamSize, q.TeamSize, len(in.Team1), len(in.Team2))
			}
			if len(in.Names) > 0 {
				if err := upsertNames(ctx, tx, in.GuildID, in.Team1, in.Team2, in.Names); err != nil {
					return err
				}
			}
			m := Match{
				GuildID: in.GuildID, QueueID: q.ID, SeasonID: l.Season.ID,
				Teams: [2][]string{slices.Clone(in.Team1), slices.Clone(in.Team2)},
				State: StateConfirmed, Winner: in.Winner, CreatedAt: now, PlayedAt: at, Source: source,
				ReportedWinner: NoResult,
			}
			// Rating is the last thing this transaction does.
			res, err = s.rateLocked(ctx, tx, l, rows, m, in.IdempotencyKey, true)
			if isCode(err, CodeConflict) && in.IdempotencyKey != "" {
				return errIdempotencyRace
			}
			return err
		})
		if errors.Is(err, errIdempotencyRace) && attempt < 3 {
			continue
		}
		if err != nil {
			return MatchResult{}, fmt.Errorf("ladder: record result: %w", err)
		}
		return res, nil
	}
}

func validateResult(in ResultInput) error {
	if err := validateSnowflake("guild", in.GuildID); err != nil {
		return err
	}
	if in.Winner != 1 && in.Winner != 2 && in.Winner != Draw {
		return Errorf(CodeInvalid, "winner must be 1, 2 or 0 (draw), not %d", in.Winner)
	}
	return validateTeams([2][]string{in.Team1, in.Team2})
}

// validateTeams checks team sizes and that no player appears twice.
func validateTeams(teams [2][]string) error {
	if len(teams[0]) == 0 || len(teams[1]) == 0 {
		return Errorf(CodeInvalid, "both teams need at least one player")
	}
	if len(teams[0]) != len(teams[1]) {
		return Errorf(CodeInvalid, "teams must be the same size, not %d and %d", len(teams[0]), len(teams[1]))
	}
	if len(teams[0]) > rating.MaxTeamSize {
		return Errorf(CodeInvalid, "teams may have at most %d players, not %d", rating.MaxTeamSize, len(teams[0]))
	}
	seen := map[string]bool{}
	for _, t := range teams {
		for _, u := range t {
			if err := validateUserID(u); err != nil {
				return err
			}
			if seen[u] {
				return Errorf(CodeInvalid, "player %s is listed twice", u)
			}
			seen[u] = true
		}
	}
	return nil
}

func upsertNames(ctx context.Context, tx Tx, guildID string, team1, team2 []string, names map[string]string) error {
	ps := make([]Player, 0, len(team1)+len(team2))
	for _, u := range append(slices.Clone(team1), team2...) {
		ps = append(ps, Player{GuildID: guildID, UserID: u, Name: names[u]})
	}
	return tx.UpsertPlayers(ctx, ps)
}

// rate rates m, a new match (ID 0, inserted) or a stored, locked one
// (updated), whose Winner, PlayedAt and rated State are set: it locks the
// players' rows, applies the model and writes the match, the log rows and
// the ratings together, appending the match to the end of the log.
func (s *Service) rate(ctx context.Context, tx Tx, lad Ladder, m Match, idempotencyKey string) (MatchResult, error) {
	users := m.Players()
	slices.Sort(users)
	rows, err := tx.LockRatings(ctx, Key{QueueID: lad.Queue.ID, SeasonID: lad.Season.ID}, users)
	if err != nil {
		return MatchResult{}, err
	}
	return s.rateLocked(ctx, tx, lad, rows, m, idempotencyKey, false)
}

// rateLocked is rate once the existing rows of m's players are locked
// (LockRatings or LockLadder); last says that the transaction does nothing
// after it (RatedWrite.Last).
func (s *Service) rateLocked(ctx context.Context, tx Tx, lad Ladder, rows []Rating, m Match, idempotencyKey string, last bool) (MatchResult, error) {
	model, err := modelFor(lad.Queue)
	if err != nil {
		return MatchResult{}, err
	}
	l, err := completeLadder(ctx, tx, lad.Guild, lad.Queue, lad.Season, model, m.Players(), rows)
	if err != nil {
		return MatchResult{}, err
	}
	m.Seq, m.RatedAt = 0, s.now()
	changes := l.apply(&m)
	w := RatedWrite{Match: m, Changes: changes, Ratings: l.sorted(), IdempotencyKey: idempotencyKey, At: s.now(), Last: last}
	if m, err = tx.SaveRated(ctx, w); err != nil {
		return MatchResult{}, err
	}
	for i := range changes {
		changes[i].MatchID, changes[i].Seq = m.ID, m.Seq
	}
	return MatchResult{Match: m, Changes: deltas(model, changes)}, nil
}

// rateExisting rates a stored, locked match (confirm, resolve).
func (s *Service) rateExisting(ctx context.Context, tx Tx, m Match) (MatchResult, error) {
	q, err := tx.Queue(ctx, m.QueueID)
	if err != nil {
		return MatchResult{}, err
	}
	g, err := tx.Guild(ctx, m.GuildID)
	if err != nil {
		return MatchResult{}, err
	}
	season, err := seasonByID(ctx, tx, m.GuildID, m.SeasonID)
	if err != nil {
		return MatchResult{}, err
	}
	return s.rate(ctx, tx, Ladder{Guild: g, Queue: q, Season: season}, m, "")
}

func seasonByID(ctx context.Context, tx Tx, guildID string, id int64) (Season, error) {
	ss, err := tx.Seasons(ctx, guildID)
	if err != nil {
		return Season{}, err
	}
	for _, s := range ss {
		if s.ID == id {
			return s, nil
		}
	}
	return Season{}, Errorf(CodeNotFound, "season %d not found", id)
}

// locked is a set of locked rating rows of one ladder, ready for an update.
type locked struct {
	guild Guild
	model rating.Model
	rows  map[string]*Rating
}

// lockLadder locks the rows of users in ladder (q, season), creating the
// missing ones first: carried over from the previous season's row when there
// is one (SPEC 4), else the model's new-player state.
func lockLadder(ctx context.Context, tx Tx, g Guild, q Queue, season Season, model rating.Model, users []string) (*locked, error) {
	sorted := slices.Clone(users)
	slices.Sort(sorted)
	rows, err := tx.LockRatings(ctx, Key{QueueID: q.ID, SeasonID: season.ID}, sorted)
	if err != nil {
		return nil, err
	}
	return completeLadder(ctx, tx, g, q, season, model, sorted, rows)
}

// completeLadder is lockLadder once rows, the existing rows of users, are
// locked: it creates and locks the missing ones.
func completeLadder(ctx context.Context, tx Tx, g Guild, q Queue, season Season, model rating.Model, users []string, rows []Rating) (*locked, error) {
	k := Key{QueueID: q.ID, SeasonID: season.ID}
	sorted := slices.Clone(users)
	slices.Sort(sorted)
	var err error
	if len(rows) < len(sorted) {
		ps := make([]Player, len(sorted))
		for i, u := range sorted {
			ps[i] = Player{GuildID: g.ID, UserID: u}
		}
		if err := tx.UpsertPlayers(ctx, ps); err != nil {
			return nil, err
		}
		if err := createRatings(ctx, tx, g, q, season, model, sorted, rows); err != nil {
			return nil, err
		}
		if rows, err = tx.LockRatings(ctx, k, sorted); err != nil {
			return nil, err
		}
		if len(rows) != len(sorted) {
			return nil, fmt.Errorf("lock ratings: got %d rows for %d players", len(rows), len(sorted))
		}
	}
	l := &locked{guild: g, model: model, rows: make(map[string]*Rating, len(rows))}
	for i := range rows {
		l.rows[rows[i].UserID] = &rows[i]
	}
	return l, nil
}

func createRatings(ctx context.Context, tx Tx, g Guild, q Queue, season Season, model rating.Model, users []string, have []Rating) error {
	var missing []string
	for _, u := range users {
		if !slices.ContainsFunc(have, func(r Rating) bool { return r.UserID == u }) {
			missing = append(missing, u)
		}
	}
	prev := map[string]rating.State{}
	if season.Number > 1 {
		ps, err := tx.Season(ctx, g.ID, season.Number-1)
		if err != nil && !isCode(err, CodeNotFound) {
			return err
		}
		if err == nil {
			old, err := tx.Ratings(ctx, Key{QueueID: q.ID, SeasonID: ps.ID}, missing)
			if err != nil {
				return err
			}
			for _, r := range old {
				prev[r.UserID] = r.State
			}
		}
	}
	fresh := model.New()
	rs := make([]Rating, 0, len(missing))
	for _, u := range missing {
		st := fresh
		if p, ok := prev[u]; ok {
			st = CarryOver(p, fresh, g.SeasonCarry)
		}
		r := Rating{QueueID: q.ID, SeasonID: season.ID, UserID: u, State: st, Base: st}
		refresh(&r, model, g.PlacementGames)
		rs = append(rs, r)
	}
	return tx.InsertRatings(ctx, g.ID, rs)
}

// refresh recomputes the derived columns of a rating row.
func refresh(r *Rating, model rating.Model, placement int) {
	r.Display, r.DisplayDev = model.Display(r.State)
	r.Provisional = IsProvisional(r.State.Games, placement, r.DisplayDev)
}

// apply runs the model on m (Winner and PlayedAt set) over the locked rows,
// sets m.PTeam1 when it has none, and returns the log rows.
func (l *locked) apply(m *Match) []RatingChange {
	var teams [2][]rating.State
	for t := range 2 {
		teams[t] = make([]rating.State, len(m.Teams[t]))
		for i, u := range m.Teams[t] {
			teams[t][i] = l.rows[u].State
		}
	}
	if m.PTeam1 == 0 {
		m.PTeam1 = l.model.Predict(teams[0], teams[1], m.PlayedAt)
	}
	score := Score(m.Winner)
	l.model.Update(teams[0], teams[1], score, m.PlayedAt)
	changes := make([]RatingChange, 0, len(m.Teams[0])*2)
	for t := range 2 {
		own := score
		if t == 1 {
			own = 1 - score
		}
		for i, u := range m.Teams[t] {
			r := l.rows[u]
			changes = append(changes, RatingChange{
				Seq: m.Seq, QueueID: m.QueueID, SeasonID: m.SeasonID, UserID: u, Team: t + 1, Kind: "match",
				Before: r.State, After: teams[t][i], Record: r.Record, At: m.PlayedAt,
			})
			r.State = teams[t][i]
			r.Record.add(own)
			r.Stale = false
			refresh(r, l.model, l.guild.PlacementGames)
		}
	}
	return changes
}

// sorted returns the locked rows by user ID.
func (l *locked) sorted() []Rating {
	rs := make([]Rating, 0, len(l.rows))
	for _, r := range l.rows {
		rs = append(rs, *r)
	}
	slices.SortFunc(rs, func(a, b Rating) int { return cmpString(a.UserID, b.UserID) })
	return rs
}

// deltas turns log rows into displayed changes.
func deltas(model rating.Model, cs []RatingChange) []PlayerDelta {
	out := make([]PlayerDelta, 0, len(cs))
	for _, c := range cs {
		before, _ := model.Display(c.Before)
		after, dev := model.Display(c.After)
		out = append(out, PlayerDelta{UserID: c.UserID, Team: c.Team, Rating: after, RD: dev, Delta: after - before})
	}
	return out
}

// matchResult reads a match and the changes it made, for AlreadyDone answers.
func matchResult(ctx context.Context, tx Tx, id int64) (MatchResult, error) {
	m, err := tx.Match(ctx, id)
	if err != nil {
		return MatchResult{}, err
	}
	res := MatchResult{Match: m}
	if !m.State.Rated() {
		return res, nil
	}
	q, err := tx.Queue(ctx, m.QueueID)
	if err != nil {
		return MatchResult{}, err
	}
	model, err := modelFor(q)
	if err != nil {
		return MatchResult{}, err
	}
	cs, err := tx.MatchChanges(ctx, id)
	if err != nil {
		return MatchResult{}, err
	}
	res.Changes = deltas(model, cs)
	return res, nil
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
