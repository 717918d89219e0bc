package ladder

import (
	"context"
	"fmt"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"maps"
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
	// Map is the map the match was played on, "" for none.
	Map string
	// Score is a series' score, team 1's wins first ("2-1"), "" for a
	// single game; the side with more wins must be the winner.
	Score string
}

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
	var res MatchResult
	saved, err := s.store.InRatedTx(ctx, func(tx Tx) (*RatedWrite, error) {
		res = MatchResult{}
		done, err := idempotent(ctx, tx, in.GuildID, in.IdempotencyKey)
		if err != nil || done.AlreadyDone {
			res = done
			return nil, err
		}
		// One read finds the ladder and locks the players' rows.
		users := append(slices.Clone(in.Team1), in.Team2...)
		slices.Sort(users)
		expectRated(tx, in.GuildID, in.Queue, [2][]string{in.Team1, in.Team2})
		l, rows, err := tx.LockLadder(ctx, in.GuildID, in.Queue, users)
		if isCode(err, CodeNotFound) && in.Queue == "" {
			// A guild's first result: create it with its default queue.
			if _, err := ensureGuild(ctx, tx, in.GuildID, now); err != nil {
				return nil, err
			}
			l, rows, err = tx.LockLadder(ctx, in.GuildID, in.Queue, users)
		}
		if err != nil {
			return nil, err
		}
		if len(in.Names) > 0 {
			if err := upsertNames(ctx, tx, in.GuildID, in.Team1, in.Team2, in.Names); err != nil {
				return nil, err
			}
		}
		var w *RatedWrite
		res, w, err = s.rateNew(ctx, tx, l, rows, in, at, source)
		return w, err
	})
	if isCode(err, CodeConflict) && in.IdempotencyKey != "" {
		// Another request took the key between the check and the write:
		// answer what it recorded.
		var rerr error
		res, rerr = s.idempotentResult(ctx, in.GuildID, in.IdempotencyKey)
		if rerr == nil {
			return res, nil
		}
	}
	if err != nil {
		return MatchResult{}, fmt.Errorf("ladder: record result: %w", err)
	}
	if saved.ID != 0 {
		res.Match = saved
	}
	return res, nil
}

// idempotent is where a keyed result is found to be done already: it
// answers the recorded result with AlreadyDone, or the zero result when key
// is "" or unused.
func idempotent(ctx context.Context, tx Tx, guildID, key string) (MatchResult, error) {
	id, used, err := keyUsed(ctx, tx, guildID, key)
	if err != nil || !used {
		return MatchResult{}, err
	}
	res, err := matchResult(ctx, tx, id)
	res.AlreadyDone = true
	return res, err
}

// keyUsed reports whether a result was recorded under key ("" is never
// used) and which match it was.
func keyUsed(ctx context.Context, tx Tx, guildID, key string) (int64, bool, error) {
	if key == "" {
		return 0, false, nil
	}
	id, err := tx.IdempotentMatch(ctx, guildID, key)
	if isCode(err, CodeNotFound) {
		return 0, false, nil
	}
	return id, err == nil, err
}

// idempotentResult is idempotent outside a transaction, once the key is
// known to be taken.
func (s *Service) idempotentResult(ctx context.Context, guildID, key string) (MatchResult, error) {
	var res MatchResult
	err := s.store.InTx(ctx, func(tx Tx) error {
		var err error
		res, err = idempotent(ctx, tx, guildID, key)
		return err
	})
	if err == nil && !res.AlreadyDone {
		err = Errorf(CodeConflict, "idempotency key %q already used", key)
	}
	return res, err
}

// rateNew prepares a new confirmed match of ladder l between team1 and
// team2, whose players' existing rows are locked (rows), for RecordResult
// and ImportMatches. It stores the model's raw prediction in PRaw, beside
// the chance, as a match that opens does; the chance is not
// calibrated (PTeam1 = PRaw): the match is over when it is recorded, and
// the calibrator's reads of the log would triple the round trips of a
// result (TestRecordResultRoundTrips). The calibration learns from these
// matches all the same, from the log.
func (s *Service) rateNew(ctx context.Context, tx Tx, l Ladder, rows []Rating, in ResultInput, at time.Time, source string) (MatchResult, *RatedWrite, error) {
	q := l.Queue
	team1, team2, winner, key := in.Team1, in.Team2, in.Winner, in.IdempotencyKey
	if err := teamSizeFits(q, team1, team2); err != nil {
		return MatchResult{}, nil, err
	}
	m := Match{
		GuildID: l.Guild.ID, QueueID: q.ID, SeasonID: l.Season.ID,
		Teams: [2][]string{slices.Clone(team1), slices.Clone(team2)},
		State: StateConfirmed, Winner: winner, CreatedAt: s.now(), PlayedAt: at, Source: source,
		ReportedWinner: NoResult, Map: in.Map, Score: in.Score,
	}
	return s.prepare(ctx, tx, l, rows, m, key)
}

// teamSizeFits refuses teams that are not queue q's size.
func teamSizeFits(q Queue, team1, team2 []string) error {
	if len(team1) != q.TeamSize || len(team2) != q.TeamSize {
		return Errorf(CodeInvalid, "queue %s is %dv%d, not %dv%d", q.Name, q.TeamSize, q.TeamSize, len(team1), len(team2))
	}
	return nil
}

func validateResult(in ResultInput) error {
	if err := validateSnowflake("guild", in.GuildID); err != nil {
		return err
	}
	if in.Winner != 1 && in.Winner != 2 && in.Winner != Draw {
		return Errorf(CodeInvalid, "winner must be 1, 2 or 0 (draw), not %d", in.Winner)
	}
	if err := ValidateMapName(in.Map, true); err != nil {
		return err
	}
	if in.Score != "" {
		a, b, ok := rating.ParseSeriesScore(in.Score)
		if !ok || (in.Winner == 1) != (a > b) || (in.Winner == 2) != (b > a) {
			return Errorf(CodeInvalid, "score %q must be like 2-1 (each side 0 to 3) and agree with winner %d", in.Score, in.Winner)
		}
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

// prepare rates m, a new match (ID 0, to insert) or a stored, locked one
// (to update), whose Winner, PlayedAt and rated State are set: it locks the
// players' rows in ladder l (rows, when not nil, are the ones LockLadder
// locked already), applies the model and returns the write that appends m
// to the end of the log, and the result it answers once written.
func (s *Service) prepare(ctx context.Context, tx Tx, l Ladder, rows []Rating, m Match, key string) (MatchResult, *RatedWrite, error) {
	// The queue's calibrator row is locked before the players' rows (in
	// LockLadder's and LockMatchLadder's round trip on PostgreSQL, else
	// here): it orders a queue's results in the log, one at a time as the
	// guild's results must be, and fences an adoption of new constants,
	// which takes it too. The constants read with it are the ones in force
	// until this write commits; if new ones were adopted since the ladder
	// was read, the transaction runs again (ErrRetry) and rates with them.
	if err := l.lockCalibrator(ctx, tx); err != nil {
		return MatchResult{}, nil, err
	}
	model, err := modelFor(l.Queue)
	if err != nil {
		return MatchResult{}, nil, err
	}
	if *l.Cal, err = builtCalibrator(ctx, tx, l.Queue, *l.Cal); err != nil {
		return MatchResult{}, nil, err
	}
	lk, err := l.lock(ctx, tx, model, m.Players(), rows)
	if err != nil {
		return MatchResult{}, nil, err
	}
	m.Seq, m.RatedAt = 0, s.now()
	// The calibrator learns the model's raw prediction from the states the
	// players enter the match with, as foldCalibrator reads it back from
	// the log's Before states.
	l.Cal.observeResult(lk.predict(m), Score(m.Winner))
	cal := *l.Cal
	changes := lk.apply(&m)
	w := &RatedWrite{Match: m, Changes: changes, Ratings: lk.sorted(), IdempotencyKey: key, At: s.now(),
		Event: EventMatchConfirmed, Calibrator: &cal}
	if m.State == StateResolved {
		w.Event = EventMatchResolved
	}
	return MatchResult{Match: m, Changes: deltas(model, changes)}, w, nil
}

// lockCalibrator locks the queue's calibrator row when the ladder's read
// did not (l.Cal nil), as prepare, recordBatch and confirmBatch need it:
// it orders the queue's results in the log, one at a time, and fences an
// adoption of new constants, which takes it too. If constants other than
// l's were adopted since the ladder was read, the transaction runs again
// (ErrRetry) and rates with them. A batch moves the one row it sets in
// memory, result by result, in order.
func (l *Ladder) lockCalibrator(ctx context.Context, tx Tx) error {
	if l.Cal != nil {
		return nil
	}
	row, err := tx.LockCalibrator(ctx, l.Queue.ID)
	if err != nil {
		return err
	}
	if row.Model != l.Queue.Model || !maps.Equal(row.Params, l.Queue.Params) {
		return ErrRetry
	}
	l.Cal = &row
	return nil
}

// save writes a prepared rating in tx, for the paths that go on after it
// (moderation, import); the others hand w to Store.InRatedTx.
func save(ctx context.Context, tx Tx, res MatchResult, w *RatedWrite) (MatchResult, error) {
	m, err := tx.SaveRated(ctx, *w)
	if err != nil {
		return MatchResult{}, err
	}
	res.Match = m
	return res, nil
}

// prepareExisting is rate for a stored, locked match (a report both sides
// agree on, a replay's confirm).
func (s *Service) prepareExisting(ctx context.Context, tx Tx, m Match) (MatchResult, *RatedWrite, error) {
	l, err := tx.LadderOf(ctx, m.QueueID, m.SeasonID)
	if err != nil {
		return MatchResult{}, nil, err
	}
	return s.rate(ctx, tx, l, nil, m, "")
}

// rate is prepare for the paths that rate a match of the ladder it was
// formed in, which may be a season that has ended since: a match formed
// before a season's close and confirmed after it (a late confirm, the
// auto-confirm, a series' end) is rated in the season it was played in.
// For such a season rate writes the match in tx at once and carries it
// forward as a moderator's correction of a closed season does
// (carryCorrection): the season's final standings are frozen again with
// the result, and players already in a later season get the carry-over of
// their new final rating. Otherwise the frozen table, and the badges read
// from it, left the match out until some correction of that season froze
// it again. For a running season it returns the write for the store to
// perform last.
func (s *Service) rate(ctx context.Context, tx Tx, l Ladder, rows []Rating, m Match, key string) (MatchResult, *RatedWrite, error) {
	res, w, err := s.prepare(ctx, tx, l, rows, m, key)
	if err != nil || l.Season.Running() {
		return res, w, err
	}
	if res, err = save(ctx, tx, res, w); err != nil {
		return MatchResult{}, nil, err
	}
	changed := make([]Replayed, len(res.Changes))
	for i, c := range res.Changes {
		changed[i] = Replayed{UserID: c.UserID}
	}
	if _, _, err := carryCorrection(ctx, tx, l.Guild, l.Queue, l.Season, changed); err != nil {
		return MatchResult{}, nil, err
	}
	return res, nil, nil
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

// lock is the one place that locks and creates rating rows: it locks the
// rows of users in ladder l, creating the missing ones first, carried over
// from the previous season's row when there is one (docs/spec.md 4), else the
// model's new-player state. have, when not nil, are the existing rows of
// users, locked already (LockLadder).
func (l Ladder) lock(ctx context.Context, tx Tx, model rating.Model, users []string, have []Rating) (*locked, error) {
	k := l.Key()
	sorted := slices.Clone(users)
	slices.Sort(sorted)
	var err error
	if have == nil {
		if have, err = tx.LockRatings(ctx, k, sorted); err != nil {
			return nil, err
		}
	}
	if len(have) < len(sorted) {
		ps := make([]Player, len(sorted))
		for i, u := range sorted {
			ps[i] = Player{GuildID: l.Guild.ID, UserID: u}
		}
		if err := tx.UpsertPlayers(ctx, ps); err != nil {
			return nil, err
		}
		if err := l.create(ctx, tx, model, sorted, have); err != nil {
			return nil, err
		}
		if have, err = tx.LockRatings(ctx, k, sorted); err != nil {
			return nil, err
		}
		if len(have) != len(sorted) {
			return nil, fmt.Errorf("lock ratings: got %d rows for %d players", len(have), len(sorted))
		}
	}
	lk := &locked{guild: l.Guild, model: model, rows: make(map[string]*Rating, len(have))}
	for i := range have {
		lk.rows[have[i].UserID] = &have[i]
	}
	return lk, nil
}

// Key identifies the ladder's rating rows.
func (l Ladder) Key() Key { return Key{QueueID: l.Queue.ID, SeasonID: l.Season.ID} }

// create inserts the rows of those users that have none (have are the
// existing ones), as lock describes.
func (l Ladder) create(ctx context.Context, tx Tx, model rating.Model, users []string, have []Rating) error {
	var missing []string
	for _, u := range users {
		if !slices.ContainsFunc(have, func(r Rating) bool { return r.UserID == u }) {
			missing = append(missing, u)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	prev := map[string]rating.State{}
	if l.Season.Number > 1 {
		ps, err := tx.Season(ctx, l.Guild.ID, l.Season.Number-1)
		if err != nil && !isCode(err, CodeNotFound) {
			return err
		}
		if err == nil {
			old, err := tx.Ratings(ctx, Key{QueueID: l.Queue.ID, SeasonID: ps.ID}, missing)
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
			st = CarryOver(p, fresh, l.Guild.SeasonCarry)
		}
		r := Rating{QueueID: l.Queue.ID, SeasonID: l.Season.ID, UserID: u, State: st, Base: st}
		refresh(&r, model, l.Guild.PlacementGames)
		rs = append(rs, r)
	}
	return tx.InsertRatings(ctx, l.Guild.ID, rs)
}

// refresh recomputes the derived columns of a rating row.
func refresh(r *Rating, model rating.Model, placement int) {
	r.Display, r.DisplayDev = model.Display(r.State)
	r.Provisional = IsProvisional(r.State.Games, placement, r.DisplayDev)
}

// predict is the model's raw P(team 1 wins) of m from the locked rows'
// states, before apply moves them.
func (l *locked) predict(m Match) float64 {
	var teams [2][]rating.State
	for t := range 2 {
		teams[t] = make([]rating.State, len(m.Teams[t]))
		for i, u := range m.Teams[t] {
			teams[t][i] = l.rows[u].State
		}
	}
	return l.model.Predict(teams[0], teams[1], m.PlayedAt)
}

// apply runs the model on m (Winner and PlayedAt set) over the locked rows,
// sets m.PRaw and m.PTeam1 to the model's prediction when m has none (a
// result recorded at once, rateNew), and returns the log rows.
func (l *locked) apply(m *Match) []RatingChange {
	var teams [2][]rating.State
	for t := range 2 {
		teams[t] = make([]rating.State, len(m.Teams[t]))
		for i, u := range m.Teams[t] {
			teams[t][i] = l.rows[u].State
		}
	}
	if m.PTeam1 == 0 {
		m.PRaw = l.model.Predict(teams[0], teams[1], m.PlayedAt)
		m.PTeam1 = m.PRaw
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
