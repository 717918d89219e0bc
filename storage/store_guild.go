package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
	"gorm.io/gorm/clause"
)

type guildRow struct {
	ID                string
	ModeratorRoleID   string
	AnnounceChannelID string
	LogChannelID      string
	PlacementGames    int
	StaleDays         int
	SeasonSchedule    string
	SeasonCarry       float64
	ConfirmWindowS    int64 `gorm:"column:confirm_window_s"`
	QueueTimeoutS     int64 `gorm:"column:queue_timeout_s"`
	Divisions         string
	WeeklyTop         bool
	Language          string
	PreferredLocale   string
	SeasonScheduleAt  *time.Time
	CreatedAt         time.Time
}

func (guildRow) TableName() string { return "guilds" }

func toGuildRow(g ladder.Guild) guildRow {
	divs, _ := json.Marshal(g.Divisions)
	return guildRow{
		ID: g.ID, ModeratorRoleID: g.ModeratorRoleID, AnnounceChannelID: g.AnnounceChannelID, LogChannelID: g.LogChannelID,
		PlacementGames: g.PlacementGames, StaleDays: g.StaleDays, SeasonSchedule: g.SeasonSchedule, SeasonCarry: g.SeasonCarry,
		ConfirmWindowS: int64(g.ConfirmWindow / time.Second), QueueTimeoutS: int64(g.QueueTimeout / time.Second),
		Divisions: string(divs), WeeklyTop: g.WeeklyTop, Language: g.Language, PreferredLocale: g.PreferredLocale, CreatedAt: g.CreatedAt.UTC(),
		SeasonScheduleAt: optionalTime(g.SeasonScheduleAt),
	}
}

func (r guildRow) guild() (ladder.Guild, error) {
	g := ladder.Guild{
		ID: r.ID, ModeratorRoleID: r.ModeratorRoleID, AnnounceChannelID: r.AnnounceChannelID, LogChannelID: r.LogChannelID,
		PlacementGames: r.PlacementGames, StaleDays: r.StaleDays, SeasonSchedule: r.SeasonSchedule, SeasonCarry: r.SeasonCarry,
		ConfirmWindow: time.Duration(r.ConfirmWindowS) * time.Second, QueueTimeout: time.Duration(r.QueueTimeoutS) * time.Second,
		WeeklyTop: r.WeeklyTop, Language: r.Language, PreferredLocale: r.PreferredLocale, CreatedAt: r.CreatedAt.UTC(),
	}
	if r.SeasonScheduleAt != nil {
		g.SeasonScheduleAt = r.SeasonScheduleAt.UTC()
	}
	if err := json.Unmarshal([]byte(r.Divisions), &g.Divisions); err != nil {
		return g, fmt.Errorf("storage: guild %s: divisions: %w", r.ID, err)
	}
	return g, nil
}

// Guild implements ladder.Tx.
func (t *tx) Guild(ctx context.Context, id string) (ladder.Guild, error) {
	var r guildRow
	if err := t.q(ctx).Where("id = ?", id).Take(&r).Error; err != nil {
		return ladder.Guild{}, wrap("guild", err, "guild %s not found", id)
	}
	return r.guild()
}

// Guilds implements ladder.Tx.
func (t *tx) Guilds(ctx context.Context) ([]ladder.Guild, error) {
	var rs []guildRow
	if err := t.q(ctx).Order("id").Find(&rs).Error; err != nil {
		return nil, wrap("guilds", err, "")
	}
	out := make([]ladder.Guild, 0, len(rs))
	for _, r := range rs {
		g, err := r.guild()
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

// ListedCounts implements ladder.Tx: one statement over the guilds'
// default queues (the oldest, as ladder.resolveQueue picks) and current
// seasons (the highest number), counting rows as the board lists them
// (listedAs).
func (t *tx) ListedCounts(ctx context.Context, guildIDs []string) (map[string]int, error) {
	var rows []struct {
		GuildID string
		N       int
	}
	err := t.q(ctx).Raw("SELECT r.guild_id AS guild_id, count(*) AS n FROM ratings r "+
		"JOIN (SELECT min(id) AS id FROM queues WHERE guild_id IN ? GROUP BY guild_id) dq ON dq.id = r.queue_id "+
		"JOIN (SELECT guild_id, max(number) AS number FROM seasons WHERE guild_id IN ? GROUP BY guild_id) cs ON cs.guild_id = r.guild_id "+
		"JOIN seasons s ON s.guild_id = cs.guild_id AND s.number = cs.number AND s.id = r.season_id "+
		"WHERE "+t.listedAs("r")+" GROUP BY r.guild_id", guildIDs, guildIDs).Scan(&rows).Error
	if err != nil {
		return nil, wrap("listed counts", err, "")
	}
	out := make(map[string]int, len(rows))
	for _, r := range rows {
		out[r.GuildID] = r.N
	}
	return out, nil
}

// CreateGuild implements ladder.Tx.
func (t *tx) CreateGuild(ctx context.Context, g ladder.Guild) (bool, error) {
	r := toGuildRow(g)
	res := t.q(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&r)
	if res.Error != nil {
		return false, wrap("create guild", res.Error, "guild exists")
	}
	return res.RowsAffected == 1, nil
}

// UpdateGuild implements ladder.Tx.
func (t *tx) UpdateGuild(ctx context.Context, g ladder.Guild) error {
	r := toGuildRow(g)
	res := t.q(ctx).Model(&guildRow{}).Where("id = ?", g.ID).Select("*").Omit("id", "created_at", "preferred_locale").Updates(&r)
	return wrap("update guild", found(res), "guild %s not found", g.ID)
}

// SetPreferredLocale implements ladder.Tx.
func (t *tx) SetPreferredLocale(ctx context.Context, guildID, locale string) error {
	res := t.q(ctx).Model(&guildRow{}).Where("id = ?", guildID).Update("preferred_locale", locale)
	return wrap("set preferred locale", found(res), "guild %s not found", guildID)
}

type queueRow struct {
	ID        int64 `gorm:"primaryKey"`
	GuildID   string
	Name      string
	TeamSize  int
	Model     string
	Params    string
	ChannelID string
	QStart    float64 `gorm:"column:q_start"`
	QFloor    float64 `gorm:"column:q_floor"`
	Buckets   int
	BucketMs  int64 `gorm:"column:bucket_ms"`
	Boost     float64
	RDMax     float64 `gorm:"column:rd_max"`
	// The party rating of seed 003 (migration 00048).
	PartyMaxWeight    float64
	PartyMedianWeight float64
	OrdinalDeviations float64
	// Behaviour pairing (migration 00080).
	BehaviourPairing int
	Disabled         bool
	SelfTune         bool `gorm:"column:self_tune"`
	CreatedAt        time.Time
}

func (queueRow) TableName() string { return "queues" }

func toQueueRow(q ladder.Queue) queueRow {
	params := "{}"
	if len(q.Params) > 0 {
		b, _ := json.Marshal(q.Params)
		params = string(b)
	}
	return queueRow{
		ID: q.ID, GuildID: q.GuildID, Name: q.Name, TeamSize: q.TeamSize, Model: q.Model, Params: params, ChannelID: q.ChannelID,
		QStart: q.QStart, QFloor: q.QFloor, Buckets: q.Buckets, BucketMs: q.Bucket.Milliseconds(), Boost: q.Boost, RDMax: q.RDMax,
		PartyMaxWeight: q.PartyMaxWeight, PartyMedianWeight: q.PartyMedianWeight, OrdinalDeviations: q.OrdinalDeviations,
		BehaviourPairing: q.BehaviourPairing, Disabled: q.Disabled, SelfTune: q.SelfTune, CreatedAt: q.CreatedAt.UTC(),
	}
}

func (r queueRow) queue() (ladder.Queue, error) {
	q := ladder.Queue{
		ID: r.ID, GuildID: r.GuildID, Name: r.Name, TeamSize: r.TeamSize, Model: r.Model, ChannelID: r.ChannelID,
		QStart: r.QStart, QFloor: r.QFloor, Buckets: r.Buckets, Bucket: time.Duration(r.BucketMs) * time.Millisecond,
		Boost: r.Boost, RDMax: r.RDMax, Disabled: r.Disabled, SelfTune: r.SelfTune,
		PartyMaxWeight: r.PartyMaxWeight, PartyMedianWeight: r.PartyMedianWeight, OrdinalDeviations: r.OrdinalDeviations,
		BehaviourPairing: r.BehaviourPairing, CreatedAt: r.CreatedAt.UTC(),
	}
	if r.Params != "" && r.Params != "{}" {
		if err := json.Unmarshal([]byte(r.Params), &q.Params); err != nil {
			return q, fmt.Errorf("storage: queue %d: params: %w", r.ID, err)
		}
	}
	return q, nil
}

func queues(rs []queueRow) ([]ladder.Queue, error) {
	out := make([]ladder.Queue, 0, len(rs))
	for _, r := range rs {
		q, err := r.queue()
		if err != nil {
			return nil, err
		}
		out = append(out, q)
	}
	return out, nil
}

// Queue implements ladder.Tx.
func (t *tx) Queue(ctx context.Context, id int64) (ladder.Queue, error) {
	var r queueRow
	if err := t.q(ctx).Where("id = ?", id).Take(&r).Error; err != nil {
		return ladder.Queue{}, wrap("queue", err, "queue %d not found", id)
	}
	return r.queue()
}

// QueueForUpdate implements ladder.Tx: SELECT … FOR UPDATE on PostgreSQL,
// a read in SQLite's serialised write transactions.
func (t *tx) QueueForUpdate(ctx context.Context, id int64) (ladder.Queue, error) {
	return t.lockQueue(ctx, id, clause.LockingStrengthUpdate)
}

func (t *tx) lockQueue(ctx context.Context, id int64, strength string) (ladder.Queue, error) {
	db := t.q(ctx)
	if t.dialect == Postgres {
		db = db.Clauses(clause.Locking{Strength: strength})
	}
	var r queueRow
	if err := db.Where("id = ?", id).Take(&r).Error; err != nil {
		return ladder.Queue{}, wrap("lock queue", err, "queue %d not found", id)
	}
	return r.queue()
}

// QueueByName implements ladder.Tx.
func (t *tx) QueueByName(ctx context.Context, guildID, name string) (ladder.Queue, error) {
	var r queueRow
	if err := t.q(ctx).Where("guild_id = ? AND name = ?", guildID, name).Take(&r).Error; err != nil {
		return ladder.Queue{}, wrap("queue", err, "no queue called %q", name)
	}
	return r.queue()
}

// Queues implements ladder.Tx.
func (t *tx) Queues(ctx context.Context, guildID string) ([]ladder.Queue, error) {
	var rs []queueRow
	if err := t.q(ctx).Where("guild_id = ?", guildID).Order("id").Find(&rs).Error; err != nil {
		return nil, wrap("queues", err, "")
	}
	return queues(rs)
}

// CreateQueue implements ladder.Tx.
func (t *tx) CreateQueue(ctx context.Context, q ladder.Queue) (ladder.Queue, error) {
	r := toQueueRow(q)
	r.ID = 0
	if err := t.q(ctx).Create(&r).Error; err != nil {
		return ladder.Queue{}, wrap("create queue", err, "a queue called %q exists", q.Name)
	}
	q.ID = r.ID
	if err := t.createCalibrator(ctx, q); err != nil {
		return ladder.Queue{}, err
	}
	return q, nil
}

// UpdateQueue implements ladder.Tx.
func (t *tx) UpdateQueue(ctx context.Context, q ladder.Queue) error {
	r := toQueueRow(q)
	res := t.q(ctx).Model(&queueRow{}).Where("id = ?", q.ID).Select("*").Omit("id", "guild_id", "created_at").Updates(&r)
	return wrap("update queue", found(res), "queue %d not found or name %q taken", q.ID, q.Name)
}

type seasonRow struct {
	ID        int64 `gorm:"primaryKey"`
	GuildID   string
	Number    int
	StartedAt time.Time
	EndedAt   *time.Time
}

func (seasonRow) TableName() string { return "seasons" }

func (r seasonRow) season() ladder.Season {
	return ladder.Season{ID: r.ID, GuildID: r.GuildID, Number: r.Number, StartedAt: r.StartedAt.UTC(), EndedAt: tv(r.EndedAt)}
}

// CurrentSeason implements ladder.Tx.
func (t *tx) CurrentSeason(ctx context.Context, guildID string) (ladder.Season, error) {
	var r seasonRow
	if err := t.q(ctx).Where("guild_id = ?", guildID).Order("number DESC").Take(&r).Error; err != nil {
		return ladder.Season{}, wrap("current season", err, "guild %s has no season", guildID)
	}
	return r.season(), nil
}

// Season implements ladder.Tx.
func (t *tx) Season(ctx context.Context, guildID string, number int) (ladder.Season, error) {
	var r seasonRow
	if err := t.q(ctx).Where("guild_id = ? AND number = ?", guildID, number).Take(&r).Error; err != nil {
		return ladder.Season{}, wrap("season", err, "season %d not found", number)
	}
	return r.season(), nil
}

// Seasons implements ladder.Tx.
func (t *tx) Seasons(ctx context.Context, guildID string) ([]ladder.Season, error) {
	var rs []seasonRow
	if err := t.q(ctx).Where("guild_id = ?", guildID).Order("number").Find(&rs).Error; err != nil {
		return nil, wrap("seasons", err, "")
	}
	out := make([]ladder.Season, len(rs))
	for i, r := range rs {
		out[i] = r.season()
	}
	return out, nil
}

// CreateSeason implements ladder.Tx.
func (t *tx) CreateSeason(ctx context.Context, s ladder.Season) (ladder.Season, error) {
	r := seasonRow{GuildID: s.GuildID, Number: s.Number, StartedAt: s.StartedAt.UTC(), EndedAt: nt(s.EndedAt)}
	if err := t.q(ctx).Create(&r).Error; err != nil {
		return ladder.Season{}, wrap("create season", err, "season %d exists or another season is running", s.Number)
	}
	return r.season(), nil
}

// EndSeason implements ladder.Tx.
func (t *tx) EndSeason(ctx context.Context, seasonID int64, at time.Time) error {
	res := t.q(ctx).Model(&seasonRow{}).Where("id = ? AND ended_at IS NULL", seasonID).Update("ended_at", at.UTC())
	if err := wrap("end season", found(res), "season %d not found or already ended", seasonID); err != nil {
		return err
	}
	return t.seasonEnded(ctx, seasonID)
}

type seasonResultRow struct {
	SeasonID int64
	QueueID  int64
	UserID   string
	Name     string
	Rank     int
	Rating   float64
	RD       float64 `gorm:"column:rd"`
	Division string
	Badge    string
	Wins     int
	Losses   int
	Draws    int
}

func (seasonResultRow) TableName() string { return "season_results" }

// SaveSeasonResults implements ladder.Tx.
func (t *tx) SaveSeasonResults(ctx context.Context, rs []ladder.SeasonResult) error {
	if len(rs) == 0 {
		return nil
	}
	rows := make([]seasonResultRow, len(rs))
	for i, r := range rs {
		rows[i] = seasonResultRow{SeasonID: r.SeasonID, QueueID: r.QueueID, UserID: r.UserID, Name: r.Name, Rank: r.Rank,
			Rating: r.Rating, RD: r.RD, Division: r.Division, Badge: r.Badge, Wins: r.Wins, Losses: r.Losses, Draws: r.Draws}
	}
	// The row type has no primary key tags, so name the conflict target:
	// PostgreSQL refuses ON CONFLICT DO UPDATE without one.
	err := t.q(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "season_id"}, {Name: "queue_id"}, {Name: "user_id"}},
		UpdateAll: true,
	}).CreateInBatches(rows, 500).Error
	return wrap("save season results", err, "season results conflict")
}

// DeleteSeasonResults implements ladder.Tx.
func (t *tx) DeleteSeasonResults(ctx context.Context, seasonID, queueID int64) error {
	err := t.q(ctx).Where("season_id = ? AND queue_id = ?", seasonID, queueID).Delete(&seasonResultRow{}).Error
	return wrap("delete season results", err, "")
}

// SeasonResults implements ladder.Tx.
func (t *tx) SeasonResults(ctx context.Context, seasonID, queueID int64) ([]ladder.SeasonResult, error) {
	var rows []seasonResultRow
	if err := t.q(ctx).Where("season_id = ? AND queue_id = ?", seasonID, queueID).Order("rank").Find(&rows).Error; err != nil {
		return nil, wrap("season results", err, "")
	}
	out := make([]ladder.SeasonResult, len(rows))
	for i, r := range rows {
		out[i] = ladder.SeasonResult{SeasonID: r.SeasonID, QueueID: r.QueueID, UserID: r.UserID, Name: r.Name, Rank: r.Rank,
			Rating: r.Rating, RD: r.RD, Division: r.Division, Badge: r.Badge, Wins: r.Wins, Losses: r.Losses, Draws: r.Draws}
	}
	return out, nil
}

type playerRow struct {
	GuildID   string
	UserID    string
	Name      string
	CreatedAt time.Time
}

func (playerRow) TableName() string { return "players" }

// UpsertPlayers implements ladder.Tx. Rows are written in key order so
// concurrent upserts never wait on each other in a cycle.
func (t *tx) UpsertPlayers(ctx context.Context, ps []ladder.Player) error {
	if len(ps) == 0 {
		return nil
	}
	rows := make([]playerRow, len(ps))
	now := dbNow()
	for i, p := range ps {
		rows[i] = playerRow{GuildID: p.GuildID, UserID: p.UserID, Name: p.Name, CreatedAt: now}
	}
	rows = sortBy(rows, func(r playerRow) string { return r.GuildID + "\x00" + r.UserID })
	// Only non-empty names overwrite, and only when they differ, so an
	// unchanged player costs no row write.
	err := t.q(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "guild_id"}, {Name: "user_id"}},
		DoUpdates: clause.Assignments(map[string]any{"name": clause.Expr{SQL: "excluded.name"}}),
		Where:     clause.Where{Exprs: []clause.Expression{clause.Expr{SQL: "excluded.name <> '' AND excluded.name <> players.name"}}},
	}).Create(&rows).Error
	return wrap("upsert players", err, "player conflict")
}

// Player implements ladder.Tx.
func (t *tx) Player(ctx context.Context, guildID, userID string) (ladder.Player, error) {
	var r playerRow
	if err := t.q(ctx).Where("guild_id = ? AND user_id = ?", guildID, userID).Take(&r).Error; err != nil {
		return ladder.Player{}, wrap("player", err, "player %s not found", userID)
	}
	return ladder.Player{GuildID: r.GuildID, UserID: r.UserID, Name: r.Name}, nil
}
