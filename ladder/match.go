package ladder

import (
	"context"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// MatchState is where a match is in its lifecycle (docs/spec.md 5).
type MatchState string

// The states of docs/spec.md 5. Confirmed and resolved matches are rated; cancelled
// and voided ones never are.
const (
	StateOpen      MatchState = "open"
	StateReported  MatchState = "reported"
	StateConfirmed MatchState = "confirmed"
	StateDisputed  MatchState = "disputed"
	StateResolved  MatchState = "resolved"
	StateCancelled MatchState = "cancelled"
	StateVoided    MatchState = "voided"
)

// MessageID names the state's text in the catalogs (package i18n renders
// a coded error's arguments that name their text in the user's language).
func (s MatchState) MessageID() string { return "state." + string(s) }

// Rated reports whether matches in state s count for ratings.
func (s MatchState) Rated() bool { return s == StateConfirmed || s == StateResolved }

// Active reports whether a match in state s still occupies its players:
// they may not queue or be in another match.
func (s MatchState) Active() bool { return s == StateOpen || s == StateReported }

// Valid reports whether s is one of the known states.
func (s MatchState) Valid() bool {
	switch s {
	case StateOpen, StateReported, StateConfirmed, StateDisputed, StateResolved, StateCancelled, StateVoided:
		return true
	}
	return false
}

// Winner values: team 1, team 2, or a draw. NoResult marks a match without one.
const (
	Draw     = 0
	NoResult = -1
)

// Match is one entry of a guild's match log. Teams[0] is team 1.
type Match struct {
	ID       int64
	GuildID  string
	QueueID  int64
	SeasonID int64
	Teams    [2][]string
	State    MatchState
	// Winner is 1, 2, Draw (0), or NoResult (−1) while there is none.
	Winner int
	// Seq orders rated matches within the ladder (the replay order); 0 until rated.
	Seq int64
	// PTeam1 is the chance shown that team 1 wins: the model's prediction
	// when the match formed or was recorded, calibrated on the queue's log
	// up to then.
	PTeam1 float64
	// PRaw is that prediction before calibration, the input the
	// calibration mapped to PTeam1; 0 on matches stored before it was kept.
	PRaw float64
	// Quality is the matchmaking quality Q, 0 when not formed by the queue.
	Quality   float64
	CreatedAt time.Time
	// PlayedAt is when the match was played: the first report, or the time an
	// API result or an import gives. The rating models use it.
	PlayedAt time.Time
	// ReportedBy and ReportedWinner are the first report; Deadline is when it confirms itself.
	ReportedBy     string
	ReportedWinner int
	Deadline       time.Time
	// DisputedBy, DisputeReason and Evidence describe a dispute.
	DisputedBy    string
	DisputeReason string
	// DisputeReasonCode is the code of a dispute the ladder opened
	// (Reason.Code), "" for a player's own reason.
	DisputeReasonCode string
	Evidence          string
	// RatedAt is when the match was last rated, ResolvedBy the moderator who
	// resolved, corrected or voided it.
	RatedAt    time.Time
	ResolvedBy string
	// Source says where the match came from: "queue", "api", "import", "mod".
	Source string
	// ChannelID is where the match was announced, for follow-ups.
	ChannelID string
	// Map is the map or mode the match was played on ("" when its queue
	// picks none): chosen by the queue's map pick, or given by the API or
	// an imported history.
	Map string
	// Score is a series' score, team 1's wins first ("2-1"); "" for a
	// single game.
	Score string
	// Maps are the maps of a series' games in order (series_games, not a
	// column of the match): set only where they are shown — a rated
	// series' webhook events and the match CSV export. Map stays the
	// first game's.
	Maps []string
}

// Team returns 1 or 2 for a player of the match, 0 otherwise.
func (m Match) Team(userID string) int {
	for t := range 2 {
		if slices.Contains(m.Teams[t], userID) {
			return t + 1
		}
	}
	return 0
}

// When is when the match was played, in UTC: its PlayedAt, or its
// creation while it is unplayed. The pages, the season's busiest hours and
// the integrity fold all place a match by it.
func (m Match) When() time.Time {
	if m.PlayedAt.IsZero() {
		return m.CreatedAt.UTC()
	}
	return m.PlayedAt.UTC()
}

// Players returns every player of the match, team 1 first.
func (m Match) Players() []string {
	return append(slices.Clone(m.Teams[0]), m.Teams[1]...)
}

// Score returns team 1's score for a winner: 1, 0.5 or 0.
func Score(winner int) float64 {
	switch winner {
	case 1:
		return 1
	case 2:
		return 0
	}
	return 0.5
}

// RatingChange is one row of a ladder's rating log: what match MatchID (or a
// moderator adjustment, MatchID 0) did to one player. Rows are ordered by Seq
// and replaying them reproduces the stored ratings.
type RatingChange struct {
	Seq      int64
	QueueID  int64
	SeasonID int64
	MatchID  int64
	UserID   string
	// Team is 1 or 2, 0 for an adjustment.
	Team int
	// Kind is "match", "set" or "reset".
	Kind   string
	Before rating.State
	After  rating.State
	// Record is the player's record before the change, so a replay can
	// start at any row.
	Record Record
	At     time.Time
}

// Actor is who asks the Service to do something. Moderator is decided by the
// caller (Manage Guild or the guild's moderator role) before the call.
type Actor struct {
	UserID    string
	Moderator bool
}

// System is the Actor of scheduled jobs, imports and the API.
var System = Actor{UserID: "system", Moderator: true}

// PlayerDelta is what a result did to one player's displayed rating.
type PlayerDelta struct {
	UserID string
	Team   int
	Rating float64
	RD     float64
	Delta  float64
}

// MatchResult answers an action on a match: the match after it, whether the
// action had already been done (nothing was written), and the rating changes
// it made, if it rated the match.
type MatchResult struct {
	Match       Match
	AlreadyDone bool
	Changes     []PlayerDelta
}

// AuditEntry is one moderator action (docs/spec.md 5): who, what, when, and the
// state before and after as JSON.
type AuditEntry struct {
	ID      int64
	GuildID string
	ActorID string
	Action  string
	MatchID int64
	Target  string
	Reason  string
	// ReasonCode is the code of a reason the ladder wrote (Reason.Code),
	// "" for a person's own words.
	ReasonCode string
	Before     string
	After      string
	At         time.Time
}

// MatchStore keeps matches and the rating log.
type MatchStore interface {
	// NextSeq returns the next position in the rating log; call it after
	// LockRatings so that the order of seqs is the order of updates.
	NextSeq(ctx context.Context) (int64, error)
	// CreateMatch inserts m and its players and returns it with its ID. A
	// player already in an active match gives a CodeConflict error.
	CreateMatch(ctx context.Context, m Match) (Match, error)
	Match(ctx context.Context, id int64) (Match, error)
	// LockMatch reads a match and locks it until the transaction ends.
	LockMatch(ctx context.Context, id int64) (Match, error)
	// LockMatches is LockMatch of several matches in one read: it locks
	// those of ids that exist, in ID order, and returns them in that
	// order.
	LockMatches(ctx context.Context, ids []int64) ([]Match, error)
	// UpdateMatch writes every mutable field of m (not its teams).
	UpdateMatch(ctx context.Context, m Match) error
	// Matches lists matches by f, newest first: by ID, except a ladder's
	// rated matches (States only rated, with QueueID and SeasonID, no
	// UserID, BeforeID or DueBefore), which come latest in the log first.
	Matches(ctx context.Context, f MatchFilter) ([]Match, error)
	// RatedMatches returns ladder k's rated matches with Seq ≥ fromSeq in Seq order.
	RatedMatches(ctx context.Context, k Key, fromSeq int64) ([]Match, error)
	// RatedMatchesAfter returns up to limit of ladder k's rated matches
	// with Seq > afterSeq, in Seq order: RatedMatches page by page.
	RatedMatchesAfter(ctx context.Context, k Key, afterSeq int64, limit int) ([]Match, error)

	InsertChanges(ctx context.Context, cs []RatingChange) error
	// Changes returns ladder k's log rows with Seq ≥ fromSeq, by Seq then user.
	Changes(ctx context.Context, k Key, fromSeq int64) ([]RatingChange, error)
	// MatchChangesBetween returns ladder k's log rows of matches (kind
	// "match") with fromSeq ≤ Seq ≤ toSeq, in log order.
	MatchChangesBetween(ctx context.Context, k Key, fromSeq, toSeq int64) ([]RatingChange, error)
	// DeleteChanges deletes the log rows of userIDs in ladder k with Seq ≥
	// fromSeq. Rows of other players stay: a replay rewrites only the rows
	// of the players it locked.
	DeleteChanges(ctx context.Context, k Key, fromSeq int64, userIDs []string) error
	// Adjustments returns ladder k's moderator rows (Kind other than "match") by Seq.
	Adjustments(ctx context.Context, k Key) ([]RatingChange, error)
	// PlayerChanges returns the latest limit rows of a player, oldest first.
	PlayerChanges(ctx context.Context, k Key, userID string, limit int) ([]RatingChange, error)
	MatchChanges(ctx context.Context, matchID int64) ([]RatingChange, error)
}

// ValidateMapName checks a map's name as pools, the API and imports take
// it: at most rating.MaxMapName bytes, not blank, under CheckText's rule
// (no control or bidi character); "" passes when optional (no map).
func ValidateMapName(name string, optional bool) error {
	if name == "" && optional {
		return nil
	}
	if strings.TrimSpace(name) == "" {
		return Errorf(CodeInvalid, "a map needs a name")
	}
	if len(name) > rating.MaxMapName || !utf8.ValidString(name) {
		return Errorf(CodeInvalid, "a map's name is at most %d bytes of text", rating.MaxMapName)
	}
	if err := CheckText("map name", name); err != nil {
		return err
	}
	return nil
}
