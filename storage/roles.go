package storage

import (
	"context"
	"slices"
	"time"

	"gorm.io/gorm/clause"

	"github.com/ladderbot/ladderbot/ladder"
)

// Division and badge roles: the mappings, the applied state and
// the problems an admin must fix.

type divisionRoleRow struct {
	GuildID  string
	Division string
	RoleID   string
}

func (divisionRoleRow) TableName() string { return "division_roles" }

type badgeRoleRow struct {
	GuildID string
	Badge   string
	RoleID  string
}

func (badgeRoleRow) TableName() string { return "badge_roles" }

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

// BadgeRoles implements ladder.Tx.
func (t *tx) BadgeRoles(ctx context.Context, guildID string) (map[string]string, error) {
	var rows []badgeRoleRow
	if err := t.q(ctx).Where("guild_id = ?", guildID).Find(&rows).Error; err != nil {
		return nil, wrap("badge roles", err, "")
	}
	out := make(map[string]string, len(rows))
	for _, r := range rows {
		out[r.Badge] = r.RoleID
	}
	return out, nil
}

// SetDivisionRoles implements ladder.Tx.
func (t *tx) SetDivisionRoles(ctx context.Context, guildID string, m map[string]string) error {
	rows := make([]divisionRoleRow, 0, len(m))
	for d, r := range m {
		rows = append(rows, divisionRoleRow{GuildID: guildID, Division: d, RoleID: r})
	}
	return t.replaceRoleMapping(ctx, "set division roles", guildID, &divisionRoleRow{}, rows, len(rows))
}

// SetBadgeRoles implements ladder.Tx.
func (t *tx) SetBadgeRoles(ctx context.Context, guildID string, m map[string]string) error {
	rows := make([]badgeRoleRow, 0, len(m))
	for b, r := range m {
		rows = append(rows, badgeRoleRow{GuildID: guildID, Badge: b, RoleID: r})
	}
	return t.replaceRoleMapping(ctx, "set badge roles", guildID, &badgeRoleRow{}, rows, len(rows))
}

// replaceRoleMapping replaces a guild's rows of one mapping table (model)
// with rows, a slice of n, and forgets the guild's problems, which were about the old
// mapping.
func (t *tx) replaceRoleMapping(ctx context.Context, op, guildID string, model, rows any, n int) error {
	if err := t.q(ctx).Where("guild_id = ?", guildID).Delete(model).Error; err != nil {
		return wrap(op, err, "")
	}
	if err := t.q(ctx).Where("guild_id = ?", guildID).Delete(&roleProblemRow{}).Error; err != nil {
		return wrap(op, err, "")
	}
	if n == 0 {
		return nil
	}
	return wrap(op, t.q(ctx).Create(rows).Error, "")
}

// RoleGuilds implements ladder.Tx.
func (t *tx) RoleGuilds(ctx context.Context) ([]string, error) {
	var ids []string
	err := t.q(ctx).Raw("SELECT guild_id FROM division_roles UNION SELECT guild_id FROM badge_roles ORDER BY guild_id").Scan(&ids).Error
	return ids, wrap("role guilds", err, "")
}

// AppliedRoles implements ladder.Tx.
func (t *tx) AppliedRoles(ctx context.Context, guildID string) (map[string][]string, error) {
	var rows []appliedRoleRow
	if err := t.q(ctx).Where("guild_id = ?", guildID).Order("user_id, role_id").Find(&rows).Error; err != nil {
		return nil, wrap("applied roles", err, "")
	}
	out := make(map[string][]string)
	for _, r := range rows {
		out[r.UserID] = append(out[r.UserID], r.RoleID)
	}
	return out, nil
}

// SetAppliedRoles implements ladder.Tx.
func (t *tx) SetAppliedRoles(ctx context.Context, guildID, userID string, roleIDs []string) error {
	err := t.q(ctx).Where("guild_id = ? AND user_id = ?", guildID, userID).Delete(&appliedRoleRow{}).Error
	if err != nil || len(roleIDs) == 0 {
		return wrap("set applied roles", err, "")
	}
	rows := make([]appliedRoleRow, 0, len(roleIDs))
	for _, r := range roleIDs {
		if !slices.ContainsFunc(rows, func(a appliedRoleRow) bool { return a.RoleID == r }) {
			rows = append(rows, appliedRoleRow{GuildID: guildID, UserID: userID, RoleID: r})
		}
	}
	return wrap("set applied roles", t.q(ctx).Create(&rows).Error, "")
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
