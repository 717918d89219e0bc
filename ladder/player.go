package ladder

import (
	"time"

	"github.com/ladderbot/ladderbot/ladder/rating"
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
	// Provisional is kept with the row for the same reason (SPEC 4).
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
// +n after n wins in a row, −n after n losses, 0 after a draw.
type Record struct {
	Wins   int
	Losses int
	Draws  int
	Streak int
}

// IsProvisional reports SPEC 4's placement rule: fewer than placement rated
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
}

// ratingGXE is the GXE a leaderboard shows beside r: on the Glicko scale it
// reads the stored display columns, elsewhere the state (rating.DisplayedGXE).
func ratingGXE(m rating.Model, r Rating) float64 {
	return rating.DisplayedGXE(m, r.Display, r.DisplayDev, r.State)
}
