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
	// InRatedTxs is InRatedTx for a transaction that ends by rating
	// several matches, in the order given (RecordResults).
	InRatedTxs(ctx context.Context, fn func(tx Tx) ([]RatedWrite, error)) ([]Match, error)
}

// Tx is what a transaction can do: the stores of each concern, declared
// beside the Service methods that use them. Lookups of a missing row answer
// a CodeNotFound error, unique violations a CodeConflict error.
type Tx interface {
	GuildStore
	SeasonStore
	RatingStore
	MatchStore
	AuditStore
	TokenStore
	JobStore
	QueueStore
	WebhookStore
	LobbyStore
	DraftStore
	SubStore
	NoShowStore
	ConstantsStore
	ShowdownStore
	BehaviourStore
	TeamStore
	AnnouncementStore
	RoleStore
	CalibratorStore
	RoleWantStore
	ImportStore
	SeriesStore
}

// Ladder is one queue of a guild in its running season, with the guild's settings.
type Ladder struct {
	Guild  Guild
	Queue  Queue
	Season Season
	// Cal, when not nil, is the queue's calibrator row, locked by the
	// same read (LockLadder, LockMatchLadder); prepare moves it by the
	// result it rates. nil makes prepare lock it.
	Cal *CalibratorRow
}

// RatedWrite is everything rating one match writes (Tx.SaveRated).
type RatedWrite struct {
	Match          Match
	Changes        []RatingChange
	Ratings        []Rating
	IdempotencyKey string
	At             time.Time
	// Event, when set, is the match.* event the store records with the
	// match (Outbox), once the match has its ID.
	Event EventType
	// Calibrator, when not nil, is the queue's calibrator row moved by
	// this result; the store writes it with the match, its Seq set to the
	// match's.
	Calibrator *CalibratorRow
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

// RatedAhead is implemented by a Tx that can prepare, in the round trip of
// the next LockLadder, what the rated writes it is told to expect will
// need: on PostgreSQL the derived rows' reads and the writes' log
// positions, taken under the queue's lock, so that the writes can then
// travel with COMMIT and a result holds the queue's lock for one round
// trip after the one that takes it. ws are the writes as far as they are
// known before the lock: each match's guild and teams, its players listed
// as changes of kind "match". A write that turns out different, or a lock
// that could not take the reads, costs a round trip more, never a wrong
// read: the store checks that what it read ahead is what the write needs.
type RatedAhead interface {
	ExpectRated(guildID, queue string, ws []RatedWrite)
}

// expectRated tells tx, when it is a RatedAhead, the results that the
// transaction will rate in ladder queue of guildID, in order.
func expectRated(tx Tx, guildID, queue string, teams ...[2][]string) {
	ms := make([]Match, len(teams))
	for i, ts := range teams {
		ms[i] = Match{GuildID: guildID, State: StateConfirmed, Teams: ts}
	}
	expectRatedMatches(tx, guildID, queue, ms)
}

// expectRatedMatches is expectRated of matches as far as they are known
// before the lock: new ones (ID 0) or stored ones (a batch of confirms).
func expectRatedMatches(tx Tx, guildID, queue string, ms []Match) {
	a, ok := tx.(RatedAhead)
	if !ok || len(ms) == 0 {
		return
	}
	ws := make([]RatedWrite, len(ms))
	for i, m := range ms {
		ts := m.Teams
		var cs []RatingChange
		for t, us := range ts {
			for _, u := range us {
				cs = append(cs, RatingChange{UserID: u, Team: t + 1, Kind: "match"})
			}
		}
		ws[i] = RatedWrite{Match: m, Changes: cs}
	}
	a.ExpectRated(guildID, queue, ws)
}
