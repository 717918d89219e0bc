package ladder

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"
)

// PickMode is how a queue's formed group is split into teams
// (docs/spec.md 10).
type PickMode string

// Pick modes. Balanced is the matcher's optimal split; captains lets the
// two highest-rated players of the group draft their teams.
const (
	PickBalanced PickMode = "balanced"
	PickCaptains PickMode = "captains"
)

// ParsePickMode reads a pick mode as /config queue set takes it.
func ParsePickMode(s string) (PickMode, error) {
	switch m := PickMode(s); m {
	case PickBalanced, PickCaptains:
		return m, nil
	}
	return "", Errorf(CodeInvalid, "pick_mode must be balanced or captains, not %q", s)
}

// DraftState is where a captains draft is. It moves waiting → picking →
// done, each step under the match's row lock.
type DraftState string

// Draft states. Waiting holds the draft while the match's ready check
// runs: nobody picks for a player who may not be there.
const (
	DraftWaiting DraftState = "waiting"
	DraftPicking DraftState = "picking"
	DraftDone    DraftState = "done"
)

// Draft is a formed match whose captains pick their teams. It is a row
// with the current pick's deadline, so the deadline job makes a pick that
// ran out even after downtime, and the select menu carries the match and
// the pick number, so it keeps working after a restart and a stale menu
// (a pick already made) changes nothing.
type Draft struct {
	MatchID int64
	GuildID string
	QueueID int64
	State   DraftState
	// Deadline is when the current pick is made for its captain; zero
	// unless picking.
	Deadline time.Time
	// Seats are every player of the match. The captains hold team 1 and
	// 2 from the start (Pick 0); the others hold team 0 until picked.
	Seats []DraftSeat
}

// DraftSeat is one player of a draft.
type DraftSeat struct {
	UserID string
	// Name is the player's display name as last seen ("" when unknown),
	// for the captains' menu, which cannot show mentions.
	Name string
	// Rating is the displayed rating when the match formed: what the
	// captains see, and what a pick made for a captain goes by.
	Rating float64
	// Team is 1 or 2 once picked (captains from the start), 0 before.
	Team int
	// Pick numbers the picks from 1 in the order they were made; 0 for
	// captains and players not picked yet.
	Pick int
	// Auto marks a pick the deadline made, or the last player left,
	// who goes to the captain whose turn it is without a choice.
	Auto bool
}

// Captain returns the captain of team t (1 or 2).
func (d Draft) Captain(t int) string {
	for _, s := range d.Seats {
		if s.Team == t && s.Pick == 0 {
			return s.UserID
		}
	}
	return ""
}

// Picks is how many players have been picked so far.
func (d Draft) Picks() int {
	n := 0
	for _, s := range d.Seats {
		if s.Pick > 0 {
			n++
		}
	}
	return n
}

// Pool returns the players not picked yet, best rated first (ties by user
// ID, so every process agrees on "the best rated left").
func (d Draft) Pool() []DraftSeat {
	var out []DraftSeat
	for _, s := range d.Seats {
		if s.Team == 0 {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b DraftSeat) int {
		return cmp.Or(cmp.Compare(b.Rating, a.Rating), cmp.Compare(a.UserID, b.UserID))
	})
	return out
}

// Team returns team t's players: the captain, then the picks in order.
func (d Draft) Team(t int) []string {
	var picked []DraftSeat
	for _, s := range d.Seats {
		if s.Team == t {
			picked = append(picked, s)
		}
	}
	slices.SortFunc(picked, func(a, b DraftSeat) int { return cmp.Compare(a.Pick, b.Pick) })
	out := make([]string, len(picked))
	for i, s := range picked {
		out[i] = s.UserID
	}
	return out
}

// Turn is the team whose captain makes pick number Picks()+1.
func (d Draft) Turn() int { return PickTurn(d.Picks()) }

// PickTurn is the team that makes the pick after n picks: a snake order,
// 1-2-2-1, that starts with team 2. Team 1's captain is the higher rated
// of the two, so the first pick goes to the weaker captain, and each
// captain then picks twice in a row, so neither team gets two of the best
// players in a row.
func PickTurn(n int) int {
	if ((n+1)/2)%2 == 0 {
		return 2
	}
	return 1
}

// seat returns the seat of userID and whether it is there.
func (d Draft) seat(userID string) (int, bool) {
	i := slices.IndexFunc(d.Seats, func(s DraftSeat) bool { return s.UserID == userID })
	return i, i >= 0
}

// DraftStore is the persistence of captains drafts, one of the concerns of Tx.
type DraftStore interface {
	// AddDraft stores a draft with its seats.
	AddDraft(ctx context.Context, d Draft) error
	// Draft returns a match's draft with its players' names; CodeNotFound
	// when it has none.
	Draft(ctx context.Context, matchID int64) (Draft, error)
	// SetDraftPick records that userID was picked as pick number pick
	// for team.
	SetDraftPick(ctx context.Context, matchID int64, s DraftSeat) error
	// SetDraftState moves a draft from state from to state to with a new
	// deadline (zero: none) and answers false when it was not in from.
	SetDraftState(ctx context.Context, matchID int64, from, to DraftState, deadline time.Time) (bool, error)
	// DueDrafts returns up to limit drafts of open matches whose current
	// pick's deadline is not after t, oldest deadline first.
	DueDrafts(ctx context.Context, t time.Time, limit int) ([]int64, error)
}

// openDraft starts a captains draft for a match the queue just formed,
// in the matchmaking transaction, when the queue picks by captains. The
// two highest-rated players captain; the draft waits for the ready check
// when one runs, and starts at once otherwise. A queue of one-player teams
// has nothing to pick, so it gets no draft.
func (s *Service) openDraft(ctx context.Context, tx Tx, m Match, l Lobby, rc ReadyCheck, now time.Time) (Draft, error) {
	if !drafted(l, Queue{TeamSize: len(m.Teams[0])}) {
		return Draft{}, nil
	}
	ratings, err := displayRatings(ctx, tx, m)
	if err != nil {
		return Draft{}, err
	}
	d := Draft{MatchID: m.ID, GuildID: m.GuildID, QueueID: m.QueueID, State: DraftPicking, Deadline: now.Add(l.PickWindow)}
	if rc.MatchID != 0 && rc.State == ReadyPending {
		d.State, d.Deadline = DraftWaiting, time.Time{}
	}
	names, err := tx.PlayerNames(ctx, m.GuildID, m.Players())
	if err != nil {
		return Draft{}, err
	}
	for _, u := range m.Players() {
		d.Seats = append(d.Seats, DraftSeat{UserID: u, Name: names[u], Rating: ratings[u]})
	}
	pool := d.Pool()
	for t := range 2 {
		i, _ := d.seat(pool[t].UserID)
		d.Seats[i].Team = t + 1
	}
	if err := tx.AddDraft(ctx, d); err != nil {
		return Draft{}, err
	}
	return d, audit(ctx, tx, AuditEntry{GuildID: m.GuildID, ActorID: System.UserID, Action: "draft.open", MatchID: m.ID, At: now},
		nil, map[string]any{"captains": []string{d.Captain(1), d.Captain(2)}, "state": d.State})
}

// drafted reports whether queue q's matches are drafted by captains: in
// captains mode, with teams of two or more (one-player teams have nothing
// to pick).
func drafted(l Lobby, q Queue) bool {
	return l.PickMode == PickCaptains && q.TeamSize >= 2
}

// startDraft moves a waiting draft to picking when the match's ready
// check passes; a match without a draft is left as it is.
func (s *Service) startDraft(ctx context.Context, tx Tx, m Match, now time.Time) (Draft, error) {
	d, err := tx.Draft(ctx, m.ID)
	if ErrorCode(err) == CodeNotFound {
		return Draft{}, nil
	}
	if err != nil || d.State != DraftWaiting {
		return d, err
	}
	l, err := tx.Lobby(ctx, m.QueueID)
	if err != nil {
		return Draft{}, err
	}
	d.State, d.Deadline = DraftPicking, now.Add(l.PickWindow)
	if ok, err := tx.SetDraftState(ctx, m.ID, DraftWaiting, DraftPicking, d.Deadline); err != nil || !ok {
		if err == nil {
			err = Errorf(CodeConflict, "the draft of match %d changed meanwhile; try again", m.ID)
		}
		return Draft{}, err
	}
	return d, nil
}

// DraftResult answers a pick and each pick the deadline job makes.
type DraftResult struct {
	Match Match
	Draft Draft
	// Picked are the picks this call made, in order: the captain's own,
	// then any the last player left made without a choice.
	Picked []DraftSeat
	// TimedOut says the pick's deadline had passed, so the best rated
	// player left was picked for the captain instead of their choice.
	TimedOut bool
	// AlreadyDone says the pick changed nothing: that pick number was
	// already made (a double click, a stale menu) or the draft is over.
	AlreadyDone bool
}

// Pick records the captain's choice of userID as pick number pick+1 of
// match matchID's draft (pick is the number of picks made when the menu
// was shown). The match row's lock orders a pick against the deadline job
// and a second click, across processes, so each pick is made once. When
// the last player is picked the teams are written with their win chance
// and the match is on.
func (s *Service) Pick(ctx context.Context, actor Actor, guildID string, matchID int64, pick int, userID string) (DraftResult, error) {
	var res DraftResult
	err := s.store.InTx(ctx, func(tx Tx) error {
		res = DraftResult{}
		m, d, err := lockDraft(ctx, tx, guildID, matchID)
		if err != nil {
			return err
		}
		res.Match, res.Draft = m, d
		if _, ok := d.seat(actor.UserID); !ok {
			return Errorf(CodeForbidden, "you are not a player of match %d", m.ID)
		}
		switch {
		case m.State != StateOpen:
			return Errorf(CodeConflict, "match %d is %s; its draft is over", m.ID, m.State)
		case d.State == DraftWaiting:
			return Errorf(CodeConflict, "match %d's ready check is still running: the captains pick once everyone is ready", m.ID)
		case d.State == DraftDone || d.Picks() != pick:
			res.AlreadyDone = true
			return nil
		}
		captain := d.Captain(d.Turn())
		if actor.UserID != captain {
			if actor.UserID == d.Captain(3-d.Turn()) {
				return Errorf(CodeForbidden, "it is <@%s>'s pick, not yours; wait for your turn", captain)
			}
			return Errorf(CodeForbidden, "only the captains pick: <@%s> and <@%s>", d.Captain(1), d.Captain(2))
		}
		now := s.now()
		if !d.Deadline.After(now) {
			res.TimedOut = true
			return s.pickAndAdvance(ctx, tx, &res, d.Pool()[0].UserID, true, now)
		}
		// The value comes from the client: echo only a player of the match.
		i, ok := d.seat(userID)
		switch {
		case !ok:
			return Errorf(CodeInvalid, "that player is not available to pick; choose one of the players left")
		case d.Seats[i].Team != 0:
			return Errorf(CodeInvalid, "<@%s> is not available to pick: already in team %d; choose one of the players left", userID, d.Seats[i].Team)
		}
		return s.pickAndAdvance(ctx, tx, &res, userID, false, now)
	})
	if err != nil {
		return DraftResult{}, fmt.Errorf("ladder: pick: %w", err)
	}
	return res, nil
}

// lockDraft locks match matchID of the guild and reads its draft.
func lockDraft(ctx context.Context, tx Tx, guildID string, matchID int64) (Match, Draft, error) {
	m, err := lockGuildMatch(ctx, tx, guildID, matchID)
	if err != nil {
		return Match{}, Draft{}, err
	}
	d, err := tx.Draft(ctx, m.ID)
	if ErrorCode(err) == CodeNotFound {
		return Match{}, Draft{}, Errorf(CodeConflict, "match %d has no captains draft", m.ID)
	}
	return m, d, err
}

// pickAndAdvance makes one pick for the captain whose turn it is, then
// gives the last player left to whoever's turn it is (there is nothing to
// choose), and ends the draft when nobody is left: the drafted teams are
// written with their win chance. The next pick gets a fresh deadline.
func (s *Service) pickAndAdvance(ctx context.Context, tx Tx, res *DraftResult, userID string, auto bool, now time.Time) error {
	d, m := res.Draft, res.Match
	for {
		i, _ := d.seat(userID)
		team := d.Turn()
		d.Seats[i].Team, d.Seats[i].Pick, d.Seats[i].Auto = team, d.Picks()+1, auto
		if err := tx.SetDraftPick(ctx, m.ID, d.Seats[i]); err != nil {
			return err
		}
		res.Picked = append(res.Picked, d.Seats[i])
		err := audit(ctx, tx, AuditEntry{GuildID: m.GuildID, ActorID: d.Captain(team), Action: "draft.pick", MatchID: m.ID, Target: userID, At: now},
			nil, map[string]any{"team": team, "pick": d.Seats[i].Pick, "auto": auto})
		if err != nil {
			return err
		}
		pool := d.Pool()
		if len(pool) != 1 {
			break
		}
		userID, auto = pool[0].UserID, true
	}
	res.Draft = d
	if len(d.Pool()) > 0 {
		l, err := tx.Lobby(ctx, m.QueueID)
		if err != nil {
			return err
		}
		res.Draft.Deadline = now.Add(l.PickWindow)
		return s.moveDraft(ctx, tx, m.ID, DraftPicking, DraftPicking, res.Draft.Deadline)
	}
	if err := s.moveDraft(ctx, tx, m.ID, DraftPicking, DraftDone, time.Time{}); err != nil {
		return err
	}
	res.Draft.State, res.Draft.Deadline = DraftDone, time.Time{}
	return s.seatDraftedTeams(ctx, tx, res, now)
}

// moveDraft is SetDraftState that fails when the draft moved meanwhile.
func (s *Service) moveDraft(ctx context.Context, tx Tx, matchID int64, from, to DraftState, deadline time.Time) error {
	ok, err := tx.SetDraftState(ctx, matchID, from, to, deadline)
	if err == nil && !ok {
		err = Errorf(CodeConflict, "the draft of match %d changed meanwhile; try again", matchID)
	}
	return err
}

// seatDraftedTeams writes a finished draft's teams into its match with
// the win chance of those teams, audited as the match's new teams.
func (s *Service) seatDraftedTeams(ctx context.Context, tx Tx, res *DraftResult, now time.Time) error {
	before := res.Match
	m := before
	m.Teams = [2][]string{res.Draft.Team(1), res.Draft.Team(2)}
	var err error
	if m.PTeam1, m.PRaw, err = s.predict(ctx, tx, m, now); err != nil {
		return err
	}
	if err := tx.SetMatchTeams(ctx, m); err != nil {
		return err
	}
	if err := tx.UpdateMatch(ctx, m); err != nil {
		return err
	}
	res.Match = m
	// match.formed waited for the teams (NewMatch.Drafted).
	if err := emitMatch(ctx, tx, EventMatchFormed, m, now); err != nil {
		return err
	}
	return audit(ctx, tx, AuditEntry{GuildID: m.GuildID, ActorID: System.UserID, Action: "draft.done", MatchID: m.ID, At: now},
		matchAudit(before), matchAudit(m))
}

// ExpireDraftPicks makes every pick whose deadline has passed for its
// captain: the best rated player left (the draft job, on the ready-check
// tick). Deadlines are rows, so a pick that ran out while every process
// was down is made at the next start; the next pick then gets a full
// window, so a captain is never skipped for time they could not use.
func (s *Service) ExpireDraftPicks(ctx context.Context) ([]DraftResult, error) {
	var due []int64
	err := s.store.InTx(ctx, func(tx Tx) error {
		var err error
		due, err = tx.DueDrafts(ctx, s.now(), 200)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("ladder: expire draft picks: %w", err)
	}
	var out []DraftResult
	for _, id := range due {
		var res DraftResult
		err := s.store.InTx(ctx, func(tx Tx) error {
			res = DraftResult{}
			m, err := tx.LockMatch(ctx, id)
			if err != nil {
				return err
			}
			d, err := tx.Draft(ctx, id)
			if err != nil {
				return err
			}
			now := s.now()
			res.Match, res.Draft = m, d
			if m.State != StateOpen || d.State != DraftPicking || d.Deadline.After(now) {
				res.AlreadyDone = true
				return nil
			}
			res.TimedOut = true
			return s.pickAndAdvance(ctx, tx, &res, d.Pool()[0].UserID, true, now)
		})
		if err != nil {
			return out, fmt.Errorf("ladder: expire draft pick of match %d: %w", id, err)
		}
		if !res.AlreadyDone {
			out = append(out, res)
		}
	}
	return out, nil
}

// Draft returns a match's captains draft; CodeNotFound when it has none.
func (s *Service) Draft(ctx context.Context, guildID string, matchID int64) (Draft, error) {
	var d Draft
	err := s.store.InTx(ctx, func(tx Tx) error {
		var err error
		d, err = tx.Draft(ctx, matchID)
		return err
	})
	if err != nil {
		return Draft{}, fmt.Errorf("ladder: draft: %w", err)
	}
	if d.GuildID != guildID {
		return Draft{}, Errorf(CodeNotFound, "match %d has no captains draft", matchID)
	}
	return d, nil
}

// refuseWhileDrafting refuses what needs the teams set — a report, a
// substitute, a no-show, a rebalance — while the captains still pick.
func refuseWhileDrafting(ctx context.Context, tx Tx, m Match) error {
	d, err := tx.Draft(ctx, m.ID)
	switch {
	case ErrorCode(err) == CodeNotFound:
		return nil
	case err != nil:
		return err
	case d.State != DraftDone:
		return Errorf(CodeConflict, "match %d has not started: the captains are still picking the teams", m.ID)
	}
	return nil
}
