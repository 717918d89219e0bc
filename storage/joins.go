package storage

import (
	"context"
	"time"

	"gorm.io/gorm/clause"

	"github.com/ladderbot/ladderbot/joins"
	"github.com/ladderbot/ladderbot/ladder"
)

var (
	_ joins.Store     = (*DB)(nil)
	_ joins.RematchTx = (*tx)(nil)
)

type queueJoinsRow struct {
	QueueID        int64 `gorm:"primaryKey;autoIncrement:false"`
	GuildID        string
	MinRating      float64
	MaxRating      float64
	MinGames       int
	GamesQueueID   int64
	RequiredRole   string
	ExcludedRole   string
	MinAccountDays int
	Hours          string
	Timezone       string
	Rematch        string
}

func (queueJoinsRow) TableName() string { return "queue_joins" }

type rematchRow struct {
	MatchID       int64 `gorm:"primaryKey;autoIncrement:false"`
	GuildID       string
	QueueID       int64
	ExpiresAt     time.Time
	FormedMatchID int64
}

func (rematchRow) TableName() string { return "rematches" }

type rematchVoteRow struct {
	MatchID int64  `gorm:"primaryKey;autoIncrement:false"`
	UserID  string `gorm:"primaryKey"`
	At      time.Time
}

func (rematchVoteRow) TableName() string { return "rematch_votes" }

func joinSettingsOf(r queueJoinsRow) joins.Settings {
	return joins.Settings{QueueID: r.QueueID, GuildID: r.GuildID, MinRating: r.MinRating, MaxRating: r.MaxRating,
		MinGames: r.MinGames, GamesQueueID: r.GamesQueueID, RequiredRole: r.RequiredRole, ExcludedRole: r.ExcludedRole,
		MinAccountDays: r.MinAccountDays, Hours: r.Hours, TimeZone: r.Timezone, Rematch: joins.RematchMode(r.Rematch)}
}

// JoinSettings implements joins.Store.
func (db *DB) JoinSettings(ctx context.Context, queueID int64) (joins.Settings, error) {
	var r queueJoinsRow
	if err := db.q(ctx).Where("queue_id = ?", queueID).Take(&r).Error; err != nil {
		return joins.Settings{}, wrap("join settings", err, "the queue has no join settings")
	}
	return joinSettingsOf(r), nil
}

// SaveJoinSettings implements joins.Store: the settings and the audit
// entry of the change are one transaction.
func (db *DB) SaveJoinSettings(ctx context.Context, s joins.Settings, audit ladder.AuditEntry) error {
	r := queueJoinsRow{QueueID: s.QueueID, GuildID: s.GuildID, MinRating: s.MinRating, MaxRating: s.MaxRating,
		MinGames: s.MinGames, GamesQueueID: s.GamesQueueID, RequiredRole: s.RequiredRole, ExcludedRole: s.ExcludedRole,
		MinAccountDays: s.MinAccountDays, Hours: s.Hours, Timezone: s.TimeZone, Rematch: string(s.Rematch)}
	return db.inTx(ctx, func(t *tx) error {
		err := t.q(ctx).Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "queue_id"}}, UpdateAll: true}).Create(&r).Error
		if err != nil {
			return wrap("save join settings", err, "")
		}
		return t.AddAudit(ctx, audit)
	})
}

// ScheduledQueues implements joins.Store.
func (db *DB) ScheduledQueues(ctx context.Context) ([]joins.Settings, error) {
	var rows []queueJoinsRow
	if err := db.q(ctx).Where("hours <> ''").Order("queue_id").Find(&rows).Error; err != nil {
		return nil, wrap("scheduled queues", err, "")
	}
	out := make([]joins.Settings, len(rows))
	for i, r := range rows {
		out[i] = joinSettingsOf(r)
	}
	return out, nil
}

// RatedGames implements joins.Store: rated (confirmed or resolved)
// matches of each player in a queue, over every season.
func (db *DB) RatedGames(ctx context.Context, queueID int64, userIDs []string) (map[string]int, error) {
	out := make(map[string]int, len(userIDs))
	if len(userIDs) == 0 {
		return out, nil
	}
	var rows []struct {
		UserID string
		N      int
	}
	err := db.q(ctx).Table("match_players AS mp").Select("mp.user_id AS user_id, COUNT(*) AS n").
		Joins("JOIN matches AS m ON m.id = mp.match_id").
		Where("m.queue_id = ? AND m.state IN ? AND mp.user_id IN ?", queueID,
			[]string{string(ladder.StateConfirmed), string(ladder.StateResolved)}, userIDs).
		Group("mp.user_id").Scan(&rows).Error
	if err != nil {
		return nil, wrap("rated games", err, "")
	}
	for _, r := range rows {
		out[r.UserID] = r.N
	}
	return out, nil
}

// VoteRematch implements joins.Store: the offer's row (first press), the
// vote (a second press is the same row), and who pressed, in one
// transaction.
func (db *DB) VoteRematch(ctx context.Context, r joins.Rematch, userID string, at time.Time) ([]string, bool, int64, error) {
	var voters []string
	var added bool
	var formed int64
	err := db.inTx(ctx, func(t *tx) error {
		row := rematchRow{MatchID: r.MatchID, GuildID: r.GuildID, QueueID: r.QueueID, ExpiresAt: r.ExpiresAt.UTC()}
		if err := t.q(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&row).Error; err != nil {
			return wrap("rematch", err, "")
		}
		vote := t.q(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&rematchVoteRow{MatchID: r.MatchID, UserID: userID, At: at.UTC()})
		if vote.Error != nil {
			return wrap("rematch vote", vote.Error, "")
		}
		added = vote.RowsAffected == 1
		var votes []rematchVoteRow
		if err := t.q(ctx).Where("match_id = ?", r.MatchID).Order("at, user_id").Find(&votes).Error; err != nil {
			return wrap("rematch votes", err, "")
		}
		voters = voters[:0]
		for _, v := range votes {
			voters = append(voters, v.UserID)
		}
		var cur rematchRow
		if err := t.q(ctx).Where("match_id = ?", r.MatchID).Take(&cur).Error; err != nil {
			return wrap("rematch", err, "no rematch")
		}
		formed = cur.FormedMatchID
		return nil
	})
	if err != nil {
		return nil, false, 0, err
	}
	return voters, added, formed, nil
}

// FormRematch implements joins.RematchTx: one update wins.
func (t *tx) FormRematch(ctx context.Context, matchID, newID int64) (bool, error) {
	res := t.q(ctx).Model(&rematchRow{}).Where("match_id = ? AND formed_match_id = 0", matchID).Update("formed_match_id", newID)
	if res.Error != nil {
		return false, wrap("form rematch", res.Error, "")
	}
	return res.RowsAffected == 1, nil
}

// RoomHome implements joins.Store.
func (db *DB) RoomHome(ctx context.Context, matchID int64) (string, error) {
	var rows []matchRoomRow
	if err := db.q(ctx).Where("match_id = ?", matchID).Limit(1).Find(&rows).Error; err != nil {
		return "", wrap("room home", err, "")
	}
	if len(rows) == 0 {
		return "", nil
	}
	return rows[0].HomeChannelID, nil
}
