package storage

import (
	"context"
	"strings"
	"time"

	"gorm.io/gorm/clause"

	"github.com/ladderbot/ladderbot/ladder"
)

// The wanted roles of each player, versioned, and the lease of a guild's
// role worker (ladder.RoleWantStore).

type roleWantRow struct {
	GuildID string `gorm:"primaryKey"`
	UserID  string `gorm:"primaryKey"`
	Roles   string
	Version int64
	Applied int64
}

func (roleWantRow) TableName() string { return "role_wants" }

type roleWorkerRow struct {
	GuildID string `gorm:"primaryKey"`
	Holder  string
	Until   time.Time
}

func (roleWorkerRow) TableName() string { return "role_workers" }

func (r roleWantRow) want() ladder.RoleWant {
	roles := []string{}
	if r.Roles != "" {
		roles = strings.Split(r.Roles, ",")
	}
	return ladder.RoleWant{GuildID: r.GuildID, UserID: r.UserID, Roles: roles, Version: r.Version, Applied: r.Applied}
}

// RoleWants implements ladder.Tx.
func (t *tx) RoleWants(ctx context.Context, guildID string) ([]ladder.RoleWant, error) {
	var rows []roleWantRow
	if err := t.q(ctx).Where("guild_id = ?", guildID).Order("user_id").Find(&rows).Error; err != nil {
		return nil, wrap("role wants", err, "")
	}
	out := make([]ladder.RoleWant, len(rows))
	for i, r := range rows {
		out[i] = r.want()
	}
	return out, nil
}

// RoleWant implements ladder.Tx.
func (t *tx) RoleWant(ctx context.Context, guildID, userID string) (ladder.RoleWant, error) {
	var r roleWantRow
	if err := t.q(ctx).Where("guild_id = ? AND user_id = ?", guildID, userID).Take(&r).Error; err != nil {
		return ladder.RoleWant{}, wrap("role want", err, "no wanted roles of %s", userID)
	}
	return r.want(), nil
}

// SetRoleWant implements ladder.Tx: an insert that does nothing on a row
// already there for prev 0, else an update guarded by the version; the
// row count says who won.
func (t *tx) SetRoleWant(ctx context.Context, w ladder.RoleWant, prev int64) (bool, error) {
	roles := strings.Join(w.Roles, ",")
	if prev == 0 {
		r := roleWantRow{GuildID: w.GuildID, UserID: w.UserID, Roles: roles, Version: 1}
		res := t.q(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&r)
		return res.RowsAffected == 1, wrap("set role want", res.Error, "")
	}
	res := t.q(ctx).Model(&roleWantRow{}).Where("guild_id = ? AND user_id = ? AND version = ?", w.GuildID, w.UserID, prev).
		Updates(map[string]any{"roles": roles, "version": prev + 1})
	return res.RowsAffected == 1, wrap("set role want", res.Error, "")
}

// MarkRoleApplied implements ladder.Tx. A version already passed is left:
// applied only grows.
func (t *tx) MarkRoleApplied(ctx context.Context, guildID, userID string, version int64) error {
	err := t.q(ctx).Model(&roleWantRow{}).Where("guild_id = ? AND user_id = ? AND applied < ?", guildID, userID, version).
		Update("applied", version).Error
	return wrap("mark role applied", err, "")
}

// MarkRolesPending implements ladder.Tx.
func (t *tx) MarkRolesPending(ctx context.Context, guildID string) error {
	err := t.q(ctx).Model(&roleWantRow{}).Where("guild_id = ?", guildID).Update("applied", 0).Error
	return wrap("mark roles pending", err, "")
}

// ClaimRoleWorker implements ladder.Tx: the insert of a new lease, or the
// update of one that ran out or is the holder's own, decides.
func (t *tx) ClaimRoleWorker(ctx context.Context, guildID, holder string, now, until time.Time) (bool, error) {
	r := roleWorkerRow{GuildID: guildID, Holder: holder, Until: until.UTC()}
	res := t.q(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&r)
	if res.Error != nil {
		return false, wrap("claim role worker", res.Error, "")
	}
	if res.RowsAffected == 1 {
		return true, nil
	}
	res = t.q(ctx).Model(&roleWorkerRow{}).Where("guild_id = ? AND (holder = ? OR until < ?)", guildID, holder, now.UTC()).
		Updates(map[string]any{"holder": holder, "until": until.UTC()})
	return res.RowsAffected == 1, wrap("claim role worker", res.Error, "")
}

// ReleaseRoleWorker implements ladder.Tx.
func (t *tx) ReleaseRoleWorker(ctx context.Context, guildID, holder string) error {
	err := t.q(ctx).Where("guild_id = ? AND holder = ?", guildID, holder).Delete(&roleWorkerRow{}).Error
	return wrap("release role worker", err, "")
}
