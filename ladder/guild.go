package ladder

import (
	"context"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"strings"
	"time"
)

// Guild is one Discord server's ladder and its settings (docs/spec.md 4, 5, 6).
// Channel and role IDs are Discord snowflakes; "" means not configured.
type Guild struct {
	ID string
	// ModeratorRoleID is the role allowed to use /mod besides Manage Guild.
	ModeratorRoleID string
	// AnnounceChannelID receives season standings and the weekly top 10.
	AnnounceChannelID string
	// LogChannelID, when set, receives moderator actions.
	LogChannelID string
	// PlacementGames is how many rated matches a player needs before leaving
	// placement (docs/spec.md 4, default 5).
	PlacementGames int
	// StaleDays is how long without a rated match flags a player stale (default 30).
	StaleDays int
	// SeasonSchedule is the cron schedule (UTC) that rolls seasons over; ""
	// means only moderators start and end seasons. Default quarterly.
	SeasonSchedule string
	// SeasonScheduleAt is when SeasonSchedule was last changed (UpdateGuild
	// sets it); the zero time when it was not changed since the guild was
	// made. A schedule set while a season runs counts from then (SeasonDue).
	SeasonScheduleAt time.Time
	// SeasonCarry is α of R' = r0 + α(R − r0) at a new season (default 0.5).
	SeasonCarry float64
	// ConfirmWindow is how long the other side has to answer a report before
	// it confirms itself (default 30 min).
	ConfirmWindow time.Duration
	// QueueTimeout is how long a queue entry waits before it is dropped (default 60 min).
	QueueTimeout time.Duration
	// Divisions are the leaderboard's bands, lowest first.
	Divisions []Division
	// WeeklyTop posts the top 10 to AnnounceChannelID once a week when true.
	WeeklyTop bool
	// Language is the language of the bot's posts to the guild's channels
	// (a catalog code of package i18n, such as "de"); "" follows the
	// guild's preferred locale. Replies to a user follow the user's client.
	Language string
	// PreferredLocale is the locale Discord says the guild prefers (its
	// Community setting), noted from its interactions: the language of its
	// posts when Language is "".
	PreferredLocale string
	CreatedAt       time.Time
}

// Defaults of a new guild (docs/spec.md 3, 4, 5).
const (
	DefaultPlacementGames = 5
	DefaultStaleDays      = 30
	DefaultSeasonSchedule = "0 0 1 1,4,7,10 *"
	DefaultSeasonCarry    = 0.5
	DefaultConfirmWindow  = 30 * time.Minute
	DefaultQueueTimeout   = 60 * time.Minute
	// ProvisionalRD is the deviation above which a player is provisional (docs/spec.md 4).
	ProvisionalRD = 100
	// DefaultQueueName is the name of the queue every guild starts with.
	DefaultQueueName = "2v2"
)

// NewGuild returns a guild with the specification's default settings.
func NewGuild(id string, now time.Time) Guild {
	return Guild{
		ID:             id,
		PlacementGames: DefaultPlacementGames,
		StaleDays:      DefaultStaleDays,
		SeasonSchedule: DefaultSeasonSchedule,
		SeasonCarry:    DefaultSeasonCarry,
		ConfirmWindow:  DefaultConfirmWindow,
		QueueTimeout:   DefaultQueueTimeout,
		Divisions:      DefaultDivisions(),
		CreatedAt:      now,
	}
}

// Validate checks the settings and returns a CodeInvalid error naming the
// first bad one.
func (g Guild) Validate() error {
	switch {
	case g.ID == "":
		return Errorf(CodeInvalid, "guild ID is empty")
	case len(g.Language) > 16 || CheckText("language", g.Language) != nil:
		return Errorf(CodeInvalid, "language %q is not a language code", g.Language)
	case len(g.PreferredLocale) > 16 || CheckText("locale", g.PreferredLocale) != nil:
		return Errorf(CodeInvalid, "locale %q is not a locale", g.PreferredLocale)
	case g.PlacementGames < 0 || g.PlacementGames > 100:
		return Errorf(CodeInvalid, "placement games must be from 0 to 100, not %d", g.PlacementGames)
	case g.StaleDays < 1 || g.StaleDays > 3650:
		return Errorf(CodeInvalid, "stale days must be from 1 to 3650, not %d", g.StaleDays)
	case !(g.SeasonCarry >= 0 && g.SeasonCarry <= 1):
		return Errorf(CodeInvalid, "season carry must be from 0 to 1, not %g", g.SeasonCarry)
	case g.ConfirmWindow < time.Minute || g.ConfirmWindow > 7*24*time.Hour:
		return Errorf(CodeInvalid, "confirm window must be from 1 minute to 7 days, not %s", g.ConfirmWindow)
	case g.QueueTimeout < time.Minute || g.QueueTimeout > 24*time.Hour:
		return Errorf(CodeInvalid, "queue timeout must be from 1 minute to 24 hours, not %s", g.QueueTimeout)
	}
	if strings.TrimSpace(g.SeasonSchedule) != "" {
		// A schedule that passed only the field count, or that names no
		// existing day, would stop the guild's season rollover.
		if _, err := ParseSchedule(g.SeasonSchedule); err != nil {
			return err
		}
	}
	return validateDivisions(g.Divisions)
}

// Division returns the name of the division of rating in this guild.
func (g Guild) Division(rating float64) string { return DivisionFor(g.Divisions, rating) }

// Queue is one ladder of a guild: a team size, a rating model with its
// parameters, and matchmaking settings (docs/spec.md 3). Ratings are kept per
// (queue, season).
type Queue struct {
	ID      int64
	GuildID string
	// Name is unique within the guild, e.g. "2v2".
	Name     string
	TeamSize int
	// Model is a NewModel name and Params its parameters (nil: defaults).
	Model  string
	Params map[string]float64
	// ChannelID is where formed matches are announced; "" means the channel
	// where /queue join was last used.
	ChannelID string
	// Matchmaking settings (docs/spec.md 3); zero values mean the defaults.
	QStart  float64
	QFloor  float64
	Buckets int
	Bucket  time.Duration
	Boost   float64
	RDMax   float64
	// PartyMaxWeight, PartyMedianWeight and OrdinalDeviations are seed
	// 003's party rating (matchmaking.Settings.PartyRating); both weights
	// 0, the default, keep the members' mean rating.
	PartyMaxWeight, PartyMedianWeight, OrdinalDeviations float64
	// BehaviourPairing, when above 0, is the number of queued players from
	// which players of low behaviour score are matched only with each
	// other (seed 002); 0, the default, is off.
	BehaviourPairing int
	// Disabled queues accept no new entries.
	Disabled bool
	// SelfTune lets the season-close job adopt constants fitted on the
	// queue's own log, by the adoption rule only; on for new queues.
	SelfTune  bool
	CreatedAt time.Time
}

// NewQueue returns a queue named name with team size k, the default model and
// the default matchmaking settings of docs/spec.md 3.
func NewQueue(guildID, name string, k int) Queue {
	return Queue{
		GuildID: guildID, Name: name, TeamSize: k, Model: rating.DefaultModel,
		QStart: 0.80, QFloor: 0.50, Buckets: 5, Bucket: 30 * time.Second, Boost: 0.5, RDMax: 350, OrdinalDeviations: 3,
		// New queues learn their community's constants: a self-tuning round
		// at each season's close, adopted only by the adoption rule
		// (selftune.go). Queues that exist keep their setting.
		SelfTune: true,
	}
}

// Validate checks the queue's name and settings, including that its model
// and parameters are known, and returns a CodeInvalid error naming the
// first bad one.
func (q Queue) Validate() error {
	if err := validQueueName(q.Name); err != nil {
		return err
	}
	return q.validSettings()
}

// validQueueName checks a new queue name. A queue keeps the name it was
// created with when its settings change: one named before a rule came in
// (such as "." by an older release) would otherwise be frozen.
func validQueueName(name string) error {
	switch {
	case strings.TrimSpace(name) == "" || len(name) > 32:
		return Errorf(CodeInvalid, "queue name must be 1 to 32 characters")
	case name == "." || name == "..":
		// A web address cannot hold such a path segment: the pages and
		// forms of the queue could not be reached.
		return Errorf(CodeInvalid, `queue name cannot be "." or ".."`)
	}
	return nil
}

// validSettings is Validate without the name.
func (q Queue) validSettings() error {
	switch {
	case q.TeamSize < 1 || q.TeamSize > rating.MaxTeamSize:
		return Errorf(CodeInvalid, "team size must be from 1 to %d, not %d", rating.MaxTeamSize, q.TeamSize)
	case !(q.QFloor >= 0 && q.QFloor <= q.QStart && q.QStart <= 1):
		return Errorf(CodeInvalid, "quality thresholds need 0 ≤ q_floor ≤ q_start ≤ 1, not %g and %g", q.QFloor, q.QStart)
	case q.Buckets < 1 || q.Buckets > 100:
		return Errorf(CodeInvalid, "buckets must be from 1 to 100, not %d", q.Buckets)
	case q.Bucket < time.Second || q.Bucket > time.Hour:
		return Errorf(CodeInvalid, "bucket must be from 1s to 1h, not %s", q.Bucket)
	case !(q.Boost >= 0 && q.Boost <= 10):
		return Errorf(CodeInvalid, "boost must be from 0 to 10, not %g", q.Boost)
	case !(q.RDMax > 0 && q.RDMax <= 1000):
		return Errorf(CodeInvalid, "rd_max must be above 0 and at most 1000, not %g", q.RDMax)
	case !(q.PartyMaxWeight >= 0 && q.PartyMaxWeight <= 10 && q.PartyMedianWeight >= 0 && q.PartyMedianWeight <= 10):
		return Errorf(CodeInvalid, "party weights must be from 0 to 10, not %g and %g", q.PartyMaxWeight, q.PartyMedianWeight)
	case !(q.OrdinalDeviations >= 0 && q.OrdinalDeviations <= 10):
		return Errorf(CodeInvalid, "ordinal_deviations must be from 0 to 10, not %g", q.OrdinalDeviations)
	case q.BehaviourPairing != 0 && (q.BehaviourPairing < 4*q.TeamSize || q.BehaviourPairing > 1000):
		return Errorf(CodeInvalid, "behaviour_pairing must be 0 (off) or from %d (two matches) to 1000 queued players, not %d", 4*q.TeamSize, q.BehaviourPairing)
	}
	_, err := rating.NewModel(q.Model, q.Params)
	return err
}

// cronBounds are the ranges of the five cron fields (minute, hour, day of
// month, month, day of week) as the jobs' cron parser accepts them
// (ParseSchedule).
var cronBounds = [5]struct {
	name   string
	lo, hi int
	names  string // 3-letter names from lo, for month and weekday
}{
	{"minute", 0, 59, ""}, {"hour", 0, 23, ""}, {"day of month", 1, 31, ""},
	{"month", 1, 12, "JANFEBMARAPRMAYJUNJULAUGSEPOCTNOVDEC"}, {"day of week", 0, 6, "SUNMONTUEWEDTHUFRISAT"},
}

// GuildStore keeps guilds and their queues.
type GuildStore interface {
	Guild(ctx context.Context, id string) (Guild, error)
	Guilds(ctx context.Context) ([]Guild, error)
	// ListedCounts returns, for each of the guilds, how many players the
	// current season's board of its default queue lists (the board's own
	// rule: neither provisional nor stale), in one statement; a guild with
	// nobody listed is absent.
	ListedCounts(ctx context.Context, guildIDs []string) (map[string]int, error)
	// CreateGuild inserts g unless it exists; created says which.
	CreateGuild(ctx context.Context, g Guild) (created bool, err error)
	UpdateGuild(ctx context.Context, g Guild) error
	// SetPreferredLocale stores Guild.PreferredLocale alone.
	SetPreferredLocale(ctx context.Context, guildID, locale string) error

	Queue(ctx context.Context, id int64) (Queue, error)
	// QueueForUpdate reads a queue and holds, until the transaction ends, a
	// lock that excludes QueueForShare and other QueueForUpdate calls.
	QueueForUpdate(ctx context.Context, id int64) (Queue, error)
	QueueByName(ctx context.Context, guildID, name string) (Queue, error)
	// Queues returns a guild's queues, oldest first (the first is the default).
	Queues(ctx context.Context, guildID string) ([]Queue, error)
	CreateQueue(ctx context.Context, q Queue) (Queue, error)
	UpdateQueue(ctx context.Context, q Queue) error
}
