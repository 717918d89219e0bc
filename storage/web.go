package storage

import (
	"context"
	"database/sql"
)

// Reads for the web pages and the HTTP API (package web).

// PlayerNames returns the names of the guild's known players among userIDs
// in one query; unknown players are absent. ladder.Service.PlayerNames uses
// it when the store has it.
func (t *tx) PlayerNames(ctx context.Context, guildID string, userIDs []string) (map[string]string, error) {
	out := make(map[string]string, len(userIDs))
	for start := 0; start < len(userIDs); start += 500 {
		chunk := userIDs[start:min(start+500, len(userIDs))]
		var rows []playerRow
		err := t.q(ctx).Select("user_id", "name").Where("guild_id = ? AND user_id IN ?", guildID, chunk).Find(&rows).Error
		if err != nil {
			return nil, wrap("player names", err, "players not found")
		}
		for _, r := range rows {
			out[r.UserID] = r.Name
		}
	}
	return out, nil
}

// SQL returns the connection pool, for its statistics in /metrics.
func (db *DB) SQL() *sql.DB { return db.sql }
