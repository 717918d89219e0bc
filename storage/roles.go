package storage

import (
	"context"
	"time"

	"gorm.io/gorm/clause"

	"github.com/ladderbot/ladderbot/ladder"
)

// Division roles (issue 16): the mapping, the applied state and the
// problems an admin must fix.

type divisionRoleRow struct {
	GuildID  string
	Division string
	RoleID   string
}

func (divisionRoleRow) TableName() string { return "division_roles" }

type appliedRoleRow struct {
	GuildID string
	UserID  string
	RoleID  string
}

func (appliedRoleRow) TableName() string { return "applied_roles" }

type roleProblemRow struct {
	GuildID string
	RoleID  string
	Code    int
	At      time.Time
}

func (roleProblemRow) TableName() string { return "role_problems" }

// DivisionRoles implements ladder.Tx.
func (t *tx) DivisionRoles(ctx context.Context, guildID string) (map[string]string, error) {
	var rows []divisionRoleRow
	if err := t.q(ctx).Where("guild_id = ?", guildID).Find(&rows).Error; err != nil {
		return nil, wrap("division roles", err, "")
	}
	out := make(map[string]string, len(rows))
	for _, r := range rows {
		out[r.Division] = r.RoleID
	}
	return out, nil
}

// SetDivisionRoles implements ladder.Tx.
func (t *tx) SetDivisionRoles(ctx context.Context, guildID string, m map[string]string) error {
	if err := t.q(ctx).Where("guild_id = ?", guildID).Delete(&divisionRoleRow{}).Error; err != nil {
		return wrap("set division roles", err, "")
	}
	if err := t.q(ctx).Where("guild_id = ?", guildID).Delete(&roleProblemRow{}).Error; err != nil {
		return wrap("set division roles", err, "")
	}
	if len(m) == 0 {
		return nil
	}
	rows := make([]divisionRoleRow, 0, len(m))
	for d, r := range m {
		rows = append(rows, divisionRoleRow{GuildID: guildID, Division: d, RoleID: r})
	}
	return wrap("set division roles", t.q(ctx).Create(&rows).Error, "")
}

// RoleGuilds implements ladder.Tx.
func (t *tx) RoleGuilds(ctx context.Context) ([]string, error) {
	var ids []string
	err := t.q(ctx).Model(&divisionRoleRow{}).Distinct("guild_id").Order("guild_id").Pluck("guild_id", &ids).Error
	return ids, wrap("role guilds", err, "")
}

// AppliedRoles implements ladder.Tx.
func (t *tx) AppliedRoles(ctx context.Context, guildID string) (map[string]string, error) {
	var rows []appliedRoleRow
	if err := t.q(ctx).Where("guild_id = ?", guildID).Find(&rows).Error; err != nil {
		return nil, wrap("applied roles", err, "")
	}
	out := make(map[string]string, len(rows))
	for _, r := range rows {
		out[r.UserID] = r.RoleID
	}
	return out, nil
}

// SetAppliedRole implements ladder.Tx.
func (t *tx) SetAppliedRole(ctx context.Context, guildID, userID, roleID string) error {
	if roleID == "" {
		err := t.q(ctx).Where("guild_id = ? AND user_id = ?", guildID, userID).Delete(&appliedRoleRow{}).Error
		return wrap("set applied role", err, "")
	}
	r := appliedRoleRow{GuildID: guildID, UserID: userID, RoleID: roleID}
	err := t.q(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "guild_id"}, {Name: "user_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"role_id"}),
	}).Create(&r).Error
	return wrap("set applied role", err, "")
}

// AddRoleProblem implements ladder.Tx: the insert that wins the conflict is
// the one that reports the problem, so two processes report it once.
func (t *tx) AddRoleProblem(ctx context.Context, p ladder.RoleProblem) (bool, error) {
	r := roleProblemRow{GuildID: p.GuildID, RoleID: p.RoleID, Code: p.Code, At: p.At.UTC()}
	res := t.q(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&r)
	if res.Error != nil {
		return false, wrap("add role problem", res.Error, "")
	}
	return res.RowsAffected == 1, nil
}

// RoleProblems implements ladder.Tx.
func (t *tx) RoleProblems(ctx context.Context, guildID string) ([]ladder.RoleProblem, error) {
	var rows []roleProblemRow
	if err := t.q(ctx).Where("guild_id = ?", guildID).Order("at, role_id, code").Find(&rows).Error; err != nil {
		return nil, wrap("role problems", err, "")
	}
	out := make([]ladder.RoleProblem, len(rows))
	for i, r := range rows {
		out[i] = ladder.RoleProblem{GuildID: r.GuildID, RoleID: r.RoleID, Code: r.Code, At: r.At.UTC()}
	}
	return out, nil
}
