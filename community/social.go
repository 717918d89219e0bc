package community

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// Predictions and MVP votes: what spectators and players add to a match.
// Both are raw rows (who called which side, who voted whom); the
// predictors' points and the MVP counts per queue and season are rows
// derived from them and the matches' results, kept in step inside the
// transaction that changes either (the rated write, a correction's
// replay, a vote), so a correction or a void changes them at once and
// exactly, and reading them costs the same however long the season.
// Verify recounts them from the raw rows and compares.

// PredictWindow is how long after a match forms predictions are taken
// (with the ready check, if any, inside it).
const PredictWindow = 5 * time.Minute

// MVPWindow is how long after a match is rated its players may vote.
const MVPWindow = 24 * time.Hour

// Settings are a queue's community settings.
type Settings struct {
	QueueID int64
	// Predictions lets anyone not playing call a side of a formed match.
	Predictions bool
	// MVPVote lets the players of a rated match vote its MVP.
	MVPVote bool
}

// Prediction is one user's call of a match's winner.
type Prediction struct {
	MatchID int64
	UserID  string
	Team    int
	// Chance is the win chance the match showed for Team.
	Chance float64
	At     time.Time
}

// Points is what a correct prediction earns: 100 × (1 − the chance shown
// for the side called), rounded; calling the favourite at 70 % earns 30,
// calling the upset at 30 % earns 70. A wrong call or a draw earns 0.
func Points(chance float64) int { return int(math.Round(100 * (1 - chance))) }

// PredictorRow is a predictions leaderboard line.
type PredictorRow struct {
	UserID  string
	Name    string
	Points  int
	Correct int
	Called  int
}

// MVPRow counts a player's MVP titles (matches where nobody of the match
// got more votes, at least one) and votes received.
type MVPRow struct {
	UserID string
	Name   string
	MVPs   int
	Votes  int
}

// SocialStore keeps the settings, predictions and MVP votes.
type SocialStore interface {
	CommunitySettings(ctx context.Context, queueID int64) (Settings, error)
	SaveCommunitySettings(ctx context.Context, guildID string, s Settings, actor ladder.Actor, at time.Time) error
	// SavePrediction inserts or replaces u's call of the match.
	SavePrediction(ctx context.Context, guildID string, p Prediction) error
	// SaveMVPVote inserts a vote; a second vote of the same voter on the
	// match, or a vote on a match no longer rated (voided since it was
	// read), is a CodeConflict error.
	SaveMVPVote(ctx context.Context, guildID string, matchID int64, voter, votee string, at time.Time) error
	// Predictors ranks a ladder's predictors by points from the rated
	// matches' final results.
	Predictors(ctx context.Context, guildID string, queueID, seasonID int64, limit int) ([]PredictorRow, error)
	// MVPs ranks a ladder's players by MVP titles over rated matches;
	// userID, when set, gives that player's row only.
	MVPs(ctx context.Context, guildID string, queueID, seasonID int64, userID string, limit int) ([]MVPRow, error)
	// Tallies returns a guild's stored counts (rows of zeros left out),
	// or, fromLog, the counts recounted from the raw rows and results.
	Tallies(ctx context.Context, guildID string, fromLog bool) ([]Tally, error)
}

// TallyStore keeps the predictors' points and the MVP counts inside the
// transaction that changes a match's result.
type TallyStore interface {
	// Recount brings the points and MVP counts of the matches' ladders in
	// line with the matches' current results: each prediction and vote
	// counts while its match is rated (Points, MVPRow), once.
	Recount(ctx context.Context, matchIDs []int64) error
}

// Rated recounts the matches of rated writes, in their transaction
// (storage's extension point of the rated write): a match rated for the
// first time earns its predictors their points.
func Rated(ctx context.Context, tx TallyStore, ws []ladder.RatedWrite) error {
	ids := make([]int64, 0, len(ws))
	for _, w := range ws {
		ids = append(ids, w.Match.ID)
	}
	if err := tx.Recount(ctx, ids); err != nil {
		return fmt.Errorf("community: recount: %w", err)
	}
	return nil
}

// Updated recounts a logged match a moderator corrected or voided, in
// the correction's transaction: its predictors gain or lose their points
// and its votes their titles at once.
func Updated(ctx context.Context, tx TallyStore, m ladder.Match) error {
	if err := tx.Recount(ctx, []int64{m.ID}); err != nil {
		return fmt.Errorf("community: recount: %w", err)
	}
	return nil
}

// Tally is one player's derived counts on a ladder: as a predictor
// (Points, Correct, Called) and as an MVP (MVPs, Votes).
type Tally struct {
	QueueID, SeasonID       int64
	UserID                  string
	Points, Correct, Called int
	MVPs, Votes             int
}

// Verify recounts a guild's predictors' points and MVP counts from the raw
// predictions and votes and the matches' results, and lists every stored
// count that differs.
func Verify(ctx context.Context, store SocialStore, guildID string) ([]string, error) {
	got, err := store.Tallies(ctx, guildID, false)
	if err != nil {
		return nil, fmt.Errorf("community: verify: %w", err)
	}
	want, err := store.Tallies(ctx, guildID, true)
	if err != nil {
		return nil, fmt.Errorf("community: verify: %w", err)
	}
	byKey := func(ts []Tally) map[string]string {
		out := make(map[string]string, len(ts))
		for _, t := range ts {
			out[fmt.Sprintf("queue %d season %d player %s", t.QueueID, t.SeasonID, t.UserID)] = fmt.Sprintf("%+v", t)
		}
		return out
	}
	diffs := diffKeyed("", byKey(got), byKey(want))
	slices.Sort(diffs)
	return diffs, nil
}

// Settings returns a queue's community settings (both off when never set).
func (s *Service) Settings(ctx context.Context, guildID, queue string) (Settings, ladder.Queue, error) {
	l, err := s.resolve(ctx, guildID, queue, 0)
	if err != nil {
		return Settings{}, ladder.Queue{}, err
	}
	st, err := s.social.CommunitySettings(ctx, l.Queue.ID)
	return st, l.Queue, err
}

// SettingsOf is Settings by queue ID, for the match paths.
func (s *Service) SettingsOf(ctx context.Context, queueID int64) (Settings, error) {
	return s.social.CommunitySettings(ctx, queueID)
}

// SetSettings changes a queue's community settings; nil leaves one as it
// is. Moderators only; audited.
func (s *Service) SetSettings(ctx context.Context, actor ladder.Actor, guildID, queue string, predictions, mvp *bool) (Settings, error) {
	if !actor.Moderator {
		return Settings{}, ladder.Errorf(ladder.CodeForbidden, "only moderators change queue settings")
	}
	st, q, err := s.Settings(ctx, guildID, queue)
	if err != nil {
		return Settings{}, err
	}
	st.QueueID = q.ID
	if predictions != nil {
		st.Predictions = *predictions
	}
	if mvp != nil {
		st.MVPVote = *mvp
	}
	if err := s.social.SaveCommunitySettings(ctx, guildID, st, actor, s.now().UTC()); err != nil {
		return Settings{}, err
	}
	return st, nil
}

// Predict records userID's call (team 1 or 2) of an open match while its
// window runs. Players of the match, other guilds' matches, queues without
// predictions, matches whose captains still pick the teams and closed
// windows are refused. Calling again changes the call.
func (s *Service) Predict(ctx context.Context, guildID, userID string, matchID int64, team int) (Prediction, error) {
	if team != 1 && team != 2 {
		return Prediction{}, ladder.Errorf(ladder.CodeInvalid, "team must be 1 or 2, not %d", team)
	}
	// In captains mode the teams are not known until the captains have
	// picked them, nor the chance a call is paid by. A draft once done
	// stays done, so the match read after it has the drafted teams.
	switch d, err := s.ladder.Draft(ctx, guildID, matchID); {
	case ladder.ErrorCode(err) == ladder.CodeNotFound:
	case err != nil:
		return Prediction{}, err
	case d.State != ladder.DraftDone:
		return Prediction{}, ladder.Errorf(ladder.CodeConflict, "match %d has not started: the captains are still picking the teams", matchID)
	}
	m, err := s.ladder.Match(ctx, guildID, matchID)
	if err != nil {
		return Prediction{}, err
	}
	st, err := s.social.CommunitySettings(ctx, m.QueueID)
	if err != nil {
		return Prediction{}, err
	}
	now := s.now().UTC()
	switch {
	case !st.Predictions:
		return Prediction{}, ladder.Errorf(ladder.CodeInvalid, "predictions are off in this match's queue")
	case slices.Contains(m.Players(), userID):
		return Prediction{}, ladder.Errorf(ladder.CodeForbidden, "you play match #%d: only others may predict it", m.ID)
	case m.State != ladder.StateOpen || now.Sub(m.CreatedAt) > PredictWindow:
		return Prediction{}, ladder.Errorf(ladder.CodeConflict, "predictions on match #%d are closed", m.ID)
	}
	chance := m.PTeam1
	if team == 2 {
		chance = 1 - chance
	}
	p := Prediction{MatchID: m.ID, UserID: userID, Team: team, Chance: chance, At: now}
	if err := s.social.SavePrediction(ctx, guildID, p); err != nil {
		return Prediction{}, err
	}
	return p, nil
}

// VoteMVP records voter's MVP vote for votee on a rated match (matchID 0:
// the voter's latest rated match). Both must have played it; nobody votes
// themselves, twice, after MVPWindow, or where the queue has no MVP vote.
func (s *Service) VoteMVP(ctx context.Context, guildID, voter string, matchID int64, votee string) (ladder.Match, error) {
	if voter == votee {
		return ladder.Match{}, ladder.Errorf(ladder.CodeInvalid, "vote for another player of the match, not yourself")
	}
	if matchID == 0 {
		ms, err := s.store.CommunityMatches(ctx, MatchFilter{GuildID: guildID, UserID: voter, Limit: 1})
		if err != nil {
			return ladder.Match{}, err
		}
		if len(ms) == 0 {
			return ladder.Match{}, ladder.Errorf(ladder.CodeNotFound, "you have no rated match to vote on")
		}
		matchID = ms[0].ID
	}
	m, err := s.ladder.Match(ctx, guildID, matchID)
	if err != nil {
		return ladder.Match{}, err
	}
	st, err := s.social.CommunitySettings(ctx, m.QueueID)
	if err != nil {
		return ladder.Match{}, err
	}
	switch {
	case !st.MVPVote:
		return ladder.Match{}, ladder.Errorf(ladder.CodeInvalid, "the MVP vote is off in this match's queue")
	case !slices.Contains(m.Players(), voter):
		return ladder.Match{}, ladder.Errorf(ladder.CodeForbidden, "only the players of match #%d vote its MVP", m.ID)
	case !slices.Contains(m.Players(), votee):
		return ladder.Match{}, ladder.Errorf(ladder.CodeInvalid, "<@%s> did not play match #%d", votee, m.ID)
	case !m.State.Rated():
		return ladder.Match{}, ladder.Errorf(ladder.CodeConflict, "match #%d is not rated: the MVP vote opens with its result", m.ID)
	case s.now().Sub(m.RatedAt) > MVPWindow:
		return ladder.Match{}, ladder.Errorf(ladder.CodeConflict, "the MVP vote of match #%d closed a day after its result", m.ID)
	}
	if err := s.social.SaveMVPVote(ctx, guildID, m.ID, voter, votee, s.now().UTC()); err != nil {
		return ladder.Match{}, err
	}
	return m, nil
}

// Predictors returns a ladder's predictions leaderboard.
func (s *Service) Predictors(ctx context.Context, guildID, queue string, season, limit int) ([]PredictorRow, Ladder, error) {
	l, err := s.resolve(ctx, guildID, queue, season)
	if err != nil {
		return nil, Ladder{}, err
	}
	rows, err := s.social.Predictors(ctx, guildID, l.Queue.ID, l.Season.ID, limit)
	return rows, l, err
}

// PlayerMVPs returns a player's MVP titles and votes on a ladder.
func (s *Service) PlayerMVPs(ctx context.Context, guildID, queue, userID string, season int) (MVPRow, error) {
	l, err := s.resolve(ctx, guildID, queue, season)
	if err != nil {
		return MVPRow{}, err
	}
	rows, err := s.social.MVPs(ctx, guildID, l.Queue.ID, l.Season.ID, userID, 1)
	if err != nil || len(rows) == 0 {
		return MVPRow{UserID: userID}, err
	}
	return rows[0], nil
}
