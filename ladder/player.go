package ladder

import (
	"context"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"time"
)

// Player is a Discord user within a guild.
type Player struct {
	GuildID string
	UserID  string
	// Name is the display name last seen; kept fresh by every interaction.
	Name string
}

// Rating is a player's stored row in one ladder (queue, season): the model
// state and the record. Base is the state the player entered the season with
// (new or carried over), from which a replay starts.
type Rating struct {
	QueueID  int64
	SeasonID int64
	UserID   string
	State    rating.State
	Base     rating.State
	Record
	// Stale is set by the daily job after StaleDays without a rated match.
	Stale bool
	// Display and DisplayDev are the model's Display of State, kept so the
	// leaderboard sorts by an index.
	Display    float64
	DisplayDev float64
	// Provisional is kept with the row for the same reason (docs/spec.md 4).
	Provisional bool
}

// Key returns the ladder the rating belongs to.
func (r Rating) Key() Key { return Key{QueueID: r.QueueID, SeasonID: r.SeasonID} }

// Key names one ladder: a queue within a season.
type Key struct {
	QueueID  int64
	SeasonID int64
}

// Record is a player's wins, losses and draws in one ladder, and the streak:
// +n after n wins in a row, −n after n losses, 0 after a draw. Best is the
// longest run of wins in the ladder so far, the current one included.
type Record struct {
	Wins   int
	Losses int
	Draws  int
	Streak int
	Best   int
}

// IsProvisional reports docs/spec.md 4's placement rule: fewer than placement rated
// matches, or a deviation above ProvisionalRD.
func IsProvisional(games, placement int, dev float64) bool {
	return games < placement || dev > ProvisionalRD
}

// record applies one result to a player's record and streak; score is the
// player's own score (1, 0.5, 0).
func (r *Record) add(score float64) {
	switch score {
	case 1:
		r.Wins++
		r.Streak = max(r.Streak, 0) + 1
		r.Best = max(r.Best, r.Streak)
	case 0:
		r.Losses++
		r.Streak = min(r.Streak, 0) - 1
	default:
		r.Draws++
		r.Streak = 0
	}
}

// Standing is one row of a leaderboard or a player's own line: the rating as
// the queue's model displays it, with division, GXE and record.
type Standing struct {
	// Rank is the position on the leaderboard, 0 when the player is hidden
	// (provisional or stale).
	Rank        int
	UserID      string
	Name        string
	Rating      float64
	RD          float64
	GXE         float64
	Division    string
	Wins        int
	Losses      int
	Draws       int
	Streak      int
	Games       int
	Provisional bool
	Stale       bool
	// LastMatch is the time of the last rated match; zero when none.
	LastMatch time.Time
}

// HistoryPoint is one step of a player's rating history: after match MatchID
// (0 for a moderator adjustment) at At, the player's displayed rating and
// deviation, and the change it made.
type HistoryPoint struct {
	MatchID int64
	At      time.Time
	Rating  float64
	RD      float64
	Delta   float64
}

// Profile is what /profile, the player page and the API show of a player.
type Profile struct {
	GuildID  string
	Queue    Queue
	Season   Season
	Standing Standing
	// Placement is how many of the guild's placement games the player has played.
	Placement int
	// PlacementGames is the guild's setting, for "placement k/5".
	PlacementGames int
	// History is oldest first, at most the requested number of latest points.
	History []HistoryPoint
	// Recent is the latest matches, newest first.
	Recent []Match
	// Listing says why the player is not ranked and what would rank them.
	Listing Listing
}

// ratingGXE is the GXE a leaderboard shows beside r: on the Glicko scale it
// reads the stored display columns, elsewhere the state (rating.DisplayedGXE).
func ratingGXE(m rating.Model, r Rating) float64 {
	return rating.DisplayedGXE(m, r.Display, r.DisplayDev, r.State)
}

// RatingStore keeps players and their rating rows, and writes rated results.
type RatingStore interface {
	// UpsertPlayers adds players and refreshes non-empty names.
	UpsertPlayers(ctx context.Context, ps []Player) error
	Player(ctx context.Context, guildID, userID string) (Player, error)

	// LockRatings returns the existing rows of userIDs in ladder k, locked
	// for update until the transaction ends, ordered by user ID.
	LockRatings(ctx context.Context, k Key, userIDs []string) ([]Rating, error)
	// InsertRatings adds rows that do not exist yet and ignores the others.
	InsertRatings(ctx context.Context, guildID string, rs []Rating) error
	// SaveRatings writes State, Record, Stale, Display, DisplayDev and
	// Provisional of existing rows.
	SaveRatings(ctx context.Context, rs []Rating) error
	// SaveBases writes Base of existing rows: the state a player entered
	// the season with, changed when a correction changes the season before.
	SaveBases(ctx context.Context, rs []Rating) error
	// Ratings returns the rows of userIDs in ladder k (all rows when userIDs
	// is nil), ordered by user ID.
	Ratings(ctx context.Context, k Key, userIDs []string) ([]Rating, error)
	// Board returns one leaderboard page of listed (neither provisional nor
	// stale) rows by Display descending, then user ID descending.
	Board(ctx context.Context, q BoardQuery) ([]BoardRow, error)
	// CountAbove counts the listed rows of q's ladder and range that sort
	// before (display, userID).
	CountAbove(ctx context.Context, q BoardQuery, display float64, userID string) (int, error)
	// MarkStale flags rows of the guild's ladders whose last match is before
	// cutoff and returns how many it flagged. The last match is the latest
	// played of the row's log, not only State.Last: a match rated late (a
	// dispute resolved weeks on) is rated at the time it was played and
	// moves Last back, though its players have played since.
	MarkStale(ctx context.Context, guildID string, seasonID int64, cutoff time.Time) (int, error)
	// PlayedSince returns, ordered, those of userIDs who have a match in
	// ladder k's log played at or after since (see MarkStale).
	PlayedSince(ctx context.Context, k Key, userIDs []string, since time.Time) ([]string, error)
	// RefreshProvisional recomputes Provisional of a guild's rows for a new
	// placement setting.
	RefreshProvisional(ctx context.Context, guildID string, placement int) error

	// Ladder returns a guild's settings, its queue called queue ("" the
	// default, oldest queue) and its running season in one read.
	Ladder(ctx context.Context, guildID, queue string) (Ladder, error)
	// LadderOf returns the ladder of a queue and season (running or not)
	// with its guild's settings in one read.
	LadderOf(ctx context.Context, queueID, seasonID int64) (Ladder, error)
	// LockLadder is Ladder and LockRatings of that ladder in one read:
	// the rows of userIDs (sorted) that exist, locked until the
	// transaction ends, ordered by user ID.
	LockLadder(ctx context.Context, guildID, queue string, userIDs []string) (Ladder, []Rating, error)
	// LockMatchLadder is LockMatch, then LadderOf the match's queue and
	// season and the existing rating rows of its players, locked and
	// ordered by user ID, in one read where the store can: a confirm then
	// costs that read and its write.
	LockMatchLadder(ctx context.Context, id int64) (Match, Ladder, []Rating, error)
	// SaveRated writes a rated match in one go: it inserts w.Match (ID 0)
	// with its players or updates it, gives it the next Seq of the log,
	// inserts w.Changes with that Seq and the match ID, writes w.Ratings
	// (as SaveRatings) and, with an IdempotencyKey, records it (CodeConflict
	// if the key is taken). It returns the match with ID and Seq.
	SaveRated(ctx context.Context, w RatedWrite) (Match, error)
	// PlayerNames returns the display names of the guild's known players
	// among userIDs in one read; unknown players are absent from the map.
	PlayerNames(ctx context.Context, guildID string, userIDs []string) (map[string]string, error)
}
