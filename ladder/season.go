package ladder

import (
	"context"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"time"
)

// Season is one period of a guild's ladder; ratings restart from a carry of
// the previous season's (docs/spec.md 4). Number counts from 1 within the guild.
type Season struct {
	ID        int64
	GuildID   string
	Number    int
	StartedAt time.Time
	// EndedAt is the zero time while the season is running.
	EndedAt time.Time
}

// Running reports whether the season has not ended.
func (s Season) Running() bool { return s.EndedAt.IsZero() }

// SeasonResult is one player's frozen final standing of a closed season.
type SeasonResult struct {
	SeasonID int64
	QueueID  int64
	UserID   string
	Name     string
	Rank     int
	Rating   float64
	RD       float64
	Division string
	// Badge is "top3", "top30", "top100" or "".
	Badge  string
	Wins   int
	Losses int
	Draws  int
}

// Badge returns the badge of a final rank (docs/spec.md 4: top 3/30/100).
func Badge(rank int) string {
	switch {
	case rank < 1:
		return ""
	case rank <= 3:
		return "top3"
	case rank <= 30:
		return "top30"
	case rank <= 100:
		return "top100"
	}
	return ""
}

// CarryOver returns a player's first state of a new season from their final
// state of the previous one: R' = r0 + α(R − r0), RD' = rd0 (docs/spec.md 4), where
// fresh is the model's new-player state. Games restart at 0; Last is kept so
// models that grow RD while idle keep counting.
func CarryOver(prev, fresh rating.State, alpha float64) rating.State {
	return rating.State{
		Rating: fresh.Rating + alpha*(prev.Rating-fresh.Rating),
		Dev:    fresh.Dev,
		Last:   prev.Last,
	}
}

// SeasonStore keeps seasons and their frozen standings.
type SeasonStore interface {
	CurrentSeason(ctx context.Context, guildID string) (Season, error)
	Season(ctx context.Context, guildID string, number int) (Season, error)
	Seasons(ctx context.Context, guildID string) ([]Season, error)
	CreateSeason(ctx context.Context, s Season) (Season, error)
	EndSeason(ctx context.Context, seasonID int64, at time.Time) error
	SaveSeasonResults(ctx context.Context, rs []SeasonResult) error
	SeasonResults(ctx context.Context, seasonID, queueID int64) ([]SeasonResult, error)
	// DeleteSeasonResults removes a queue's frozen standings of a season,
	// before a correction freezes them again.
	DeleteSeasonResults(ctx context.Context, seasonID, queueID int64) error
}
