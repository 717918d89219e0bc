package storage

import (
	"context"
	"time"

	"gorm.io/gorm/clause"
)

type showdownLinkRow struct {
	GuildID   string
	UserID    string
	Name      string
	UpdatedAt time.Time
}

func (showdownLinkRow) TableName() string { return "showdown_links" }

// LinkShowdown implements ladder.Tx: a player has one name per guild, so a
// new link replaces the old one.
func (t *tx) LinkShowdown(ctx context.Context, guildID, userID, name string, at time.Time) error {
	r := showdownLinkRow{GuildID: guildID, UserID: userID, Name: name, UpdatedAt: at.UTC()}
	err := t.q(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "guild_id"}, {Name: "user_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"name", "updated_at"}),
	}).Create(&r).Error
	return wrap("link showdown", err, "")
}

// ShowdownNames implements ladder.Tx.
func (t *tx) ShowdownNames(ctx context.Context, guildID string, userIDs []string) (map[string]string, error) {
	out := make(map[string]string, len(userIDs))
	if len(userIDs) == 0 {
		return out, nil
	}
	var rows []showdownLinkRow
	if err := t.q(ctx).Where("guild_id = ? AND user_id IN ?", guildID, userIDs).Find(&rows).Error; err != nil {
		return nil, wrap("showdown names", err, "")
	}
	for _, r := range rows {
		out[r.UserID] = r.Name
	}
	return out, nil
}

type matchReplayRow struct {
	GuildID  string
	ReplayID string
	MatchID  int64
	At       time.Time
}

func (matchReplayRow) TableName() string { return "match_replays" }

// ReplayMatch implements ladder.Tx.
func (t *tx) ReplayMatch(ctx context.Context, guildID, replayID string) (int64, error) {
	var rows []matchReplayRow
	if err := t.q(ctx).Where("guild_id = ? AND replay_id = ?", guildID, replayID).Limit(1).Find(&rows).Error; err != nil {
		return 0, wrap("replay's match", err, "")
	}
	if len(rows) == 0 {
		return 0, nil
	}
	return rows[0].MatchID, nil
}

// AddReplayMatch implements ladder.Tx: a replay already kept for a match
// is a CodeConflict.
func (t *tx) AddReplayMatch(ctx context.Context, guildID, replayID string, matchID int64, at time.Time) error {
	r := matchReplayRow{GuildID: guildID, ReplayID: replayID, MatchID: matchID, At: at.UTC()}
	return wrap("add replay's match", t.q(ctx).Create(&r).Error, "that replay already proved another match")
}
