package storage

import (
	"context"
	"time"

	"gorm.io/gorm/clause"
)

// dashboardSessionRow is one browser session of the web dashboard
// (dashboard.SessionRows): the session library's encoded values under the
// SHA-256 of the cookie's token, and the Discord user logged in.
type dashboardSessionRow struct {
	TokenHash []byte `gorm:"primaryKey"`
	UserID    string
	Data      []byte
	Expiry    time.Time
}

func (dashboardSessionRow) TableName() string { return "dashboard_sessions" }

// FindSession returns the data of the unexpired session with key.
func (db *DB) FindSession(ctx context.Context, key []byte) ([]byte, bool, error) {
	var rows []dashboardSessionRow
	err := db.q(ctx).Where("token_hash = ? AND expiry > ?", key, dbNow()).Limit(1).Find(&rows).Error
	if err != nil || len(rows) == 0 {
		return nil, false, wrap("find session", err, "")
	}
	return rows[0].Data, true, nil
}

// CommitSession writes a session, replacing the one with the same key, and
// deletes expired sessions on the way: sessions are written at login and
// on changes, so the table is swept as often as it grows.
func (db *DB) CommitSession(ctx context.Context, key []byte, userID string, data []byte, expiry time.Time) error {
	r := dashboardSessionRow{TokenHash: key, UserID: userID, Data: data, Expiry: expiry.UTC().Truncate(time.Microsecond)}
	err := db.q(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "token_hash"}},
		DoUpdates: clause.AssignmentColumns([]string{"user_id", "data", "expiry"}),
	}).Create(&r).Error
	if err != nil {
		return wrap("commit session", err, "")
	}
	err = db.q(ctx).Where("expiry <= ?", dbNow()).Delete(&dashboardSessionRow{}).Error
	return wrap("sweep sessions", err, "")
}

// DeleteSession deletes one session; deleting one that is gone is no error.
func (db *DB) DeleteSession(ctx context.Context, key []byte) error {
	err := db.q(ctx).Where("token_hash = ?", key).Delete(&dashboardSessionRow{}).Error
	return wrap("delete session", err, "")
}

// DeleteUserSessions deletes every session of a user (log out everywhere)
// and returns how many there were.
func (db *DB) DeleteUserSessions(ctx context.Context, userID string) (int64, error) {
	res := db.q(ctx).Where("user_id = ?", userID).Delete(&dashboardSessionRow{})
	return res.RowsAffected, wrap("delete user sessions", res.Error, "")
}
