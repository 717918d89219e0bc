package storage

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

var _ ladder.LobbyStore = (*tx)(nil)

type lobbyRow struct {
	QueueID        int64 `gorm:"primaryKey"`
	ReadyWindowMS  int64 `gorm:"column:ready_window_ms"`
	Cooldowns      string
	AbandonAfterMS int64 `gorm:"column:abandon_after_ms"`
	CancelShare    float64
	RatingPenalty  float64
	PickMode       string
	PickWindowMS   int64 `gorm:"column:pick_window_ms"`
}

func (lobbyRow) TableName() string { return "queue_lobby" }

type readyCheckRow struct {
	MatchID  int64 `gorm:"primaryKey"`
	GuildID  string
	QueueID  int64
	Deadline time.Time
	State    string
}

func (readyCheckRow) TableName() string { return "ready_checks" }

type readyPlayerRow struct {
	MatchID   int64  `gorm:"primaryKey"`
	UserID    string `gorm:"primaryKey"`
	Ticket    int
	JoinedAt  time.Time
	ChannelID string
	ReadyAt   *time.Time
}

func (readyPlayerRow) TableName() string { return "ready_players" }

type cooldownRow struct {
	ID      int64 `gorm:"primaryKey"`
	GuildID string
	UserID  string
	MatchID int64
	Reason  string
	// ReasonCode is NULL in rows written before reason codes were
	// (reasonCode).
	ReasonCode *string
	CreatedAt  time.Time
	Until      time.Time
	ClearedAt  *time.Time
}

func (cooldownRow) TableName() string { return "queue_cooldowns" }

type cancelVoteRow struct {
	MatchID   int64  `gorm:"primaryKey"`
	UserID    string `gorm:"primaryKey"`
	CreatedAt time.Time
}

func (cancelVoteRow) TableName() string { return "cancel_votes" }

// Lobby implements ladder.LobbyStore.
func (t *tx) Lobby(ctx context.Context, queueID int64) (ladder.Lobby, error) {
	var rows []lobbyRow
	if err := t.q(ctx).Where("queue_id = ?", queueID).Limit(1).Find(&rows).Error; err != nil {
		return ladder.Lobby{}, wrap("lobby", err, "")
	}
	if len(rows) == 0 {
		return ladder.DefaultLobby(queueID), nil
	}
	r := rows[0]
	cds, err := ladder.ParseCooldowns(r.Cooldowns)
	if err != nil {
		return ladder.Lobby{}, fmt.Errorf("storage: lobby of queue %d: %w", queueID, err)
	}
	return ladder.Lobby{QueueID: queueID, ReadyWindow: time.Duration(r.ReadyWindowMS) * time.Millisecond, Cooldowns: cds,
		AbandonAfter: time.Duration(r.AbandonAfterMS) * time.Millisecond, CancelShare: r.CancelShare, RatingPenalty: r.RatingPenalty,
		PickMode: ladder.PickMode(r.PickMode), PickWindow: time.Duration(r.PickWindowMS) * time.Millisecond}, nil
}

// SaveLobby implements ladder.LobbyStore.
func (t *tx) SaveLobby(ctx context.Context, l ladder.Lobby) error {
	r := lobbyRow{QueueID: l.QueueID, ReadyWindowMS: l.ReadyWindow.Milliseconds(), Cooldowns: ladder.FormatCooldowns(l.Cooldowns),
		AbandonAfterMS: l.AbandonAfter.Milliseconds(), CancelShare: l.CancelShare, RatingPenalty: l.RatingPenalty,
		PickMode: string(l.PickMode), PickWindowMS: l.PickWindow.Milliseconds()}
	err := t.q(ctx).Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "queue_id"}}, UpdateAll: true}).Create(&r).Error
	return wrap("save lobby", err, "")
}

// AddReadyCheck implements ladder.LobbyStore.
func (t *tx) AddReadyCheck(ctx context.Context, rc ladder.ReadyCheck) error {
	r := readyCheckRow{MatchID: rc.MatchID, GuildID: rc.GuildID, QueueID: rc.QueueID, Deadline: rc.Deadline.UTC(), State: string(rc.State)}
	if err := t.q(ctx).Create(&r).Error; err != nil {
		return wrap("add ready check", err, "the match already has a ready check")
	}
	ps := make([]readyPlayerRow, len(rc.Seats))
	for i, s := range rc.Seats {
		ps[i] = readyPlayerRow{MatchID: rc.MatchID, UserID: s.UserID, Ticket: s.Ticket, JoinedAt: s.JoinedAt.UTC(), ChannelID: s.ChannelID}
	}
	return wrap("add ready check", t.q(ctx).Create(&ps).Error, "")
}

// ReadyCheck implements ladder.LobbyStore.
func (t *tx) ReadyCheck(ctx context.Context, matchID int64) (ladder.ReadyCheck, error) {
	// One read for the check and its seats: a check always has seats, so
	// no row means no check. Reports and every Ready click ask for it.
	var rows []struct {
		MatchID   int64
		GuildID   string
		QueueID   int64
		Deadline  time.Time
		State     string
		UserID    string
		Ticket    int
		JoinedAt  time.Time
		ChannelID string
		ReadyAt   *time.Time
	}
	err := t.q(ctx).Raw(`SELECT c.match_id, c.guild_id, c.queue_id, c.deadline, c.state,
 p.user_id, p.ticket, p.joined_at, p.channel_id, p.ready_at
 FROM ready_checks c JOIN ready_players p ON p.match_id = c.match_id
 WHERE c.match_id = ? ORDER BY p.ticket, p.user_id`, matchID).Scan(&rows).Error
	if err == nil && len(rows) == 0 {
		err = gorm.ErrRecordNotFound
	}
	if err != nil {
		return ladder.ReadyCheck{}, wrap("ready check", err, "match %d has no ready check", matchID)
	}
	r := rows[0]
	rc := ladder.ReadyCheck{MatchID: r.MatchID, GuildID: r.GuildID, QueueID: r.QueueID, Deadline: r.Deadline.UTC(), State: ladder.ReadyState(r.State)}
	for _, p := range rows {
		s := ladder.Seat{UserID: p.UserID, Ticket: p.Ticket, JoinedAt: p.JoinedAt.UTC(), ChannelID: p.ChannelID}
		if p.ReadyAt != nil {
			s.ReadyAt = p.ReadyAt.UTC()
		}
		rc.Seats = append(rc.Seats, s)
	}
	return rc, nil
}

// SetReady implements ladder.LobbyStore.
func (t *tx) SetReady(ctx context.Context, matchID int64, userID string, at time.Time) error {
	at = at.UTC()
	res := t.q(ctx).Model(&readyPlayerRow{}).Where("match_id = ? AND user_id = ?", matchID, userID).Update("ready_at", &at)
	return wrap("set ready", found(res), "%s is not in the ready check of match %d", userID, matchID)
}

// SetReadyState implements ladder.LobbyStore: the update applies only to a
// pending row, so of two writers racing only one sees a row changed.
func (t *tx) SetReadyState(ctx context.Context, matchID int64, state ladder.ReadyState) (bool, error) {
	res := t.q(ctx).Model(&readyCheckRow{}).Where("match_id = ? AND state = ?", matchID, string(ladder.ReadyPending)).Update("state", string(state))
	if res.Error != nil {
		return false, wrap("set ready state", res.Error, "")
	}
	return res.RowsAffected == 1, nil
}

// DueReadyChecks implements ladder.LobbyStore.
func (t *tx) DueReadyChecks(ctx context.Context, at time.Time, limit int) ([]int64, error) {
	var ids []int64
	err := t.q(ctx).Model(&readyCheckRow{}).Where("state = ? AND deadline <= ?", string(ladder.ReadyPending), at.UTC()).
		Order("deadline, match_id").Limit(max(limit, 1)).Pluck("match_id", &ids).Error
	return ids, wrap("due ready checks", err, "")
}

// AddCooldown implements ladder.LobbyStore.
func (t *tx) AddCooldown(ctx context.Context, c ladder.Cooldown) (ladder.Cooldown, error) {
	r := cooldownRow{GuildID: c.GuildID, UserID: c.UserID, MatchID: c.MatchID, Reason: c.Reason, ReasonCode: &c.ReasonCode,
		CreatedAt: c.CreatedAt.UTC(), Until: c.Until.UTC()}
	if err := t.q(ctx).Create(&r).Error; err != nil {
		return ladder.Cooldown{}, wrap("add cooldown", err, "")
	}
	c.ID = r.ID
	return c, nil
}

// Cooldowns implements ladder.LobbyStore.
func (t *tx) Cooldowns(ctx context.Context, guildID, userID string, since time.Time) ([]ladder.Cooldown, error) {
	var rows []cooldownRow
	err := t.q(ctx).Where("guild_id = ? AND user_id = ? AND created_at >= ?", guildID, userID, since.UTC()).
		Order("created_at DESC, id DESC").Find(&rows).Error
	if err != nil {
		return nil, wrap("cooldowns", err, "")
	}
	out := make([]ladder.Cooldown, len(rows))
	for i, r := range rows {
		out[i] = ladder.Cooldown{ID: r.ID, GuildID: r.GuildID, UserID: r.UserID, MatchID: r.MatchID, Reason: r.Reason,
			ReasonCode: reasonCode(r.ReasonCode, r.Reason), CreatedAt: r.CreatedAt.UTC(), Until: r.Until.UTC()}
		if r.ClearedAt != nil {
			out[i].ClearedAt = r.ClearedAt.UTC()
		}
	}
	return out, nil
}

// ClearCooldowns implements ladder.LobbyStore.
func (t *tx) ClearCooldowns(ctx context.Context, guildID, userID string, at time.Time) (int, error) {
	at = at.UTC()
	res := t.q(ctx).Model(&cooldownRow{}).Where("guild_id = ? AND user_id = ? AND cleared_at IS NULL AND until > ?", guildID, userID, at).
		Update("cleared_at", &at)
	return int(res.RowsAffected), wrap("clear cooldowns", res.Error, "")
}

// AddCancelVote implements ladder.LobbyStore.
func (t *tx) AddCancelVote(ctx context.Context, matchID int64, userID string, at time.Time) (bool, error) {
	res := t.q(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&cancelVoteRow{MatchID: matchID, UserID: userID, CreatedAt: at.UTC()})
	if res.Error != nil {
		return false, wrap("add cancel vote", res.Error, "")
	}
	return res.RowsAffected == 1, nil
}

// CancelVotes implements ladder.LobbyStore.
func (t *tx) CancelVotes(ctx context.Context, matchID int64) ([]string, error) {
	var us []string
	err := t.q(ctx).Model(&cancelVoteRow{}).Where("match_id = ?", matchID).Order("user_id").Pluck("user_id", &us).Error
	return us, wrap("cancel votes", err, "")
}

// OpenMatchesBefore implements ladder.LobbyStore.
func (t *tx) OpenMatchesBefore(ctx context.Context, at time.Time, limit int) ([]ladder.Match, error) {
	var rows []matchRow
	// Read from matches_open, the partial index of open matches in this
	// order (00620): before it, each run of the abandon job read every
	// match of the database on SQLite.
	err := t.q(ctx).Where("state = ? AND created_at < ?", string(ladder.StateOpen), at.UTC()).Order("created_at, id").Limit(max(limit, 1)).Find(&rows).Error
	if err != nil {
		return nil, wrap("open matches", err, "")
	}
	return matches(rows), nil
}

type subRequestRow struct {
	MatchID   int64  `gorm:"primaryKey"`
	UserID    string `gorm:"primaryKey"`
	CreatedAt time.Time
	FilledBy  string
	FilledAt  *time.Time
}

func (subRequestRow) TableName() string { return "sub_requests" }

var _ ladder.SubStore = (*tx)(nil)

// AddSubRequest implements ladder.SubStore.
func (t *tx) AddSubRequest(ctx context.Context, r ladder.SubRequest) (bool, error) {
	res := t.q(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&subRequestRow{MatchID: r.MatchID, UserID: r.UserID, CreatedAt: r.CreatedAt.UTC()})
	if res.Error != nil {
		return false, wrap("add sub request", res.Error, "")
	}
	return res.RowsAffected == 1, nil
}

// SubRequests implements ladder.SubStore.
func (t *tx) SubRequests(ctx context.Context, matchID int64) ([]ladder.SubRequest, error) {
	var rows []subRequestRow
	if err := t.q(ctx).Where("match_id = ?", matchID).Order("created_at, user_id").Find(&rows).Error; err != nil {
		return nil, wrap("sub requests", err, "")
	}
	out := make([]ladder.SubRequest, len(rows))
	for i, r := range rows {
		out[i] = ladder.SubRequest{MatchID: r.MatchID, UserID: r.UserID, CreatedAt: r.CreatedAt.UTC(), FilledBy: r.FilledBy}
		if r.FilledAt != nil {
			out[i].FilledAt = r.FilledAt.UTC()
		}
	}
	return out, nil
}

// FillSubRequest implements ladder.SubStore.
func (t *tx) FillSubRequest(ctx context.Context, matchID int64, userID, by string, at time.Time) error {
	at = at.UTC()
	res := t.q(ctx).Model(&subRequestRow{}).Where("match_id = ? AND user_id = ?", matchID, userID).
		Updates(map[string]any{"filled_by": by, "filled_at": &at})
	return wrap("fill sub request", found(res), "no sub request of %s in match %d", userID, matchID)
}

// ReplacePlayer implements ladder.SubStore. The partial unique index on
// active match_players turns a player already in an active match into
// CodeConflict.
func (t *tx) ReplacePlayer(ctx context.Context, m ladder.Match, out, in string) error {
	r := toMatchRow(m)
	res := t.q(ctx).Model(&matchRow{}).Where("id = ?", m.ID).Updates(map[string]any{"team1": r.Team1, "team2": r.Team2})
	if err := found(res); err != nil {
		return wrap("replace player", err, "match %d not found", m.ID)
	}
	res = t.q(ctx).Model(&matchPlayerRow{}).Where("match_id = ? AND user_id = ?", m.ID, out).Update("user_id", in)
	if err := found(res); err != nil {
		return wrap("replace player", err, "%s is not in match %d", out, m.ID)
	}
	if err := t.replaceFormatSeat(ctx, m.ID, out, in); err != nil {
		return wrap("replace player", err, "")
	}
	// A spectator who called a side and now takes a seat plays the match:
	// their call goes with the seat. The match is open, so the call
	// counted for nothing yet and the predictors' points stay as they are.
	err := t.q(ctx).Where("match_id = ? AND user_id = ?", m.ID, in).Delete(&predictionRow{}).Error
	return wrap("replace player", err, "")
}

type noShowRow struct {
	MatchID    int64 `gorm:"primaryKey"`
	ReportedBy string
	Absent     string
	CreatedAt  time.Time
	Deadline   time.Time
	State      string
}

func (noShowRow) TableName() string { return "no_shows" }

var _ ladder.NoShowStore = (*tx)(nil)

// AddNoShow implements ladder.NoShowStore.
func (t *tx) AddNoShow(ctx context.Context, n ladder.NoShow) error {
	r := noShowRow{MatchID: n.MatchID, ReportedBy: n.ReportedBy, Absent: strings.Join(n.Absent, ","), CreatedAt: n.CreatedAt.UTC(),
		Deadline: n.Deadline.UTC(), State: n.State}
	return wrap("add no-show", t.q(ctx).Create(&r).Error, "a no-show is already reported in this match")
}

// NoShow implements ladder.NoShowStore.
func (t *tx) NoShow(ctx context.Context, matchID int64) (ladder.NoShow, error) {
	var r noShowRow
	if err := t.q(ctx).Where("match_id = ?", matchID).Take(&r).Error; err != nil {
		return ladder.NoShow{}, wrap("no-show", err, "no no-show is reported in match %d", matchID)
	}
	return ladder.NoShow{MatchID: r.MatchID, ReportedBy: r.ReportedBy, Absent: strings.Split(r.Absent, ","), CreatedAt: r.CreatedAt.UTC(),
		Deadline: r.Deadline.UTC(), State: r.State}, nil
}

// ConfirmNoShowRow implements ladder.NoShowStore.
func (t *tx) ConfirmNoShowRow(ctx context.Context, matchID int64) (bool, error) {
	res := t.q(ctx).Model(&noShowRow{}).Where("match_id = ? AND state = ?", matchID, "pending").Update("state", "confirmed")
	return res.RowsAffected == 1, wrap("confirm no-show", res.Error, "")
}

// DueNoShows implements ladder.NoShowStore.
func (t *tx) DueNoShows(ctx context.Context, at time.Time, limit int) ([]int64, error) {
	var ids []int64
	err := t.q(ctx).Model(&noShowRow{}).Where("state = ? AND deadline <= ?", "pending", at.UTC()).
		Order("deadline, match_id").Limit(max(limit, 1)).Pluck("match_id", &ids).Error
	return ids, wrap("due no-shows", err, "")
}
