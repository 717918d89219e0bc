package joins

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// RematchMode is how a queue offers rematches.
type RematchMode string

// Rematch modes (the rematch setting).
const (
	// RematchOff offers none (the default).
	RematchOff RematchMode = "off"
	// RematchSame plays the rematch with the same teams.
	RematchSame RematchMode = "same"
	// RematchRebalance splits the same players again by their new ratings.
	RematchRebalance RematchMode = "rebalance"
)

// Settings are one queue's join settings; zero values and "" are off.
type Settings struct {
	QueueID int64  `json:"queue_id"`
	GuildID string `json:"-"`
	// MinRating and MaxRating bound the player's displayed rating in the
	// queue (0: no bound).
	MinRating float64 `json:"min_rating"`
	MaxRating float64 `json:"max_rating"`
	// MinGames is how many rated games a player needs in GamesQueueID
	// (0: the queue itself).
	MinGames     int   `json:"min_games"`
	GamesQueueID int64 `json:"games_queue_id"`
	// RequiredRole must be held, ExcludedRole must not be (role IDs).
	RequiredRole string `json:"required_role"`
	ExcludedRole string `json:"excluded_role"`
	// MinAccountDays is the least age of the player's Discord account.
	MinAccountDays int `json:"min_account_days"`
	// Hours are the open hours as ParseHours reads them ("" always open)
	// in TimeZone.
	Hours    string      `json:"hours"`
	TimeZone string      `json:"timezone"`
	Rematch  RematchMode `json:"rematch"`
}

// Bounds of the settings.
const (
	MaxRatingBound = 100000
	MaxMinGames    = 10000
	MaxAccountDays = 3650
)

// Defaults are a queue's settings until a moderator changes them: no
// requirement, always open, no rematch.
func Defaults(q ladder.Queue) Settings {
	return Settings{QueueID: q.ID, GuildID: q.GuildID, TimeZone: "UTC", Rematch: RematchOff}
}

// HasRequirements reports whether any requirement is on.
func (s Settings) HasRequirements() bool {
	return s.MinRating != 0 || s.MaxRating != 0 || s.MinGames != 0 || s.RequiredRole != "" || s.ExcludedRole != "" || s.MinAccountDays != 0
}

// OpenHours parses the stored hours.
func (s Settings) OpenHours() (Hours, error) { return ParseHours(s.Hours, s.TimeZone) }

// Validate checks the settings and names the first bad one.
func (s Settings) Validate() error {
	for _, b := range []struct {
		name string
		v    float64
	}{{"min_rating", s.MinRating}, {"max_rating", s.MaxRating}} {
		if math.IsNaN(b.v) || b.v < 0 || b.v > MaxRatingBound {
			return ladder.Errorf(ladder.CodeInvalid, "%s must be from 0 (off) to %d", b.name, MaxRatingBound)
		}
	}
	if s.MinRating != 0 && s.MaxRating != 0 && s.MaxRating < s.MinRating {
		return ladder.Errorf(ladder.CodeInvalid, "max_rating (%g) must not be below min_rating (%g)", s.MaxRating, s.MinRating)
	}
	if s.MinGames < 0 || s.MinGames > MaxMinGames {
		return ladder.Errorf(ladder.CodeInvalid, "min_games must be from 0 (off) to %d", MaxMinGames)
	}
	if s.MinAccountDays < 0 || s.MinAccountDays > MaxAccountDays {
		return ladder.Errorf(ladder.CodeInvalid, "min_account_days must be from 0 (off) to %d", MaxAccountDays)
	}
	for _, r := range []struct{ name, v string }{{"required_role", s.RequiredRole}, {"excluded_role", s.ExcludedRole}} {
		if r.v != "" && !roleID(r.v) {
			return ladder.Errorf(ladder.CodeInvalid, "%s must be a Discord role, not %q", r.name, r.v)
		}
	}
	if s.RequiredRole != "" && s.RequiredRole == s.ExcludedRole {
		return ladder.Errorf(ladder.CodeInvalid, "required_role and excluded_role cannot be the same role: nobody could join")
	}
	if _, err := s.OpenHours(); err != nil {
		return err
	}
	switch s.Rematch {
	case RematchOff, RematchSame, RematchRebalance:
	default:
		return ladder.Errorf(ladder.CodeInvalid, "rematch must be off, same or rebalance, not %q", s.Rematch)
	}
	return nil
}

// Setting names, as the commands' options, the token API's fields and
// the audit log write them.
var settingNames = []string{"min_rating", "max_rating", "min_games", "games_queue", "required_role", "excluded_role",
	"min_account_days", "hours", "timezone", "rematch"}

// SettingNames returns the names Apply reads.
func SettingNames() []string { return append([]string(nil), settingNames...) }

// IsSetting reports whether name is one of the join settings.
func IsSetting(name string) bool {
	for _, n := range settingNames {
		if n == name {
			return true
		}
	}
	return false
}

// Apply sets the named settings from text, as /config queue
// requirements, /config queue schedule and the token API give them;
// queueID resolves games_queue's name in the same guild. An unknown name
// or a value that does not parse is a CodeInvalid error naming it, and s
// is left as it was. Roles take "" (or "none") to turn them off.
func Apply(s *Settings, values map[string]string, queueID func(name string) (int64, error)) error {
	next := *s
	for name, v := range values {
		if err := ladder.CheckText(name, v); err != nil {
			return err
		}
		v = strings.TrimSpace(v)
		var err error
		switch name {
		case "min_rating":
			next.MinRating, err = parseFloat(name, v)
		case "max_rating":
			next.MaxRating, err = parseFloat(name, v)
		case "min_games":
			next.MinGames, err = parseInt(name, v)
		case "min_account_days":
			next.MinAccountDays, err = parseInt(name, v)
		case "games_queue":
			next.GamesQueueID = 0
			if v != "" {
				next.GamesQueueID, err = queueID(v)
			}
		case "required_role":
			next.RequiredRole = noneIsEmpty(v)
		case "excluded_role":
			next.ExcludedRole = noneIsEmpty(v)
		case "hours":
			var h Hours
			if h, err = ParseHours(v, "UTC"); err == nil {
				next.Hours = h.String()
			}
		case "timezone":
			var loc *time.Location
			if loc, err = ParseTimeZone(v); err == nil {
				next.TimeZone = loc.String()
			}
		case "rematch":
			next.Rematch = RematchMode(strings.ToLower(v))
		default:
			return ladder.Errorf(ladder.CodeInvalid, "no join setting called %q", name)
		}
		if err != nil {
			return err
		}
	}
	if err := next.Validate(); err != nil {
		return err
	}
	*s = next
	return nil
}

func noneIsEmpty(v string) string {
	if strings.EqualFold(v, "none") || strings.EqualFold(v, "off") {
		return ""
	}
	return v
}

func parseFloat(name, v string) (float64, error) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, ladder.Errorf(ladder.CodeInvalid, "%s must be a number, not %q", name, v)
	}
	return f, nil
}

func parseInt(name, v string) (int, error) {
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0, ladder.Errorf(ladder.CodeInvalid, "%s must be a whole number, not %q", name, v)
	}
	return int(n), nil
}

// Values writes the settings as Apply reads them; gamesQueue is the name
// of GamesQueueID ("" for the queue itself).
func (s Settings) Values(gamesQueue string) map[string]string {
	return map[string]string{
		"min_rating": formatFloat(s.MinRating), "max_rating": formatFloat(s.MaxRating),
		"min_games": strconv.Itoa(s.MinGames), "games_queue": gamesQueue,
		"required_role": s.RequiredRole, "excluded_role": s.ExcludedRole,
		"min_account_days": strconv.Itoa(s.MinAccountDays),
		"hours":            s.Hours, "timezone": s.TimeZone, "rematch": string(s.Rematch),
	}
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// roleID reports whether s can be a role's Discord ID: a snowflake of at
// least 15 digits (every role is younger than Discord's first IDs of
// that length), so a typed count or rating is not taken for one.
func roleID(s string) bool { return len(s) >= 15 && ladder.IsSnowflake(s) }
