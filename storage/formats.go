package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm/clause"

	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/ladder"
)

var (
	_ formats.Store = (*DB)(nil)
	_ formats.Tx    = (*tx)(nil)
)

type queueFormatRow struct {
	QueueID      int64 `gorm:"primaryKey;autoIncrement:false"`
	MapPick      string
	BestOf       int
	SeriesRating string
}

func (queueFormatRow) TableName() string { return "queue_formats" }

type queueMapRow struct {
	QueueID  int64  `gorm:"primaryKey;autoIncrement:false"`
	Name     string `gorm:"primaryKey"`
	ImageURL string `gorm:"column:image_url"`
	Position int
}

func (queueMapRow) TableName() string { return "queue_maps" }

type mapPickRow struct {
	MatchID   int64 `gorm:"primaryKey;autoIncrement:false"`
	Game      int   `gorm:"primaryKey;autoIncrement:false"`
	GuildID   string
	QueueID   int64
	Mode      string
	State     string
	Pool      string
	Banner1   string `gorm:"column:banner1"`
	Banner2   string `gorm:"column:banner2"`
	Deadline  *time.Time
	Seed      int64
	Chosen    string
	ChannelID string
	MessageID string
	CreatedAt time.Time `gorm:"autoCreateTime:false"`
	Team      int
}

func (mapPickRow) TableName() string { return "map_picks" }

type mapVoteRow struct {
	MatchID int64  `gorm:"primaryKey;autoIncrement:false"`
	Game    int    `gorm:"primaryKey;autoIncrement:false"`
	UserID  string `gorm:"primaryKey"`
	Map     string
	At      time.Time
}

func (mapVoteRow) TableName() string { return "map_votes" }

type mapBanRow struct {
	MatchID int64 `gorm:"primaryKey;autoIncrement:false"`
	Game    int   `gorm:"primaryKey;autoIncrement:false"`
	Turn    int   `gorm:"primaryKey;autoIncrement:false"`
	Team    int
	UserID  string
	Map     string
	Auto    bool
	At      time.Time
}

func (mapBanRow) TableName() string { return "map_bans" }

// InFormatTx implements formats.Store.
func (db *DB) InFormatTx(ctx context.Context, fn func(formats.Tx) error) error {
	return db.inTx(ctx, func(t *tx) error { return fn(t) })
}

// FormatSettings implements formats.Store.
func (db *DB) FormatSettings(ctx context.Context, queueID int64) (formats.Settings, error) {
	return (&tx{db: db.db, dialect: db.dialect}).FormatSettings(ctx, queueID)
}

// Maps implements formats.Store.
func (db *DB) Maps(ctx context.Context, queueID int64) ([]formats.Map, error) {
	return (&tx{db: db.db, dialect: db.dialect}).Maps(ctx, queueID)
}

// FormatSettings implements formats.Tx.
func (t *tx) FormatSettings(ctx context.Context, queueID int64) (formats.Settings, error) {
	var rs []queueFormatRow
	if err := t.q(ctx).Where("queue_id = ?", queueID).Limit(1).Find(&rs).Error; err != nil {
		return formats.Settings{}, wrap("format settings", err, "")
	}
	if len(rs) == 0 {
		return formats.DefaultSettings(queueID), nil
	}
	return formats.Settings{QueueID: queueID, MapPick: formats.Mode(rs[0].MapPick), BestOf: rs[0].BestOf, SeriesRating: formats.Rating(rs[0].SeriesRating)}, nil
}

// SaveFormatSettings implements formats.Tx.
func (t *tx) SaveFormatSettings(ctx context.Context, s formats.Settings) error {
	r := queueFormatRow{QueueID: s.QueueID, MapPick: string(s.MapPick), BestOf: s.BestOf, SeriesRating: string(s.SeriesRating)}
	err := t.q(ctx).Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "queue_id"}}, UpdateAll: true}).Create(&r).Error
	return wrap("save format settings", err, "")
}

// Maps implements formats.Tx.
func (t *tx) Maps(ctx context.Context, queueID int64) ([]formats.Map, error) {
	var rs []queueMapRow
	if err := t.q(ctx).Where("queue_id = ?", queueID).Order("position, name").Find(&rs).Error; err != nil {
		return nil, wrap("maps", err, "")
	}
	out := make([]formats.Map, len(rs))
	for i, r := range rs {
		out[i] = formats.Map{QueueID: r.QueueID, Name: r.Name, ImageURL: r.ImageURL, Position: r.Position}
	}
	return out, nil
}

// AddMap implements formats.Tx.
func (t *tx) AddMap(ctx context.Context, m formats.Map) error {
	r := queueMapRow{QueueID: m.QueueID, Name: m.Name, ImageURL: m.ImageURL, Position: m.Position}
	return wrap("add map", t.q(ctx).Create(&r).Error, "the map %q is already in the pool", m.Name)
}

// RemoveMap implements formats.Tx.
func (t *tx) RemoveMap(ctx context.Context, queueID int64, name string) (bool, error) {
	res := t.q(ctx).Where("queue_id = ? AND name = ?", queueID, name).Delete(&queueMapRow{})
	return res.RowsAffected > 0, wrap("remove map", res.Error, "")
}

// Pick implements formats.Tx.
func (t *tx) Pick(ctx context.Context, matchID int64, game int) (formats.Pick, error) {
	var r mapPickRow
	if err := t.q(ctx).Where("match_id = ? AND game = ?", matchID, game).Take(&r).Error; err != nil {
		return formats.Pick{}, wrap("map pick", err, "match %d has no map pick for game %d", matchID, game)
	}
	p := formats.Pick{MatchID: r.MatchID, Game: r.Game, GuildID: r.GuildID, QueueID: r.QueueID, Mode: formats.Mode(r.Mode),
		State: formats.State(r.State), Banners: [2]string{r.Banner1, r.Banner2}, Deadline: tv(r.Deadline), Seed: r.Seed,
		Chosen: r.Chosen, CreatedAt: r.CreatedAt.UTC(), ChannelID: r.ChannelID, MessageID: r.MessageID, Team: r.Team}
	if err := json.Unmarshal([]byte(r.Pool), &p.Pool); err != nil {
		return formats.Pick{}, fmt.Errorf("storage: map pick of match %d: pool: %w", matchID, err)
	}
	var vs []mapVoteRow
	if err := t.q(ctx).Where("match_id = ? AND game = ?", matchID, game).Order("at, user_id").Find(&vs).Error; err != nil {
		return formats.Pick{}, wrap("map votes", err, "")
	}
	for _, v := range vs {
		p.Votes = append(p.Votes, formats.Vote{UserID: v.UserID, Map: v.Map, At: v.At.UTC()})
	}
	var bs []mapBanRow
	if err := t.q(ctx).Where("match_id = ? AND game = ?", matchID, game).Order("turn").Find(&bs).Error; err != nil {
		return formats.Pick{}, wrap("map bans", err, "")
	}
	for _, b := range bs {
		p.Bans = append(p.Bans, formats.Ban{Turn: b.Turn, Team: b.Team, UserID: b.UserID, Map: b.Map, Auto: b.Auto, At: b.At.UTC()})
	}
	return p, nil
}

// AddPick implements formats.Tx.
func (t *tx) AddPick(ctx context.Context, p formats.Pick) error {
	pool, err := json.Marshal(p.Pool)
	if err != nil {
		return fmt.Errorf("storage: add map pick: %w", err)
	}
	r := mapPickRow{MatchID: p.MatchID, Game: p.Game, GuildID: p.GuildID, QueueID: p.QueueID, Mode: string(p.Mode), State: string(p.State),
		Pool: string(pool), Banner1: p.Banners[0], Banner2: p.Banners[1], Deadline: nt(p.Deadline), Seed: p.Seed, Chosen: p.Chosen,
		CreatedAt: p.CreatedAt.UTC(), Team: p.Team}
	return wrap("add map pick", t.q(ctx).Create(&r).Error, "match %d already has a map pick for game %d", p.MatchID, p.Game)
}

// SetPick implements formats.Tx.
func (t *tx) SetPick(ctx context.Context, p formats.Pick) error {
	res := t.q(ctx).Model(&mapPickRow{}).Where("match_id = ? AND game = ?", p.MatchID, p.Game).
		Updates(map[string]any{"state": string(p.State), "deadline": nt(p.Deadline), "chosen": p.Chosen, "team": p.Team})
	return wrap("set map pick", found(res), "match %d has no map pick for game %d", p.MatchID, p.Game)
}

// PutVote implements formats.Tx.
func (t *tx) PutVote(ctx context.Context, matchID int64, game int, v formats.Vote) error {
	r := mapVoteRow{MatchID: matchID, Game: game, UserID: v.UserID, Map: v.Map, At: v.At.UTC()}
	err := t.q(ctx).Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "match_id"}, {Name: "game"}, {Name: "user_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"map", "at"})}).Create(&r).Error
	return wrap("put map vote", err, "")
}

// AddBan implements formats.Tx.
func (t *tx) AddBan(ctx context.Context, matchID int64, game int, b formats.Ban) error {
	r := mapBanRow{MatchID: matchID, Game: game, Turn: b.Turn, Team: b.Team, UserID: b.UserID, Map: b.Map, Auto: b.Auto, At: b.At.UTC()}
	return wrap("add map ban", t.q(ctx).Create(&r).Error, "ban %d of match %d is already made", b.Turn+1, matchID)
}

// SetPickMessage implements formats.Tx.
func (t *tx) SetPickMessage(ctx context.Context, matchID int64, game int, channelID, messageID string) error {
	res := t.q(ctx).Model(&mapPickRow{}).Where("match_id = ? AND game = ?", matchID, game).
		Updates(map[string]any{"channel_id": channelID, "message_id": messageID})
	return wrap("set map pick message", found(res), "match %d has no map pick for game %d", matchID, game)
}

// SetMatchMap implements formats.Tx: only the map column, so nothing
// else of the match row changes.
func (t *tx) SetMatchMap(ctx context.Context, matchID int64, name string) error {
	res := t.q(ctx).Model(&matchRow{}).Where("id = ?", matchID).Update("map", name)
	return wrap("set match map", found(res), "match %d not found", matchID)
}

// DuePicks implements formats.Tx.
func (t *tx) DuePicks(ctx context.Context, at time.Time, limit int) ([][2]int64, error) {
	var rs []mapPickRow
	err := t.q(ctx).Table("map_picks").Select("map_picks.match_id, map_picks.game").
		Joins("JOIN matches ON matches.id = map_picks.match_id").
		Where("map_picks.state = ? AND map_picks.deadline <= ? AND matches.state IN ?", string(formats.StatePicking), at.UTC(),
			[]string{string(ladder.StateOpen), string(ladder.StateReported)}).
		Order("map_picks.deadline, map_picks.match_id").Limit(max(limit, 1)).Find(&rs).Error
	out := make([][2]int64, len(rs))
	for i, r := range rs {
		out[i] = [2]int64{r.MatchID, int64(r.Game)}
	}
	return out, wrap("due map picks", err, "")
}

// unstartedPicksSQL finds open matches that should have a map pick and
// have none: their queue picks maps from a pool, their ready check (if
// any) passed and their draft (if any) is done. A crash between a match
// going on and its pick starting leaves such a match; the job starts it.
// The matches come in matches_open's order (formed, then ID): ordered by
// ID alone, SQLite walked every match of the database in ID order, on
// every tick of the job, to spare itself a sort of the few open ones.
const unstartedPicksSQL = `SELECT m.id FROM matches m
JOIN queue_formats f ON f.queue_id = m.queue_id AND f.map_pick <> 'none'
WHERE m.state = 'open' AND m.created_at <= ?
 AND EXISTS (SELECT 1 FROM queue_maps qm WHERE qm.queue_id = m.queue_id)
 AND NOT EXISTS (SELECT 1 FROM map_picks p WHERE p.match_id = m.id)
 AND NOT EXISTS (SELECT 1 FROM ready_checks r WHERE r.match_id = m.id AND r.state <> 'passed')
 AND NOT EXISTS (SELECT 1 FROM drafts d WHERE d.match_id = m.id AND d.state <> 'done')
ORDER BY m.created_at, m.id LIMIT ?`

// UnstartedPicks implements formats.Tx.
func (t *tx) UnstartedPicks(ctx context.Context, before time.Time, limit int) ([]int64, error) {
	var ids []int64
	err := t.q(ctx).Raw(unstartedPicksSQL, before.UTC(), max(limit, 1)).Scan(&ids).Error
	return ids, wrap("unstarted map picks", err, "")
}

type seriesGameRow struct {
	MatchID       int64 `gorm:"primaryKey;autoIncrement:false"`
	Game          int   `gorm:"primaryKey;autoIncrement:false"`
	GuildID       string
	BestOf        int
	Rating        string
	Winner        int
	ReportedBy    string
	ReportedAt    time.Time
	ConfirmedBy   string
	ConfirmedAt   *time.Time
	RatedMatch    int64
	Replay        string
	Map           string
	DisputedBy    string
	DisputeReason string
	DisputedAt    *time.Time
}

func (seriesGameRow) TableName() string { return "series_games" }

func (r seriesGameRow) game() formats.Game {
	return formats.Game{MatchID: r.MatchID, Game: r.Game, GuildID: r.GuildID, BestOf: r.BestOf, Rating: formats.Rating(r.Rating),
		Winner: r.Winner, ReportedBy: r.ReportedBy, ReportedAt: r.ReportedAt.UTC(), ConfirmedBy: r.ConfirmedBy,
		ConfirmedAt: tv(r.ConfirmedAt), RatedMatch: r.RatedMatch, Replay: r.Replay, Map: r.Map,
		DisputedBy: r.DisputedBy, DisputeReason: r.DisputeReason, DisputedAt: tv(r.DisputedAt)}
}

// SeriesGames implements formats.Tx.
func (t *tx) SeriesGames(ctx context.Context, matchID int64) ([]formats.Game, error) {
	var rs []seriesGameRow
	if err := t.q(ctx).Where("match_id = ?", matchID).Order("game").Find(&rs).Error; err != nil {
		return nil, wrap("series games", err, "")
	}
	out := make([]formats.Game, len(rs))
	for i, r := range rs {
		out[i] = r.game()
	}
	return out, nil
}

// ReplayGames implements formats.Tx.
func (t *tx) ReplayGames(ctx context.Context, guildID, name string) ([]formats.Game, error) {
	like := "%" + strings.NewReplacer("!", "!!", "%", "!%", "_", "!_").Replace(strings.ToLower(name)) + "%"
	var rs []seriesGameRow
	err := t.q(ctx).Where("guild_id = ? AND replay <> '' AND LOWER(replay) LIKE ? ESCAPE '!'", guildID, like).
		Order("match_id, game").Limit(100).Find(&rs).Error
	if err != nil {
		return nil, wrap("series games of a replay", err, "")
	}
	out := make([]formats.Game, len(rs))
	for i, r := range rs {
		out[i] = r.game()
	}
	return out, nil
}

// AddGame implements formats.Tx.
func (t *tx) AddGame(ctx context.Context, g formats.Game) error {
	r := seriesGameRow{MatchID: g.MatchID, Game: g.Game, GuildID: g.GuildID, BestOf: g.BestOf, Rating: string(g.Rating), Winner: g.Winner,
		ReportedBy: g.ReportedBy, ReportedAt: g.ReportedAt.UTC(), ConfirmedBy: g.ConfirmedBy, ConfirmedAt: nt(g.ConfirmedAt), RatedMatch: g.RatedMatch, Replay: g.Replay,
		Map: g.Map, DisputedBy: g.DisputedBy, DisputeReason: g.DisputeReason, DisputedAt: nt(g.DisputedAt)}
	return wrap("add series game", t.q(ctx).Create(&r).Error, "game %d of match %d is already reported", g.Game, g.MatchID)
}

// SetGame implements formats.Tx.
func (t *tx) SetGame(ctx context.Context, g formats.Game) error {
	res := t.q(ctx).Model(&seriesGameRow{}).Where("match_id = ? AND game = ?", g.MatchID, g.Game).Updates(map[string]any{
		"winner": g.Winner, "confirmed_by": g.ConfirmedBy, "confirmed_at": nt(g.ConfirmedAt), "rated_match": g.RatedMatch, "replay": g.Replay,
		"disputed_by": g.DisputedBy, "dispute_reason": g.DisputeReason, "disputed_at": nt(g.DisputedAt)})
	return wrap("set series game", found(res), "game %d of match %d is not reported", g.Game, g.MatchID)
}

// DisputedGames implements formats.Tx, through series_games_disputed.
func (t *tx) DisputedGames(ctx context.Context, guildID string, limit int) ([]formats.Game, error) {
	var rs []seriesGameRow
	// Only a series still played waits: one cancelled, voided or ended
	// early with a game disputed has nothing left for a moderator to
	// settle there.
	err := t.q(ctx).Table("series_games").Select("series_games.*").Joins("JOIN matches ON matches.id = series_games.match_id").
		Where("series_games.guild_id = ? AND series_games.disputed_by <> '' AND series_games.confirmed_by = '' AND matches.state IN ?", guildID,
			[]string{string(ladder.StateOpen), string(ladder.StateReported)}).
		Order("series_games.disputed_at, series_games.match_id").Limit(max(limit, 1)).Find(&rs).Error
	if err != nil {
		return nil, wrap("disputed series games", err, "")
	}
	out := make([]formats.Game, len(rs))
	for i, r := range rs {
		out[i] = r.game()
	}
	return out, nil
}

// mapRecordsSQL counts a player's games and wins per map, from the
// player's rows of match_players (match_players_user): the confirmed
// games of their rated series on each game's map, and their other rated
// matches on the match's map (not a series' games rated on their own,
// which its games count already).
const mapRecordsSQL = `
SELECT x.map AS map, COUNT(*) AS games, SUM(x.won) AS wins FROM (
  SELECT g.map AS map, CASE WHEN g.winner = mp.team THEN 1 ELSE 0 END AS won
    FROM match_players mp
    JOIN matches m ON m.id = mp.match_id
    JOIN series_games g ON g.match_id = m.id
   WHERE mp.guild_id = ? AND mp.user_id = ? AND m.queue_id = ? AND m.season_id = ?
     AND m.state IN ('confirmed', 'resolved') AND g.map <> '' AND g.confirmed_by <> ''
  UNION ALL
  SELECT m.map AS map, CASE WHEN m.winner = mp.team THEN 1 ELSE 0 END AS won
    FROM match_players mp
    JOIN matches m ON m.id = mp.match_id
   WHERE mp.guild_id = ? AND mp.user_id = ? AND m.queue_id = ? AND m.season_id = ?
     AND m.state IN ('confirmed', 'resolved') AND m.map <> '' AND m.source <> 'series'
     AND NOT EXISTS (SELECT 1 FROM series_games g WHERE g.match_id = m.id)
) x
GROUP BY x.map HAVING COUNT(*) >= ?
ORDER BY games DESC, map`

// MapRecords implements formats.Tx.
func (t *tx) MapRecords(ctx context.Context, guildID string, queueID, seasonID int64, userID string, minGames int) ([]formats.MapRecord, error) {
	var rs []struct {
		Map   string
		Games int
		Wins  int
	}
	err := t.q(ctx).Raw(mapRecordsSQL, guildID, userID, queueID, seasonID, guildID, userID, queueID, seasonID, max(minGames, 1)).Scan(&rs).Error
	if err != nil {
		return nil, wrap("map records", err, "")
	}
	out := make([]formats.MapRecord, len(rs))
	for i, r := range rs {
		out[i] = formats.MapRecord{Map: r.Map, Games: r.Games, Wins: r.Wins}
	}
	return out, nil
}

// SeriesMaps implements ladder.SeriesStore.
func (t *tx) SeriesMaps(ctx context.Context, matchIDs []int64) (map[int64][]string, error) {
	out := map[int64][]string{}
	if len(matchIDs) == 0 {
		return out, nil
	}
	var rs []seriesGameRow
	if err := t.q(ctx).Select("match_id, game, map").Where("match_id IN ?", matchIDs).Order("match_id, game").Find(&rs).Error; err != nil {
		return nil, wrap("series maps", err, "")
	}
	mapped := map[int64]bool{}
	for _, r := range rs {
		out[r.MatchID] = append(out[r.MatchID], r.Map)
		mapped[r.MatchID] = mapped[r.MatchID] || r.Map != ""
	}
	for id := range out {
		if !mapped[id] {
			delete(out, id)
		}
	}
	return out, nil
}

// replaceFormatSeat hands out's part in match matchID's format to in, who
// took out's seat: the turn to ban for their team (of every game's pick,
// since a series' later picks take their banners from its first), and
// the game reported by out that waits for the other team, which stays
// their team's report (confirmed or disputed by the other team only). A
// vote out made in a running pick is theirs, not the seat's: it is
// dropped, and in votes for themselves.
func (t *tx) replaceFormatSeat(ctx context.Context, matchID int64, out, in string) error {
	for _, col := range []string{"banner1", "banner2"} {
		if err := t.q(ctx).Model(&mapPickRow{}).Where("match_id = ? AND "+col+" = ?", matchID, out).Update(col, in).Error; err != nil {
			return err
		}
	}
	err := t.q(ctx).Model(&seriesGameRow{}).Where("match_id = ? AND reported_by = ? AND confirmed_by = ?", matchID, out, "").
		Update("reported_by", in).Error
	if err != nil {
		return err
	}
	// One statement, the running picks as its subquery (as gorm would
	// build it, but planned and logged as the one statement it is).
	return t.q(ctx).Exec("DELETE FROM map_votes WHERE match_id = ? AND user_id = ? AND game IN (SELECT game FROM map_picks WHERE match_id = ? AND state = ?)",
		matchID, out, matchID, string(formats.StatePicking)).Error
}
