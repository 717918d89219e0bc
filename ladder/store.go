package ladder

import (
	"context"
	"time"
)

// Store is the persistence the Service needs (implemented by package
// storage). Its Tx methods used directly read outside a transaction; InTx
// runs fn in one read-write transaction that commits when fn returns nil and
// rolls back otherwise. InTx may run fn again after a serialization failure
// or deadlock, so fn must not keep effects outside tx between attempts.
type Store interface {
	Tx
	TokenVault
	InTx(ctx context.Context, fn func(tx Tx) error) error
	// InRatedTx is InTx for a transaction that ends by rating a match: fn
	// reads and checks, and returns the write (nil when there is nothing
	// to rate), which the store performs last, as Tx.SaveRated, committing
	// with it. It returns the saved match, the zero Match when fn returned nil.
	// Every rated result that nothing follows goes through it, so that a
	// store can make it cheap in one place.
	InRatedTx(ctx context.Context, fn func(tx Tx) (*RatedWrite, error)) (Match, error)
}

// Tx is what a transaction can do. Lookups of a missing row answer a
// CodeNotFound error, unique violations a CodeConflict error.
type Tx interface {
	Guild(ctx context.Context, id string) (Guild, error)
	Guilds(ctx context.Context) ([]Guild, error)
	// CreateGuild inserts g unless it exists; created says which.
	CreateGuild(ctx context.Context, g Guild) (created bool, err error)
	UpdateGuild(ctx context.Context, g Guild) error

	Queue(ctx context.Context, id int64) (Queue, error)
	QueueByName(ctx context.Context, guildID, name string) (Queue, error)
	// Queues returns a guild's queues, oldest first (the first is the default).
	Queues(ctx context.Context, guildID string) ([]Queue, error)
	CreateQueue(ctx context.Context, q Queue) (Queue, error)
	UpdateQueue(ctx context.Context, q Queue) error

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
	// cutoff and returns how many it flagged.
	MarkStale(ctx context.Context, guildID string, seasonID int64, cutoff time.Time) (int, error)
	// RefreshProvisional recomputes Provisional of a guild's rows for a new
	// placement setting.
	RefreshProvisional(ctx context.Context, guildID string, placement int) error

	// Ladder returns a guild's settings, its queue called queue ("" the
	// default, oldest queue) and its running season in one read.
	Ladder(ctx context.Context, guildID, queue string) (Ladder, error)
	// LockLadder is Ladder and LockRatings of that ladder in one read:
	// the rows of userIDs (sorted) that exist, locked until the
	// transaction ends, ordered by user ID.
	LockLadder(ctx context.Context, guildID, queue string, userIDs []string) (Ladder, []Rating, error)
	// SaveRated writes a rated match in one go: it inserts w.Match (ID 0)
	// with its players or updates it, gives it the next Seq of the log,
	// inserts w.Changes with that Seq and the match ID, writes w.Ratings
	// (as SaveRatings) and, with an IdempotencyKey, records it (CodeConflict
	// if the key is taken). It returns the match with ID and Seq.
	SaveRated(ctx context.Context, w RatedWrite) (Match, error)

	// NextSeq returns the next position in the rating log; call it after
	// LockRatings so that the order of seqs is the order of updates.
	NextSeq(ctx context.Context) (int64, error)
	// CreateMatch inserts m and its players and returns it with its ID. A
	// player already in an active match gives a CodeConflict error.
	CreateMatch(ctx context.Context, m Match) (Match, error)
	Match(ctx context.Context, id int64) (Match, error)
	// LockMatch reads a match and locks it until the transaction ends.
	LockMatch(ctx context.Context, id int64) (Match, error)
	// UpdateMatch writes every mutable field of m (not its teams).
	UpdateMatch(ctx context.Context, m Match) error
	// Matches lists matches by f, newest first.
	Matches(ctx context.Context, f MatchFilter) ([]Match, error)
	// RatedMatches returns ladder k's rated matches with Seq ≥ fromSeq in Seq order.
	RatedMatches(ctx context.Context, k Key, fromSeq int64) ([]Match, error)

	InsertChanges(ctx context.Context, cs []RatingChange) error
	// Changes returns ladder k's log rows with Seq ≥ fromSeq, by Seq then user.
	Changes(ctx context.Context, k Key, fromSeq int64) ([]RatingChange, error)
	// DeleteChanges deletes the log rows of userIDs in ladder k with Seq ≥
	// fromSeq. Rows of other players stay: a replay rewrites only the rows
	// of the players it locked.
	DeleteChanges(ctx context.Context, k Key, fromSeq int64, userIDs []string) error
	// Adjustments returns ladder k's moderator rows (Kind other than "match") by Seq.
	Adjustments(ctx context.Context, k Key) ([]RatingChange, error)
	// PlayerChanges returns the latest limit rows of a player, oldest first.
	PlayerChanges(ctx context.Context, k Key, userID string, limit int) ([]RatingChange, error)
	MatchChanges(ctx context.Context, matchID int64) ([]RatingChange, error)

	AddAudit(ctx context.Context, e AuditEntry) error
	Audit(ctx context.Context, guildID string, limit int) ([]AuditEntry, error)

	// IdempotentMatch returns the match recorded under key, CodeNotFound if none.
	IdempotentMatch(ctx context.Context, guildID, key string) (int64, error)
	// SaveIdempotency records key → matchID; an existing key gives CodeConflict.
	SaveIdempotency(ctx context.Context, guildID, key string, matchID int64, at time.Time) error

	CreateToken(ctx context.Context, t Token) (Token, error)
	Tokens(ctx context.Context, guildID string) ([]Token, error)
	TokenByHash(ctx context.Context, hash []byte) (Token, error)
	// RevokeToken revokes the guild's live token called name; CodeNotFound if none.
	RevokeToken(ctx context.Context, guildID, name string, at time.Time) error

	// ClaimJob inserts job_runs(job, period) and reports whether this caller
	// won it; a second claim of the same period answers false.
	ClaimJob(ctx context.Context, job, period string, at time.Time) (bool, error)
	// FinishJob records the end of a claimed run; errText is "" on success.
	FinishJob(ctx context.Context, job, period, errText string, at time.Time) error
}

// Ladder is one queue of a guild in its running season, with the guild's settings.
type Ladder struct {
	Guild  Guild
	Queue  Queue
	Season Season
}

// RatedWrite is everything rating one match writes (Tx.SaveRated).
type RatedWrite struct {
	Match          Match
	Changes        []RatingChange
	Ratings        []Rating
	IdempotencyKey string
	At             time.Time
}

// BoardQuery selects a leaderboard page. Rows are listed by Display
// descending, then user ID descending; After* is the last row of the
// previous page when HasAfter.
type BoardQuery struct {
	Key
	// Min ≤ Display < Max restricts to a division.
	Min, Max     float64
	HasAfter     bool
	AfterDisplay float64
	AfterUser    string
	Limit        int
}

// BoardRow is a rating row with the player's name.
type BoardRow struct {
	Rating
	Name string
}

// MatchFilter selects matches; zero fields do not filter.
type MatchFilter struct {
	GuildID  string
	QueueID  int64
	SeasonID int64
	UserID   string
	States   []MatchState
	// DueBefore selects reported matches whose Deadline is before it.
	DueBefore time.Time
	// BeforeID pages backwards: only IDs below it.
	BeforeID int64
	Limit    int
}
