package storage

import (
	"context"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
	"gorm.io/gorm/clause"
)

type announcementRow struct {
	MatchID   int64 `gorm:"primaryKey;autoIncrement:false"`
	ChannelID string
	MessageID string
	Closed    bool
}

func (announcementRow) TableName() string { return "match_announcements" }

type matchMessageRow struct {
	MatchID   int64  `gorm:"primaryKey;autoIncrement:false"`
	Kind      string `gorm:"primaryKey"`
	ChannelID string
	MessageID string
	Closed    bool
}

func (matchMessageRow) TableName() string { return "match_messages" }

// SaveAnnouncement implements ladder.Tx: a later post of the same match
// (and kind) replaces the message, whose buttons are then live again.
// Later means a later message: Discord's message IDs are snowflakes, which
// grow with time, so a record that arrives late for an older post (the
// post to a match's room, recorded after the room was deleted and the
// message posted again in the queue's channel) does not replace the newer
// one. Snowflakes are compared as numbers: by length, then digit by digit.
func (t *tx) SaveAnnouncement(ctx context.Context, a ladder.Announcement) error {
	var row any = &announcementRow{MatchID: a.MatchID, ChannelID: a.ChannelID, MessageID: a.MessageID}
	table := "match_announcements"
	cols := []clause.Column{{Name: "match_id"}}
	if a.Kind != "" {
		row = &matchMessageRow{MatchID: a.MatchID, Kind: a.Kind, ChannelID: a.ChannelID, MessageID: a.MessageID}
		table = "match_messages"
		cols = append(cols, clause.Column{Name: "kind"})
	}
	newer := clause.Expr{SQL: "length(excluded.message_id) > length(" + table + ".message_id) OR (length(excluded.message_id) = length(" +
		table + ".message_id) AND excluded.message_id >= " + table + ".message_id)"}
	err := t.q(ctx).Clauses(clause.OnConflict{Columns: cols, DoUpdates: clause.AssignmentColumns([]string{"channel_id", "message_id", "closed"}),
		Where: clause.Where{Exprs: []clause.Expression{newer}}}).Create(row).Error
	return wrap("save announcement", err, "match %d not found", a.MatchID)
}

// AnnouncementOf implements ladder.Tx.
func (t *tx) AnnouncementOf(ctx context.Context, matchID int64) (ladder.Announcement, error) {
	var r announcementRow
	if err := t.q(ctx).Where("match_id = ?", matchID).Take(&r).Error; err != nil {
		return ladder.Announcement{}, wrap("announcement", err, "match %d has no announcement", matchID)
	}
	return ladder.Announcement{MatchID: r.MatchID, ChannelID: r.ChannelID, MessageID: r.MessageID}, nil
}

// MatchMessage implements ladder.Tx.
func (t *tx) MatchMessage(ctx context.Context, matchID int64, kind string) (ladder.Announcement, error) {
	var r matchMessageRow
	if err := t.q(ctx).Where("match_id = ? AND kind = ?", matchID, kind).Take(&r).Error; err != nil {
		return ladder.Announcement{}, wrap("match message", err, "match %d has no %s message", matchID, kind)
	}
	return ladder.Announcement{MatchID: r.MatchID, Kind: r.Kind, ChannelID: r.ChannelID, MessageID: r.MessageID}, nil
}

// openMessagesSQL lists the messages of ended matches that still show
// buttons, announcements (an empty kind) and the others alike, oldest match
// first. A rematch offer (in the match's channel, or on the results
// channel's post) is open until its window ends or its rematch is formed.
// The messages still open are read from their partial indexes
// (match_announcements_open, match_messages_open): a closed row is never
// read, so a run costs the open messages, not every match's.
var openMessagesSQL = `
SELECT a.match_id, '' AS kind, a.channel_id, a.message_id
  FROM match_announcements a JOIN matches m ON m.id = a.match_id
 WHERE NOT a.closed AND m.state IN (` + endedStates + `)
UNION ALL
SELECT x.match_id, x.kind, x.channel_id, x.message_id
  FROM match_messages x JOIN matches m ON m.id = x.match_id
 WHERE NOT x.closed AND m.state IN (` + endedStates + `) AND (x.kind NOT IN ('rematch', 'rematch:results') OR m.rated_at <= ?
       OR EXISTS (SELECT 1 FROM rematches r WHERE r.match_id = x.match_id AND r.formed_match_id <> 0))
ORDER BY match_id, kind
LIMIT ?`

// OpenMessages implements ladder.Tx.
func (t *tx) OpenMessages(ctx context.Context, limit int, offersBefore time.Time) ([]ladder.Announcement, error) {
	var rows []matchMessageRow
	if err := t.q(ctx).Raw(openMessagesSQL, offersBefore.UTC(), limit).Scan(&rows).Error; err != nil {
		return nil, wrap("open messages", err, "")
	}
	out := make([]ladder.Announcement, len(rows))
	for i, r := range rows {
		out[i] = ladder.Announcement{MatchID: r.MatchID, Kind: r.Kind, ChannelID: r.ChannelID, MessageID: r.MessageID}
	}
	return out, nil
}

// CloseMessage implements ladder.Tx. Only the recorded message is closed:
// a repost since (another message ID) keeps its buttons until its turn.
func (t *tx) CloseMessage(ctx context.Context, a ladder.Announcement) error {
	q := t.q(ctx).Model(&announcementRow{}).Where("match_id = ? AND message_id = ?", a.MatchID, a.MessageID)
	if a.Kind != "" {
		q = t.q(ctx).Model(&matchMessageRow{}).Where("match_id = ? AND kind = ? AND message_id = ?", a.MatchID, a.Kind, a.MessageID)
	}
	return wrap("close message", q.Update("closed", true).Error, "")
}
