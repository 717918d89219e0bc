package storage

import (
	"context"
	"database/sql"
	"errors"
)

// DueRoleGuilds implements ladder.Tx: the guilds with a mapping whose plan
// is behind their version (the triggers of migration 00390 bump it with
// every write to what a plan reads) or that still have pending wanted
// roles. Both lookups are answered by partial indexes, so the cost is that
// of the due guilds, not of all guilds.
func (t *tx) DueRoleGuilds(ctx context.Context) ([]string, error) {
	var ids []string
	err := t.q(ctx).Raw(`SELECT guild_id FROM role_plans WHERE planned <> version
UNION SELECT DISTINCT w.guild_id FROM role_wants w WHERE w.applied <> w.version
  AND (EXISTS (SELECT 1 FROM division_roles d WHERE d.guild_id = w.guild_id)
       OR EXISTS (SELECT 1 FROM badge_roles b WHERE b.guild_id = w.guild_id))
ORDER BY guild_id`).Scan(&ids).Error
	return ids, wrap("due role guilds", err, "")
}

// RolePlanVersion implements ladder.Tx; 0 for a guild without a row.
func (t *tx) RolePlanVersion(ctx context.Context, guildID string) (int64, error) {
	var v int64
	err := t.q(ctx).Raw(`SELECT version FROM role_plans WHERE guild_id = ?`, guildID).Row().Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return v, wrap("role plan version", err, "")
}

// MarkRolePlanned implements ladder.Tx.
func (t *tx) MarkRolePlanned(ctx context.Context, guildID string, version int64) error {
	err := t.q(ctx).Exec(`UPDATE role_plans SET planned = ? WHERE guild_id = ? AND planned < ?`, version, guildID, version).Error
	return wrap("mark role planned", err, "")
}
