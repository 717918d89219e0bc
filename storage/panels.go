package storage

import (
	"context"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/panel/row"
)

// Queue panels, the results channel and the queue waits panels show. The
// panel rows are claimed by one process at a time (row.Store); each
// method is its own statement, outside the ladder's transactions.

type panelRow struct {
	QueueID      int64 `gorm:"primaryKey"`
	GuildID      string
	ChannelID    string
	MessageID    string
	Shown        string
	EditedAt     *time.Time
	ClaimedBy    string
	ClaimedUntil *time.Time
}

func (panelRow) TableName() string { return "queue_panels" }

func (r panelRow) panel() row.Panel {
	return row.Panel{QueueID: r.QueueID, GuildID: r.GuildID, ChannelID: r.ChannelID, MessageID: r.MessageID,
		Shown: r.Shown, EditedAt: tv(r.EditedAt)}
}

type waitRow struct {
	MatchID  int64 `gorm:"primaryKey"`
	QueueID  int64
	FormedAt time.Time
	WaitMS   int64
}

func (waitRow) TableName() string { return "queue_waits" }

// RecordWait implements ladder.QueueStore.
func (t *tx) RecordWait(ctx context.Context, matchID, queueID int64, wait time.Duration, at time.Time) error {
	r := waitRow{MatchID: matchID, QueueID: queueID, FormedAt: at.UTC(), WaitMS: wait.Milliseconds()}
	return wrap("record wait", t.q(ctx).Create(&r).Error, "")
}

// SavePanel implements panel.Store: a panel moved to another channel
// forgets its message, so the editor posts it anew there.
func (db *DB) SavePanel(ctx context.Context, guildID string, queueID int64, channelID string) (row.Panel, error) {
	var out panelRow
	err := db.db.WithContext(ctx).Transaction(func(g *gorm.DB) error {
		var rows []panelRow
		if err := g.Where("queue_id = ?", queueID).Find(&rows).Error; err != nil {
			return err
		}
		if len(rows) == 1 && rows[0].ChannelID == channelID {
			// Placed again where it is: forget what it shows, so the
			// editor edits it once (and posts it again if it was deleted).
			out = rows[0]
			out.Shown = ""
			return g.Model(&panelRow{}).Where("queue_id = ?", queueID).Update("shown", "").Error
		}
		out = panelRow{QueueID: queueID, GuildID: guildID, ChannelID: channelID}
		return g.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "queue_id"}},
			DoUpdates: clause.AssignmentColumns([]string{"guild_id", "channel_id", "message_id", "shown"})}).Create(&out).Error
	})
	if err != nil {
		return row.Panel{}, wrap("save panel", err, "")
	}
	return out.panel(), nil
}

// Panels implements panel.Store.
func (db *DB) Panels(ctx context.Context, guildID string) ([]row.Panel, error) {
	var rows []panelRow
	q := db.db.WithContext(ctx).Order("queue_id")
	if guildID != "" {
		q = q.Where("guild_id = ?", guildID)
	}
	if err := q.Find(&rows).Error; err != nil {
		return nil, wrap("panels", err, "")
	}
	out := make([]row.Panel, len(rows))
	for i, r := range rows {
		out[i] = r.panel()
	}
	return out, nil
}

// ClaimPanel implements panel.Store with one conditional UPDATE, which
// every database runs atomically: the row is taken only when nobody holds
// it and its last edit is at least gap old.
func (db *DB) ClaimPanel(ctx context.Context, queueID int64, holder string, now time.Time, gap, lease time.Duration) (row.Panel, bool, error) {
	now = now.UTC()
	res := db.db.WithContext(ctx).Model(&panelRow{}).
		Where("queue_id = ? AND (claimed_until IS NULL OR claimed_until < ?) AND (edited_at IS NULL OR edited_at <= ?)",
			queueID, now, now.Add(-gap)).
		Updates(map[string]any{"claimed_by": holder, "claimed_until": now.Add(lease)})
	if res.Error != nil {
		return row.Panel{}, false, wrap("claim panel", res.Error, "")
	}
	var r panelRow
	if err := db.db.WithContext(ctx).Where("queue_id = ?", queueID).Take(&r).Error; err != nil {
		return row.Panel{}, false, wrap("claim panel", err, "no panel for this queue")
	}
	return r.panel(), res.RowsAffected == 1 && r.ClaimedBy == holder, nil
}

// ShowPanel implements panel.Store: shown is recorded only while the row
// still says prev, so a SavePanel that ran during the edit (and reset it)
// keeps its reset.
func (db *DB) ShowPanel(ctx context.Context, queueID int64, holder, prev, messageID, shown string, edited time.Time) error {
	set := map[string]any{"message_id": messageID, "shown": gorm.Expr("CASE WHEN shown = ? THEN ? ELSE shown END", prev, shown),
		"claimed_by": "", "claimed_until": nil}
	if !edited.IsZero() {
		set["edited_at"] = edited.UTC()
	}
	err := db.db.WithContext(ctx).Model(&panelRow{}).Where("queue_id = ? AND claimed_by = ?", queueID, holder).Updates(set).Error
	return wrap("show panel", err, "")
}

// ReleasePanel implements panel.Store.
func (db *DB) ReleasePanel(ctx context.Context, queueID int64, holder string) error {
	err := db.db.WithContext(ctx).Model(&panelRow{}).Where("queue_id = ? AND claimed_by = ?", queueID, holder).
		Updates(map[string]any{"claimed_by": "", "claimed_until": nil}).Error
	return wrap("release panel", err, "")
}

// waitingSQL reads a queue's tickets and their members for its panel.
func waitingSQL(dialect string) string {
	return `SELECT e.id, e.joined_at, m.user_id FROM queue_entries e
` + membersJoin(dialect, "JOIN") + `
WHERE e.queue_id = ? ORDER BY e.joined_at, e.id, m.user_id`
}

// Waiting implements panel.Store: a queue's tickets, oldest first, each
// with its members in the order they joined.
func (db *DB) Waiting(ctx context.Context, queueID int64) ([]row.Party, error) {
	var rows []struct {
		ID       int64
		JoinedAt time.Time
		UserID   string
	}
	err := db.db.WithContext(ctx).Raw(waitingSQL(db.dialect), queueID).Scan(&rows).Error
	if err != nil {
		return nil, wrap("waiting", err, "")
	}
	var out []row.Party
	var last int64
	for _, r := range rows {
		if len(out) == 0 || r.ID != last {
			out = append(out, row.Party{JoinedAt: r.JoinedAt.UTC()})
			last = r.ID
		}
		p := &out[len(out)-1]
		p.UserIDs = append(p.UserIDs, r.UserID)
	}
	return out, nil
}

// RecentWaits implements panel.Store: the waits of the queue's last n
// formed matches, newest first.
func (db *DB) RecentWaits(ctx context.Context, queueID int64, n int) ([]time.Duration, error) {
	var ms []int64
	err := db.db.WithContext(ctx).Model(&waitRow{}).Where("queue_id = ?", queueID).Order("match_id DESC").Limit(n).
		Pluck("wait_ms", &ms).Error
	if err != nil {
		return nil, wrap("recent waits", err, "")
	}
	out := make([]time.Duration, len(ms))
	for i, v := range ms {
		out[i] = time.Duration(v) * time.Millisecond
	}
	return out, nil
}

type resultsChannelRow struct {
	GuildID   string `gorm:"primaryKey"`
	ChannelID string
	Since     time.Time
}

func (resultsChannelRow) TableName() string { return "results_channels" }

type resultPostRow struct {
	MatchID      int64 `gorm:"primaryKey"`
	GuildID      string
	MessageID    string
	Shown        string
	ClaimedUntil *time.Time
}

func (resultPostRow) TableName() string { return "result_posts" }

// SetResultsChannel implements panel.Store; "" turns the posts off. A
// guild that keeps its channel keeps its since.
func (db *DB) SetResultsChannel(ctx context.Context, guildID, channelID string, since time.Time) error {
	g := db.db.WithContext(ctx)
	if channelID == "" {
		return wrap("results channel", g.Where("guild_id = ?", guildID).Delete(&resultsChannelRow{}).Error, "")
	}
	r := resultsChannelRow{GuildID: guildID, ChannelID: channelID, Since: since.UTC()}
	err := g.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "guild_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"channel_id"})}).Create(&r).Error
	return wrap("results channel", err, "")
}

// ResultsChannels implements panel.Store: every guild's ("" for all) or
// one guild's results channel.
func (db *DB) ResultsChannels(ctx context.Context, guildID string) ([]row.ResultsChannel, error) {
	var rows []resultsChannelRow
	q := db.db.WithContext(ctx).Order("guild_id")
	if guildID != "" {
		q = q.Where("guild_id = ?", guildID)
	}
	if err := q.Find(&rows).Error; err != nil {
		return nil, wrap("results channels", err, "")
	}
	out := make([]row.ResultsChannel, len(rows))
	for i, r := range rows {
		out[i] = row.ResultsChannel{GuildID: r.GuildID, ChannelID: r.ChannelID, Since: r.Since.UTC()}
	}
	return out, nil
}

// RatedSince implements panel.Store: the guild's matches rated (or voided
// after rating) at or after since, oldest first, with what was posted of
// each.
func (db *DB) RatedSince(ctx context.Context, guildID string, since time.Time, limit int) ([]row.Rated, error) {
	var rows []struct {
		ID        int64
		State     string
		Winner    int
		RatedAt   time.Time
		MessageID *string
		Shown     *string
	}
	err := db.db.WithContext(ctx).Raw(`SELECT m.id, m.state, m.winner, m.rated_at, p.message_id, p.shown FROM matches m
LEFT JOIN result_posts p ON p.match_id = m.id
WHERE m.guild_id = ? AND m.rated_at >= ? AND m.state IN ('confirmed', 'resolved', 'voided')
ORDER BY m.rated_at, m.id LIMIT ?`, guildID, since.UTC(), limit).Scan(&rows).Error
	if err != nil {
		return nil, wrap("rated since", err, "")
	}
	out := make([]row.Rated, 0, len(rows))
	for _, r := range rows {
		x := row.Rated{MatchID: r.ID, State: ladder.MatchState(r.State), Winner: r.Winner, RatedAt: r.RatedAt.UTC()}
		if r.MessageID != nil {
			x.MessageID, x.Shown, x.Posted = *r.MessageID, *r.Shown, true
		}
		out = append(out, x)
	}
	return out, nil
}

// ClaimResult implements panel.Store: the first claim of a match inserts
// its row; a later one (a correction) takes the row only while it still
// shows prev and nobody holds it.
func (db *DB) ClaimResult(ctx context.Context, guildID string, matchID int64, prev string, now time.Time, lease time.Duration) (bool, error) {
	now = now.UTC()
	until := now.Add(lease)
	g := db.db.WithContext(ctx)
	res := g.Clauses(clause.OnConflict{DoNothing: true}).Create(&resultPostRow{MatchID: matchID, GuildID: guildID, ClaimedUntil: &until})
	if res.Error != nil {
		return false, wrap("claim result", res.Error, "")
	}
	if res.RowsAffected == 1 {
		return true, nil
	}
	res = g.Model(&resultPostRow{}).Where("match_id = ? AND shown = ? AND (claimed_until IS NULL OR claimed_until < ?)", matchID, prev, now).
		Update("claimed_until", until)
	if res.Error != nil {
		return false, wrap("claim result", res.Error, "")
	}
	return res.RowsAffected == 1, nil
}

// SaveResult implements panel.Store: what the post showed, and its
// message, releasing the claim. The first message is kept: follow-ups
// reply to the original post.
func (db *DB) SaveResult(ctx context.Context, matchID int64, messageID, shown string) error {
	set := map[string]any{"shown": shown, "claimed_until": nil}
	q := db.db.WithContext(ctx).Model(&resultPostRow{}).Where("match_id = ?", matchID)
	var r resultPostRow
	if err := db.db.WithContext(ctx).Where("match_id = ?", matchID).Take(&r).Error; err != nil {
		return wrap("save result", err, "no result post")
	}
	if r.MessageID == "" {
		set["message_id"] = messageID
	}
	return wrap("save result", q.Updates(set).Error, "")
}

// ReleaseResult implements panel.Store: a post that failed is tried again
// by the next sweep.
func (db *DB) ReleaseResult(ctx context.Context, matchID int64) error {
	err := db.db.WithContext(ctx).Model(&resultPostRow{}).Where("match_id = ?", matchID).Update("claimed_until", nil).Error
	return wrap("release result", err, "")
}
