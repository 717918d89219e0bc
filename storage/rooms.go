package storage

import (
	"context"
	"time"

	"gorm.io/gorm/clause"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/rooms"
)

var _ rooms.Store = (*DB)(nil)

type roomSettingsRow struct {
	QueueID      int64 `gorm:"primaryKey;autoIncrement:false"`
	Mode         string
	CategoryID   string
	Voice        bool
	LobbyVoiceID string
	LingerMS     int64 `gorm:"column:linger_ms"`
}

func (roomSettingsRow) TableName() string { return "room_settings" }

type matchRoomRow struct {
	MatchID       int64 `gorm:"primaryKey;autoIncrement:false"`
	GuildID       string
	QueueID       int64
	Mode          string
	HomeChannelID string
	ChannelID     string
	Voice1ID      string `gorm:"column:voice1_id"`
	Voice2ID      string `gorm:"column:voice2_id"`
	LobbyVoiceID  string
	Moved         string
	Members       string
	State         string
	CreatedAt     time.Time `gorm:"autoCreateTime:false"`
	EndedAt       *time.Time
	CloseAt       *time.Time
}

func (matchRoomRow) TableName() string { return "match_rooms" }

func roomRow(r rooms.Room) matchRoomRow {
	return matchRoomRow{
		MatchID: r.MatchID, GuildID: r.GuildID, QueueID: r.QueueID, Mode: string(r.Mode),
		HomeChannelID: r.HomeChannelID, ChannelID: r.ChannelID, Voice1ID: r.VoiceIDs[0], Voice2ID: r.VoiceIDs[1],
		LobbyVoiceID: r.LobbyVoiceID, Moved: rooms.JoinIDs(r.Moved), Members: rooms.JoinIDs(r.Members),
		State: string(r.State), CreatedAt: r.CreatedAt.UTC().Truncate(time.Microsecond),
		EndedAt: optionalTime(r.EndedAt.Truncate(time.Microsecond)), CloseAt: optionalTime(r.CloseAt.Truncate(time.Microsecond)),
	}
}

func (r matchRoomRow) room() rooms.Room {
	out := rooms.Room{
		MatchID: r.MatchID, GuildID: r.GuildID, QueueID: r.QueueID, Mode: rooms.Mode(r.Mode),
		HomeChannelID: r.HomeChannelID, ChannelID: r.ChannelID, VoiceIDs: [2]string{r.Voice1ID, r.Voice2ID},
		LobbyVoiceID: r.LobbyVoiceID, Moved: rooms.SplitIDs(r.Moved), Members: rooms.SplitIDs(r.Members),
		State: rooms.State(r.State), CreatedAt: r.CreatedAt.UTC(),
	}
	if r.EndedAt != nil {
		out.EndedAt = r.EndedAt.UTC()
	}
	if r.CloseAt != nil {
		out.CloseAt = r.CloseAt.UTC()
	}
	return out
}

// RoomSettings implements rooms.Store.
func (db *DB) RoomSettings(ctx context.Context, queueID int64) (rooms.Settings, error) {
	var rs []roomSettingsRow
	if err := db.db.WithContext(ctx).Where("queue_id = ?", queueID).Limit(1).Find(&rs).Error; err != nil {
		return rooms.Settings{}, wrap("room settings", err, "")
	}
	if len(rs) == 0 {
		return rooms.DefaultSettings(queueID), nil
	}
	r := rs[0]
	return rooms.Settings{QueueID: r.QueueID, Mode: rooms.Mode(r.Mode), CategoryID: r.CategoryID, Voice: r.Voice,
		LobbyVoiceID: r.LobbyVoiceID, Linger: time.Duration(r.LingerMS) * time.Millisecond}, nil
}

// SaveRoomSettings implements rooms.Store.
func (db *DB) SaveRoomSettings(ctx context.Context, s rooms.Settings, audit *ladder.AuditEntry) error {
	r := roomSettingsRow{QueueID: s.QueueID, Mode: string(s.Mode), CategoryID: s.CategoryID, Voice: s.Voice,
		LobbyVoiceID: s.LobbyVoiceID, LingerMS: s.Linger.Milliseconds()}
	return db.inTx(ctx, func(t *tx) error {
		err := t.q(ctx).Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "queue_id"}}, UpdateAll: true}).Create(&r).Error
		if err != nil {
			return wrap("save room settings", err, "queue %d not found", s.QueueID)
		}
		if audit == nil {
			return nil
		}
		return t.AddAudit(ctx, *audit)
	})
}

// BeginRoom implements rooms.Store: the primary key decides between two
// processes opening one match's room.
func (db *DB) BeginRoom(ctx context.Context, r rooms.Room) (bool, error) {
	row := roomRow(r)
	res := db.db.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&row)
	if res.Error != nil {
		return false, wrap("begin room", res.Error, "match %d not found", r.MatchID)
	}
	return res.RowsAffected == 1, nil
}

// UpdateRoom implements rooms.Store: a conditional update on the state,
// so a process working from a stale read never undoes another's step.
func (db *DB) UpdateRoom(ctx context.Context, r rooms.Room, from rooms.State) (bool, error) {
	row := roomRow(r)
	res := db.db.WithContext(ctx).Model(&matchRoomRow{}).Where("match_id = ? AND state = ?", r.MatchID, string(from)).Select("*").Updates(&row)
	if res.Error != nil {
		return false, wrap("update room", res.Error, "")
	}
	return res.RowsAffected == 1, nil
}

// MoveRoomState implements rooms.Store.
func (db *DB) MoveRoomState(ctx context.Context, matchID int64, from, to rooms.State) (bool, error) {
	res := db.db.WithContext(ctx).Exec(`UPDATE match_rooms SET state = ? WHERE match_id = ? AND state = ?`, string(to), matchID, string(from))
	if res.Error != nil {
		return false, wrap("move room state", res.Error, "")
	}
	return res.RowsAffected == 1, nil
}

// Room implements rooms.Store.
func (db *DB) Room(ctx context.Context, matchID int64) (rooms.Room, error) {
	var r matchRoomRow
	if err := db.db.WithContext(ctx).Where("match_id = ?", matchID).Take(&r).Error; err != nil {
		return rooms.Room{}, wrap("room", err, "match %d has no room", matchID)
	}
	return r.room(), nil
}

// liveRoomsWhere selects the live rooms after a match ID. The states are
// written out, so that SQLite searches match_rooms_live, a partial index of
// the live rooms, instead of every room ever opened after the ID (it uses
// such an index only when the query's test implies the index's, which a
// list of bound parameters cannot).
var liveRoomsWhere = "state IN (" + sqlStrings([]string{string(rooms.StateCreating), string(rooms.StateOpen), string(rooms.StateClosing)}) + ") AND match_id > ?"

// LiveRooms implements rooms.Store.
func (db *DB) LiveRooms(ctx context.Context, after int64, limit int) ([]rooms.Room, error) {
	var rs []matchRoomRow
	err := db.db.WithContext(ctx).Where(liveRoomsWhere, after).
		Order("match_id").Limit(limit).Find(&rs).Error
	if err != nil {
		return nil, wrap("live rooms", err, "")
	}
	out := make([]rooms.Room, len(rs))
	for i, r := range rs {
		out[i] = r.room()
	}
	return out, nil
}

// SetMatchChannel implements rooms.Store. It changes only the channel
// column, under the match's own row write, so it never undoes a state
// change made meanwhile.
func (db *DB) SetMatchChannel(ctx context.Context, matchID int64, channelID string) error {
	res := db.db.WithContext(ctx).Exec(`UPDATE matches SET channel_id = ? WHERE id = ?`, channelID, matchID)
	return wrap("set match channel", found(res), "match %d not found", matchID)
}

// MoveMatchChannel implements rooms.Store: a conditional update, so of
// two processes that find a room gone one moves the match.
func (db *DB) MoveMatchChannel(ctx context.Context, matchID int64, from, to string) (bool, error) {
	res := db.db.WithContext(ctx).Exec(`UPDATE matches SET channel_id = ? WHERE id = ? AND channel_id = ?`, to, matchID, from)
	if res.Error != nil {
		return false, wrap("move match channel", res.Error, "")
	}
	return res.RowsAffected == 1, nil
}

// OpenRoomByChannel implements rooms.Store.
func (db *DB) OpenRoomByChannel(ctx context.Context, channelID string) (rooms.Room, error) {
	var rs []matchRoomRow
	err := db.db.WithContext(ctx).Where("channel_id = ? AND state = ?", channelID, string(rooms.StateOpen)).Limit(1).Find(&rs).Error
	if err != nil {
		return rooms.Room{}, wrap("room by channel", err, "")
	}
	if channelID == "" || len(rs) == 0 {
		return rooms.Room{}, ladder.Errorf(ladder.CodeNotFound, "no open room in channel %s", channelID)
	}
	return rs[0].room(), nil
}

type roomWarningRow struct {
	GuildID    string `gorm:"primaryKey"`
	Problem    string `gorm:"primaryKey"`
	ReportedAt time.Time
}

func (roomWarningRow) TableName() string { return "room_warnings" }

// AddRoomWarning implements rooms.Store.
func (db *DB) AddRoomWarning(ctx context.Context, guildID, problem string, at time.Time) (bool, error) {
	res := db.db.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).
		Create(&roomWarningRow{GuildID: guildID, Problem: problem, ReportedAt: at.UTC().Truncate(time.Microsecond)})
	if res.Error != nil {
		return false, wrap("add room warning", res.Error, "")
	}
	return res.RowsAffected == 1, nil
}

// ClearRoomWarning implements rooms.Store.
func (db *DB) ClearRoomWarning(ctx context.Context, guildID, problem string) error {
	err := db.db.WithContext(ctx).Exec(`DELETE FROM room_warnings WHERE guild_id = ? AND problem = ?`, guildID, problem).Error
	return wrap("clear room warning", err, "")
}
