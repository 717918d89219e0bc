package formats

import (
	"strings"

	"github.com/ladderbot/ladderbot/ladder"
)

// Mode is how a queue's matches get their map (the map_pick setting).
type Mode string

// Map pick modes.
const (
	// ModeNone picks no map: matches are as they were.
	ModeNone Mode = "none"
	// ModeVote lets every player pick from a menu within the queue's
	// pick_window; most votes wins, a tie is settled by the pick's seed.
	ModeVote Mode = "vote"
	// ModeBan lets the two teams' banners (the captains, else each
	// team's highest rated) ban in turn until one map is left.
	ModeBan Mode = "ban"
	// ModeRandom draws the map from the pool by the pick's seed.
	ModeRandom Mode = "random"
	// ModeLoser draws the first game's map as random does; in a series
	// the loser of each game picks the next one's.
	ModeLoser Mode = "loser"
)

// ParseMode reads a map pick mode as /config queue format takes it.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.TrimSpace(s)); m {
	case ModeNone, ModeVote, ModeBan, ModeRandom, ModeLoser:
		return m, nil
	}
	return "", ladder.Errorf(ladder.CodeInvalid, "map_pick must be none, vote, ban, random or loser, not %q", s)
}

// Rating is how a queue rates a series (the series_rating setting).
type Rating string

// Series ratings.
const (
	// RateSeries rates a series once, with its winner.
	RateSeries Rating = "series"
	// RateGames rates each game in order.
	RateGames Rating = "games"
)

// Settings are a queue's format settings.
type Settings struct {
	QueueID int64
	MapPick Mode
	// BestOf is 1 (single games), 3 or 5.
	BestOf       int
	SeriesRating Rating
}

// DefaultSettings are a queue's settings until an admin changes them:
// no map pick, so the queue plays as it always did.
func DefaultSettings(queueID int64) Settings {
	return Settings{QueueID: queueID, MapPick: ModeNone, BestOf: 1, SeriesRating: RateSeries}
}

// Validate checks the settings and names the first bad one.
func (s Settings) Validate() error {
	if _, err := ParseMode(string(s.MapPick)); err != nil {
		return err
	}
	if s.BestOf != 1 && s.BestOf != 3 && s.BestOf != 5 {
		return ladder.Errorf(ladder.CodeInvalid, "best_of must be 1, 3 or 5, not %d", s.BestOf)
	}
	if s.SeriesRating != RateSeries && s.SeriesRating != RateGames {
		return ladder.Errorf(ladder.CodeInvalid, "series_rating must be series or games, not %q", s.SeriesRating)
	}
	return nil
}

// Map is one map (or mode) of a queue's pool.
type Map struct {
	QueueID int64
	Name    string
	// ImageURL is an optional picture shown with the chosen map.
	ImageURL string
	// Position orders the pool: the order maps were added.
	Position int
}

// MaxMaps is how many maps a pool holds: a select menu offers 25.
const MaxMaps = 25

// maxImageURL bounds an image URL (Discord's embed image URL limit).
const maxImageURL = 2048

// validateMap checks a map an admin adds.
func validateMap(m Map) error {
	if err := ladder.ValidateMapName(m.Name, false); err != nil {
		return err
	}
	if m.ImageURL == "" {
		return nil
	}
	if len(m.ImageURL) > maxImageURL || !strings.HasPrefix(m.ImageURL, "https://") || strings.ContainsAny(m.ImageURL, " \t\r\n<>\"") ||
		ladder.CheckText("image", m.ImageURL) != nil {
		return ladder.Errorf(ladder.CodeInvalid, "image must be an https:// URL of at most %d characters", maxImageURL)
	}
	return nil
}
