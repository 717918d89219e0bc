package storage

import (
	"context"
	"fmt"

	"github.com/ladderbot/ladderbot/ladder"
	"gorm.io/gorm/clause"
)

type announcementRow struct {
	MatchID   int64 `gorm:"primaryKey;autoIncrement:false"`
	ChannelID string
	MessageID string
}

func (announcementRow) TableName() string { return "match_announcements" }

// SaveAnnouncement implements ladder.Tx: a later post of the same match
// replaces the message.
func (t *tx) SaveAnnouncement(ctx context.Context, a ladder.Announcement) error {
	r := announcementRow{MatchID: a.MatchID, ChannelID: a.ChannelID, MessageID: a.MessageID}
	err := t.q(ctx).Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "match_id"}}, UpdateAll: true}).Create(&r).Error
	return wrap("save announcement", err, fmt.Sprintf("match %d not found", a.MatchID))
}

// AnnouncementOf implements ladder.Tx.
func (t *tx) AnnouncementOf(ctx context.Context, matchID int64) (ladder.Announcement, error) {
	var r announcementRow
	if err := t.q(ctx).Where("match_id = ?", matchID).Take(&r).Error; err != nil {
		return ladder.Announcement{}, wrap("announcement", err, fmt.Sprintf("match %d has no announcement", matchID))
	}
	return ladder.Announcement{MatchID: r.MatchID, ChannelID: r.ChannelID, MessageID: r.MessageID}, nil
}
