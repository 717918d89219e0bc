package formats

import (
	"context"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// Store is the persistence of formats: settings and pools read outside a
// transaction, and transactions for everything that changes a pick.
type Store interface {
	FormatSettings(ctx context.Context, queueID int64) (Settings, error)
	Maps(ctx context.Context, queueID int64) ([]Map, error)
	// InFormatTx runs fn in one transaction, retried on a conflict.
	InFormatTx(ctx context.Context, fn func(Tx) error) error
}

// Tx is what a formats transaction reads and writes.
type Tx interface {
	// LockMatch locks a match's row: every change of a pick holds it, as
	// every change of the match does.
	LockMatch(ctx context.Context, id int64) (ladder.Match, error)
	Lobby(ctx context.Context, queueID int64) (ladder.Lobby, error)
	Draft(ctx context.Context, matchID int64) (ladder.Draft, error)
	AddAudit(ctx context.Context, e ladder.AuditEntry) error

	FormatSettings(ctx context.Context, queueID int64) (Settings, error)
	SaveFormatSettings(ctx context.Context, s Settings) error
	Maps(ctx context.Context, queueID int64) ([]Map, error)
	// AddMap appends a map to its queue's pool; CodeConflict when the
	// name is taken.
	AddMap(ctx context.Context, m Map) error
	// RemoveMap removes a map and answers whether it was there.
	RemoveMap(ctx context.Context, queueID int64, name string) (bool, error)

	// Pick reads a game's pick with its votes and bans; CodeNotFound
	// when none was started.
	Pick(ctx context.Context, matchID int64, game int) (Pick, error)
	AddPick(ctx context.Context, p Pick) error
	// SetPick stores a pick's state, deadline, chosen map and team.
	SetPick(ctx context.Context, p Pick) error
	// PutVote stores a player's vote, replacing their earlier one.
	PutVote(ctx context.Context, matchID int64, game int, v Vote) error
	AddBan(ctx context.Context, matchID int64, game int, b Ban) error
	// SetPickMessage records the message that shows a pick.
	SetPickMessage(ctx context.Context, matchID int64, game int, channelID, messageID string) error
	// ReadyCheck reads a match's ready check; CodeNotFound when none.
	ReadyCheck(ctx context.Context, matchID int64) (ladder.ReadyCheck, error)
	// SetMatchMap writes the chosen map into the match's row.
	SetMatchMap(ctx context.Context, matchID int64, name string) error
	// DuePicks lists up to limit running picks whose deadline is not
	// after t, oldest first, as (match, game) pairs.
	DuePicks(ctx context.Context, t time.Time, limit int) ([][2]int64, error)
	// SeriesGames reads a series' reported games in order.
	SeriesGames(ctx context.Context, matchID int64) ([]Game, error)
	// AddGame stores a game's report; CodeConflict when it has one.
	AddGame(ctx context.Context, g Game) error
	// SetGame stores a game's winner, confirmation and rated match.
	SetGame(ctx context.Context, g Game) error
	// ReplayGames lists up to 100 of a guild's series games whose replay
	// URL holds name, in any case.
	ReplayGames(ctx context.Context, guildID, name string) ([]Game, error)
	// DisputedGames lists up to limit of a guild's disputed games that
	// wait for a moderator (of series still played), oldest dispute first.
	DisputedGames(ctx context.Context, guildID string, limit int) ([]Game, error)
	// MapRecords counts a player's rated games and wins per map in a
	// queue's season (series games on their own maps), the maps with at
	// least minGames, most played first.
	MapRecords(ctx context.Context, guildID string, queueID, seasonID int64, userID string, minGames int) ([]MapRecord, error)
	// UnstartedPicks lists up to limit open matches, formed before t,
	// whose pick should run and has not started (teams set, a pool).
	UnstartedPicks(ctx context.Context, t time.Time, limit int) ([]int64, error)
}
