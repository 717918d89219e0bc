package storage

import (
	"context"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

type behaviourFlagRow struct {
	ID        int64 `gorm:"primaryKey"`
	GuildID   string
	MatchID   int64
	FromUser  string
	ToUser    string
	Reason    string
	CreatedAt time.Time
}

func (behaviourFlagRow) TableName() string { return "behaviour_flags" }

// AddBehaviourFlag implements ladder.Tx; the unique (match, from) key
// makes a second flag of one match a conflict.
func (t *tx) AddBehaviourFlag(ctx context.Context, f ladder.BehaviourFlag) (ladder.BehaviourFlag, error) {
	r := behaviourFlagRow{GuildID: f.GuildID, MatchID: f.MatchID, FromUser: f.FromUser, ToUser: f.ToUser,
		Reason: f.Reason, CreatedAt: f.CreatedAt.UTC()}
	if err := t.q(ctx).Create(&r).Error; err != nil {
		return ladder.BehaviourFlag{}, wrap("add behaviour flag", err, "a flag for this match")
	}
	f.ID = r.ID
	return f, nil
}

// BehaviourFlags implements ladder.Tx.
func (t *tx) BehaviourFlags(ctx context.Context, guildID string, toUsers []string, since time.Time) ([]ladder.BehaviourFlag, error) {
	if len(toUsers) == 0 {
		return nil, nil
	}
	var rows []behaviourFlagRow
	if err := t.q(ctx).Where("guild_id = ? AND to_user IN ? AND created_at >= ?", guildID, toUsers, since.UTC()).
		Order("created_at, id").Find(&rows).Error; err != nil {
		return nil, wrap("behaviour flags", err, "")
	}
	out := make([]ladder.BehaviourFlag, len(rows))
	for i, r := range rows {
		out[i] = ladder.BehaviourFlag{ID: r.ID, GuildID: r.GuildID, MatchID: r.MatchID, FromUser: r.FromUser,
			ToUser: r.ToUser, Reason: r.Reason, CreatedAt: r.CreatedAt.UTC()}
	}
	return out, nil
}
