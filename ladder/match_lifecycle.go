package ladder

import (
	"context"
	"fmt"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"net/url"
	"slices"
	"strings"
	"time"
)

// NewMatch is a match formed by the queue (or a moderator) and waiting to be played.
type NewMatch struct {
	GuildID string
	QueueID int64
	Teams   [2][]string
	Names   map[string]string
	// Quality is the matchmaking quality Q of the split.
	Quality   float64
	ChannelID string
	// Source is "queue" when empty.
	Source string
	// Drafted says the captains will pick the teams: Teams are only the
	// group, so match.formed waits for the drafted teams.
	Drafted bool
}

// CreateMatch opens a match: it stores it in state open with the model's
// P(team 1 wins). A player already in an open or reported match gives a
// CodeConflict error.
func (s *Service) CreateMatch(ctx context.Context, in NewMatch) (Match, error) {
	var m Match
	err := s.store.InTx(ctx, func(tx Tx) error {
		var err error
		m, err = s.CreateMatchTx(ctx, tx, in)
		return err
	})
	if err != nil {
		return Match{}, fmt.Errorf("ladder: create match: %w", err)
	}
	return m, nil
}

// CreateMatchTx is CreateMatch inside the caller's transaction, so the
// matchmaker can take entries off the queue and open their match atomically.
func (s *Service) CreateMatchTx(ctx context.Context, tx Tx, in NewMatch) (Match, error) {
	if err := validateTeams(in.Teams); err != nil {
		return Match{}, err
	}
	q, err := tx.Queue(ctx, in.QueueID)
	if err != nil {
		return Match{}, err
	}
	if q.GuildID != in.GuildID {
		return Match{}, Errorf(CodeNotFound, "queue %d not found", in.QueueID)
	}
	if len(in.Teams[0]) != q.TeamSize {
		return Match{}, Errorf(CodeInvalid, "queue %s is %dv%d, not %dv%d", q.Name, q.TeamSize, q.TeamSize, len(in.Teams[0]), len(in.Teams[1]))
	}
	season, err := tx.CurrentSeason(ctx, in.GuildID)
	if err != nil {
		return Match{}, err
	}
	if err := upsertNames(ctx, tx, in.GuildID, in.Teams[0], in.Teams[1], in.Names); err != nil {
		return Match{}, err
	}
	model, err := modelFor(q)
	if err != nil {
		return Match{}, err
	}
	now := s.now()
	k := Key{QueueID: q.ID, SeasonID: season.ID}
	var teams [2][]rating.State
	for t := range 2 {
		rs, err := tx.Ratings(ctx, k, in.Teams[t])
		if err != nil {
			return Match{}, err
		}
		for _, u := range in.Teams[t] {
			st := model.New()
			for _, r := range rs {
				if r.UserID == u {
					st = r.State
				}
			}
			teams[t] = append(teams[t], st)
		}
	}
	// The chance shown is calibrated on the queue's own log.
	cal, err := s.calibrator(ctx, tx, q)
	if err != nil {
		return Match{}, err
	}
	source := in.Source
	if source == "" {
		source = "queue"
	}
	raw := model.Predict(teams[0], teams[1], now)
	m := Match{
		GuildID: in.GuildID, QueueID: q.ID, SeasonID: season.ID,
		Teams: [2][]string{slices.Clone(in.Teams[0]), slices.Clone(in.Teams[1])},
		State: StateOpen, Winner: NoResult, ReportedWinner: NoResult,
		PTeam1: cal.Predict(raw, 0), PRaw: raw, Quality: in.Quality,
		CreatedAt: now, Source: source, ChannelID: in.ChannelID,
	}
	m, err = tx.CreateMatch(ctx, m)
	if err != nil || in.Drafted {
		return m, err
	}
	return m, emitMatch(ctx, tx, EventMatchFormed, m, now)
}

// Match returns one match of a guild; CodeNotFound for another guild's.
func (s *Service) Match(ctx context.Context, guildID string, id int64) (Match, error) {
	m, err := s.store.Match(ctx, id)
	if err != nil {
		return Match{}, err
	}
	if m.GuildID != guildID {
		return Match{}, Errorf(CodeNotFound, "match %d not found", id)
	}
	return m, nil
}

// MatchDetail is a match with what it did (or would do) to each player.
type MatchDetail struct {
	Match Match
	Queue Queue
	// Changes are the rating changes of a rated match.
	Changes []PlayerDelta
	// Stakes, for a match not yet rated, are each player's change if team 1
	// wins (Win) or loses (Loss), from the current ratings.
	Stakes []Stake
	Names  map[string]string
	// Draft is the captains draft of a match whose teams are still being
	// picked (MatchID 0 otherwise). Match.Teams then hold the teams so far
	// and Match.PTeam1 is 0: no chance is known before the teams are.
	Draft Draft
}

// Stake is what a player of an unrated match stands to gain or lose.
type Stake struct {
	UserID string
	Team   int
	Rating float64
	RD     float64
	// IfWin and IfLoss are the player's rating change if their own team wins or loses.
	IfWin  float64
	IfLoss float64
}

// MatchDetail returns a match of a guild with its rating changes, or the
// stakes when it is not rated yet (/match, the match page and the API).
func (s *Service) MatchDetail(ctx context.Context, guildID string, id int64) (MatchDetail, error) {
	m, err := s.Match(ctx, guildID, id)
	if err != nil {
		return MatchDetail{}, err
	}
	q, err := s.store.Queue(ctx, m.QueueID)
	if err != nil {
		return MatchDetail{}, err
	}
	model, err := modelFor(q)
	if err != nil {
		return MatchDetail{}, err
	}
	d := MatchDetail{Match: m, Queue: q, Names: map[string]string{}}
	if m.State == StateOpen {
		dr, err := s.store.Draft(ctx, m.ID)
		switch {
		case ErrorCode(err) == CodeNotFound:
		case err != nil:
			return MatchDetail{}, err
		case dr.State != DraftDone:
			d.Draft = dr
			d.Match.Teams, d.Match.PTeam1, d.Match.PRaw = [2][]string{dr.Team(1), dr.Team(2)}, 0, 0
			for _, st := range dr.Seats {
				d.Names[st.UserID] = st.Name
			}
			return d, nil
		}
	}
	for _, u := range m.Players() {
		if p, err := s.store.Player(ctx, guildID, u); err == nil {
			d.Names[u] = p.Name
		}
	}
	if m.State.Rated() {
		cs, err := s.store.MatchChanges(ctx, id)
		if err != nil {
			return MatchDetail{}, err
		}
		d.Changes = deltas(model, cs)
		return d, nil
	}
	rs, err := s.store.Ratings(ctx, Key{QueueID: m.QueueID, SeasonID: m.SeasonID}, m.Players())
	if err != nil {
		return MatchDetail{}, err
	}
	d.Stakes = stakes(model, m, rs, s.now())
	return d, nil
}

func stakes(model rating.Model, m Match, rs []Rating, at time.Time) []Stake {
	state := func(u string) rating.State {
		for _, r := range rs {
			if r.UserID == u {
				return r.State
			}
		}
		return model.New()
	}
	var teams [2][]rating.State
	for t := range 2 {
		for _, u := range m.Teams[t] {
			teams[t] = append(teams[t], state(u))
		}
	}
	outcome := func(score float64) [2][]rating.State {
		a, b := slices.Clone(teams[0]), slices.Clone(teams[1])
		model.Update(a, b, score, at)
		return [2][]rating.State{a, b}
	}
	win1, win2 := outcome(1), outcome(0)
	var out []Stake
	for t := range 2 {
		ifWin, ifLoss := win1, win2
		if t == 1 {
			ifWin, ifLoss = win2, win1
		}
		for i, u := range m.Teams[t] {
			r, dev := model.Display(teams[t][i])
			w, _ := model.Display(ifWin[t][i])
			l, _ := model.Display(ifLoss[t][i])
			out = append(out, Stake{UserID: u, Team: t + 1, Rating: r, RD: dev, IfWin: w - r, IfLoss: l - r})
		}
	}
	return out
}

// Matches lists a guild's matches by f (newest first).
func (s *Service) Matches(ctx context.Context, f MatchFilter) ([]Match, error) {
	f.Limit = clampLimit(f.Limit, 20, 500)
	return s.store.Matches(ctx, f)
}

// Outcome is a report from the reporter's side.
type Outcome string

// Outcomes of /report.
const (
	Win  Outcome = "win"
	Loss Outcome = "loss"
	Tie  Outcome = "draw"
)

// winnerFor turns a side's outcome into the match's winner value.
func winnerFor(team int, o Outcome) (int, error) {
	switch o {
	case Win:
		return team, nil
	case Loss:
		return 3 - team, nil
	case Tie:
		return Draw, nil
	}
	return 0, Errorf(CodeInvalid, "outcome must be win, loss or draw, not %q", o)
}

// lockPlayerMatch locks match id of the guild, or the actor's active match when id is 0.
func lockPlayerMatch(ctx context.Context, tx Tx, guildID, userID string, id int64) (Match, error) {
	return lockPlayerMatchBy(ctx, tx, guildID, userID, id, tx.LockMatch)
}

// lockPlayerMatchBy is lockPlayerMatch that locks the match with lock.
func lockPlayerMatchBy(ctx context.Context, tx Tx, guildID, userID string, id int64, lock func(context.Context, int64) (Match, error)) (Match, error) {
	if id == 0 {
		ms, err := tx.Matches(ctx, MatchFilter{GuildID: guildID, UserID: userID, States: []MatchState{StateOpen, StateReported}, Limit: 1})
		if err != nil {
			return Match{}, err
		}
		if len(ms) == 0 {
			return Match{}, Errorf(CodeNotFound, "you have no open match; give its ID")
		}
		id = ms[0].ID
	}
	m, err := lock(ctx, id)
	if err != nil {
		return Match{}, err
	}
	if m.GuildID != guildID {
		return Match{}, Errorf(CodeNotFound, "match %d not found", id)
	}
	return m, nil
}

// inPlayerMatch runs f in a transaction on the locked match of the guild
// that lockPlayerMatch finds for the actor, and names op in its errors. A
// rated write f returns ends the transaction (Store.InRatedTx).
func (s *Service) inPlayerMatch(ctx context.Context, op string, actor Actor, guildID string, matchID int64, f func(tx Tx, m Match) (MatchResult, *RatedWrite, error)) (MatchResult, error) {
	return s.inPlayerMatchBy(ctx, op, actor, guildID, matchID, Tx.LockMatch, f)
}

// inPlayerMatchBy is inPlayerMatch that locks the match with lock.
func (s *Service) inPlayerMatchBy(ctx context.Context, op string, actor Actor, guildID string, matchID int64, lock func(Tx, context.Context, int64) (Match, error), f func(tx Tx, m Match) (MatchResult, *RatedWrite, error)) (MatchResult, error) {
	var res MatchResult
	saved, err := s.store.InRatedTx(ctx, func(tx Tx) (*RatedWrite, error) {
		m, err := lockPlayerMatchBy(ctx, tx, guildID, actor.UserID, matchID, func(ctx context.Context, id int64) (Match, error) { return lock(tx, ctx, id) })
		if err != nil {
			return nil, err
		}
		var w *RatedWrite
		res, w, err = f(tx, m)
		return w, err
	})
	if err != nil {
		return MatchResult{}, fmt.Errorf("ladder: %s: %w", op, err)
	}
	if saved.ID != 0 {
		res.Match = saved
	}
	return res, nil
}

// Report records a player's result of their match (id 0: their open match).
// The first report waits for the other side (docs/spec.md 5); a report from the
// other side with the same result confirms and rates the match at once, a
// conflicting one disputes it. Repeating a report answers AlreadyDone.
func (s *Service) Report(ctx context.Context, actor Actor, guildID string, matchID int64, o Outcome) (MatchResult, error) {
	return s.inPlayerMatch(ctx, "report", actor, guildID, matchID, func(tx Tx, m Match) (MatchResult, *RatedWrite, error) {
		team := m.Team(actor.UserID)
		if team == 0 {
			return MatchResult{}, nil, Errorf(CodeForbidden, "you are not a player of match %d", m.ID)
		}
		winner, err := winnerFor(team, o)
		if err != nil {
			return MatchResult{}, nil, err
		}
		if err := refuseUntilStarted(ctx, tx, m); err != nil {
			return MatchResult{}, nil, err
		}
		now := s.now()
		switch m.State {
		case StateOpen:
			g, err := tx.Guild(ctx, guildID)
			if err != nil {
				return MatchResult{}, nil, err
			}
			m.State, m.ReportedBy, m.ReportedWinner = StateReported, actor.UserID, winner
			m.PlayedAt, m.Deadline = now, now.Add(g.ConfirmWindow)
			return MatchResult{Match: m}, nil, tx.UpdateMatch(ctx, m)
		case StateReported:
			reporterTeam := m.Team(m.ReportedBy)
			switch {
			case m.ReportedWinner == winner && reporterTeam == team:
				return MatchResult{Match: m, AlreadyDone: true}, nil, nil
			case reporterTeam == team:
				m.ReportedBy, m.ReportedWinner = actor.UserID, winner
				return MatchResult{Match: m}, nil, tx.UpdateMatch(ctx, m)
			case m.ReportedWinner == winner:
				m.State, m.Winner = StateConfirmed, winner
				return s.prepareExisting(ctx, tx, m)
			default:
				m.State, m.DisputedBy = StateDisputed, actor.UserID
				r := conflictingReason(actor.UserID, o)
				m.DisputeReason, m.DisputeReasonCode = r.Text(), r.Code()
				if err := tx.UpdateMatch(ctx, m); err != nil {
					return MatchResult{}, nil, err
				}
				return MatchResult{Match: m}, nil, emitMatch(ctx, tx, EventMatchDisputed, m, now)
			}
		case StateConfirmed, StateResolved:
			if m.Winner == winner {
				return MatchResult{Match: m, AlreadyDone: true}, nil, nil
			}
			return MatchResult{}, nil, Errorf(CodeConflict, "match %d is already rated with another result; dispute it or ask a moderator", m.ID)
		case StateDisputed:
			return MatchResult{Match: m, AlreadyDone: true}, nil, nil
		}
		return MatchResult{}, nil, Errorf(CodeConflict, "match %d is %s", m.ID, m.State)
	})
}

// Confirm accepts the other side's report and rates the match. Only a player
// of the other team (or a moderator) may confirm; confirming again answers AlreadyDone.
//
// The match, its ladder and its players' rows are locked in one read
// (LockMatchLadder), so that a confirm costs that read and the rated write:
// the common case is a reported match that this confirm rates.
func (s *Service) Confirm(ctx context.Context, actor Actor, guildID string, matchID int64) (MatchResult, error) {
	var (
		l    Ladder
		rows []Rating
	)
	lock := func(tx Tx, ctx context.Context, id int64) (Match, error) {
		m, lad, rs, err := tx.LockMatchLadder(ctx, id)
		l, rows = lad, rs
		return m, err
	}
	return s.inPlayerMatchBy(ctx, "confirm", actor, guildID, matchID, lock, func(tx Tx, m Match) (MatchResult, *RatedWrite, error) {
		team := m.Team(actor.UserID)
		if team == 0 && !actor.Moderator {
			return MatchResult{}, nil, Errorf(CodeForbidden, "you are not a player of match %d", m.ID)
		}
		switch m.State {
		case StateReported:
			if team != 0 && team == m.Team(m.ReportedBy) {
				return MatchResult{}, nil, Errorf(CodeForbidden, "the other team must confirm match %d", m.ID)
			}
			m.State, m.Winner = StateConfirmed, m.ReportedWinner
			return s.rate(ctx, tx, l, rows, m, "")
		case StateConfirmed, StateResolved:
			return MatchResult{Match: m, AlreadyDone: true}, nil, nil
		case StateOpen:
			return MatchResult{}, nil, Errorf(CodeConflict, "match %d has no report to confirm yet", m.ID)
		}
		return MatchResult{}, nil, Errorf(CodeConflict, "match %d is %s", m.ID, m.State)
	})
}

// ConfirmExpired confirms every reported match whose confirm window has
// passed (the auto-confirm job, docs/spec.md 5) and returns what it rated.
func (s *Service) ConfirmExpired(ctx context.Context) ([]MatchResult, error) {
	due, err := s.store.Matches(ctx, MatchFilter{States: []MatchState{StateReported}, DueBefore: s.now(), Limit: 500})
	if err != nil {
		return nil, fmt.Errorf("ladder: confirm expired: %w", err)
	}
	var out []MatchResult
	for _, d := range due {
		var res MatchResult
		saved, err := s.store.InRatedTx(ctx, func(tx Tx) (*RatedWrite, error) {
			res = MatchResult{}
			// As Confirm: the match, its ladder and its players' rows in one read.
			m, l, rows, err := tx.LockMatchLadder(ctx, d.ID)
			if err != nil {
				return nil, err
			}
			if m.State != StateReported || m.Deadline.After(s.now()) {
				res.Match, res.AlreadyDone = m, true
				return nil, nil
			}
			m.State, m.Winner = StateConfirmed, m.ReportedWinner
			var w *RatedWrite
			res, w, err = s.rate(ctx, tx, l, rows, m, "")
			return w, err
		})
		if saved.ID != 0 {
			res.Match = saved
		}
		if err != nil {
			return out, fmt.Errorf("ladder: confirm expired match %d: %w", d.ID, err)
		}
		if !res.AlreadyDone {
			out = append(out, res)
		}
	}
	return out, nil
}

// Dispute contests a reported match: it waits for a moderator. reason is
// required and passes CheckReason, as every reason does; evidence, when
// given, must be an http(s) link.
func (s *Service) Dispute(ctx context.Context, actor Actor, guildID string, matchID int64, reason, evidence string) (MatchResult, error) {
	reason, err := CheckReason(reason)
	if err != nil {
		return MatchResult{}, err
	}
	evidence = strings.TrimSpace(evidence)
	if reason == "" {
		return MatchResult{}, Errorf(CodeInvalid, "a dispute needs a reason of at most 1000 characters")
	}
	if evidence != "" {
		u, err := url.Parse(evidence)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(evidence) > 500 {
			return MatchResult{}, Errorf(CodeInvalid, "evidence must be an http(s) link")
		}
	}
	return s.inPlayerMatch(ctx, "dispute", actor, guildID, matchID, unrated(func(tx Tx, m Match) (MatchResult, error) {
		if m.Team(actor.UserID) == 0 {
			return MatchResult{}, Errorf(CodeForbidden, "you are not a player of match %d", m.ID)
		}
		switch m.State {
		case StateDisputed:
			return MatchResult{Match: m, AlreadyDone: true}, nil
		case StateReported, StateOpen:
			m.State, m.DisputedBy, m.DisputeReason, m.DisputeReasonCode, m.Evidence = StateDisputed, actor.UserID, reason, "", evidence
			if m.PlayedAt.IsZero() {
				m.PlayedAt = s.now()
			}
			if err := tx.UpdateMatch(ctx, m); err != nil {
				return MatchResult{}, err
			}
			return MatchResult{Match: m}, emitMatch(ctx, tx, EventMatchDisputed, m, s.now())
		case StateConfirmed, StateResolved:
			return MatchResult{}, Errorf(CodeConflict, "match %d is already rated; ask a moderator to correct it", m.ID)
		}
		return MatchResult{}, Errorf(CodeConflict, "match %d is %s", m.ID, m.State)
	}))
}

// Cancel ends a match that was never played (open or reported) without
// rating it. Players of the match and moderators may cancel an open match;
// a reported one only a moderator. The reason, if any, passes CheckReason.
func (s *Service) Cancel(ctx context.Context, actor Actor, guildID string, matchID int64, reason string) (MatchResult, error) {
	reason, err := CheckReason(reason)
	if err != nil {
		return MatchResult{}, err
	}
	return s.inPlayerMatch(ctx, "cancel", actor, guildID, matchID, unrated(func(tx Tx, m Match) (MatchResult, error) {
		if !actor.Moderator && (m.Team(actor.UserID) == 0 || m.State != StateOpen) {
			return MatchResult{}, Errorf(CodeForbidden, "only a moderator can cancel match %d", m.ID)
		}
		switch m.State {
		case StateCancelled:
			return MatchResult{Match: m, AlreadyDone: true}, nil
		case StateOpen, StateReported, StateDisputed:
			before := m
			m.State, m.ResolvedBy = StateCancelled, actor.UserID
			if err := tx.UpdateMatch(ctx, m); err != nil {
				return MatchResult{}, err
			}
			return MatchResult{Match: m}, audit(ctx, tx, AuditEntry{GuildID: guildID, ActorID: actor.UserID, Action: "match.cancel", MatchID: m.ID, Reason: reason, At: s.now()}, matchAudit(before), matchAudit(m))
		}
		return MatchResult{}, Errorf(CodeConflict, "match %d is %s and cannot be cancelled", m.ID, m.State)
	}))
}

// unrated adapts an action that never rates a match to inPlayerMatch.
func unrated(f func(tx Tx, m Match) (MatchResult, error)) func(Tx, Match) (MatchResult, *RatedWrite, error) {
	return func(tx Tx, m Match) (MatchResult, *RatedWrite, error) {
		res, err := f(tx, m)
		return res, nil, err
	}
}

// matchAudit is the part of a match the audit log keeps.
func matchAudit(m Match) map[string]any {
	return map[string]any{"state": m.State, "winner": m.Winner, "teams": m.Teams}
}

// lockGuildMatch locks match matchID for the rest of tx and checks that it
// belongs to the guild: a match of another guild is "not found", as if it
// did not exist, so IDs cannot be probed across guilds.
func lockGuildMatch(ctx context.Context, tx MatchStore, guildID string, matchID int64) (Match, error) {
	m, err := tx.LockMatch(ctx, matchID)
	if err != nil {
		return Match{}, err
	}
	if m.GuildID != guildID {
		return Match{}, Errorf(CodeNotFound, "match %d not found", matchID)
	}
	return m, nil
}
