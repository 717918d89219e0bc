package storage

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

// Plain-SQL reads of package community over the stored log. Every query
// names the guild, so another guild's queue, season or match IDs find
// nothing.

var _ community.Store = (*DB)(nil)

type communityRatingRow struct {
	UserID     string
	Rating     float64
	Dev        float64
	Games      int
	LastAt     *time.Time
	Recent     int64
	Display    float64
	DisplayDev float64
	Wins       int
	Losses     int
	Draws      int
	Streak     int
}

// CommunityRatings implements community.Store.
func (db *DB) CommunityRatings(ctx context.Context, guildID string, queueID, seasonID int64, userIDs []string) (map[string]community.RatingRow, error) {
	var rows []communityRatingRow
	err := db.q(ctx).Raw(`SELECT user_id, rating, dev, games, last_at, recent, display, display_dev, wins, losses, draws, streak
		FROM ratings WHERE guild_id = ? AND queue_id = ? AND season_id = ? AND user_id IN ?`,
		guildID, queueID, seasonID, userIDs).Scan(&rows).Error
	if err != nil {
		return nil, wrap("community ratings", err, "ratings not found")
	}
	out := make(map[string]community.RatingRow, len(rows))
	for _, r := range rows {
		st := rating.State{Rating: r.Rating, Dev: r.Dev, Games: r.Games, Recent: uint64(r.Recent)}
		if r.LastAt != nil {
			st.Last = r.LastAt.UTC()
		}
		out[r.UserID] = community.RatingRow{State: st, Display: r.Display, RD: r.DisplayDev,
			Record: community.Record{Wins: r.Wins, Losses: r.Losses, Draws: r.Draws}, Streak: r.Streak}
	}
	return out, nil
}

type meetingRow struct {
	ID        int64
	Winner    int
	TeamA     int
	TeamB     int
	CreatedAt time.Time
	PlayedAt  *time.Time
}

// CommunityMeetings implements community.Store.
func (db *DB) CommunityMeetings(ctx context.Context, guildID string, queueID, seasonID int64, a, b string) ([]community.Meeting, error) {
	var rows []meetingRow
	err := db.q(ctx).Raw(`SELECT m.id, m.winner, pa.team AS team_a, pb.team AS team_b, m.created_at, m.played_at
		FROM match_players pa
		JOIN match_players pb ON pb.match_id = pa.match_id AND pb.user_id = ?
		JOIN matches m ON m.id = pa.match_id
		WHERE pa.guild_id = ? AND pa.user_id = ? AND m.guild_id = ? AND m.queue_id = ? AND m.season_id = ? AND m.state IN ?
		ORDER BY m.id DESC`, b, guildID, a, guildID, queueID, seasonID, ratedStates).Scan(&rows).Error
	if err != nil {
		return nil, wrap("community meetings", err, "matches not found")
	}
	out := make([]community.Meeting, len(rows))
	for i, r := range rows {
		out[i] = community.Meeting{MatchID: r.ID, Winner: r.Winner, TeamA: r.TeamA, TeamB: r.TeamB, At: playedAt(r.CreatedAt, r.PlayedAt)}
	}
	return out, nil
}

// playedAt is ladder.Match.When of a row whose played_at may be NULL.
func playedAt(created time.Time, played *time.Time) time.Time {
	m := ladder.Match{CreatedAt: created}
	if played != nil {
		m.PlayedAt = *played
	}
	return m.When()
}

type summaryRow struct {
	ID        int64
	QueueID   int64
	SeasonID  int64
	State     string
	Winner    int
	PTeam1    float64 `gorm:"column:p_team1"`
	CreatedAt time.Time
	PlayedAt  *time.Time
}

const summaryColumns = `m.id, m.queue_id, m.season_id, m.state, m.winner, m.p_team1, m.created_at, m.played_at`

// CommunityMatches implements community.Store.
func (db *DB) CommunityMatches(ctx context.Context, f community.MatchFilter) ([]community.MatchSummary, error) {
	g := db.q(ctx).Table("matches AS m").Select(summaryColumns).
		Where("m.guild_id = ? AND m.state IN ?", f.GuildID, ratedStates)
	id := "m.id"
	if f.UserID != "" {
		// A player's matches are walked from their match_players rows
		// (index match_players_user), newest first, rather than by
		// filtering every match of the guild. Order and cursors name
		// p.match_id, the index's own column, so that the walk stops at
		// the page's end instead of sorting all the player's matches.
		g = db.q(ctx).Table("match_players AS p").Select(summaryColumns).Joins("JOIN matches m ON m.id = p.match_id").
			Where("p.guild_id = ? AND p.user_id = ? AND m.guild_id = ? AND m.state IN ?", f.GuildID, f.UserID, f.GuildID, ratedStates)
		id = "p.match_id"
	}
	if f.QueueID != 0 {
		g = g.Where("m.queue_id = ?", f.QueueID)
	}
	if f.SeasonID != 0 {
		g = g.Where("m.season_id = ?", f.SeasonID)
	}
	if !f.From.IsZero() {
		// COALESCE(played_at, created_at) is ladder.Match.When in SQL.
		g = g.Where("COALESCE(m.played_at, m.created_at) >= ?", f.From.UTC())
	}
	if !f.To.IsZero() {
		g = g.Where("COALESCE(m.played_at, m.created_at) < ?", f.To.UTC())
	}
	order := id + " DESC"
	if f.Before > 0 {
		g = g.Where(id+" < ?", f.Before)
	}
	if f.After > 0 {
		g = g.Where(id+" > ?", f.After)
		order = id + " ASC"
	}
	var rows []summaryRow
	if err := g.Order(order).Limit(f.Limit).Scan(&rows).Error; err != nil {
		return nil, wrap("community matches", err, "matches not found")
	}
	if f.After > 0 {
		slices.Reverse(rows)
	}
	return db.summaries(ctx, f.GuildID, rows)
}

// summaries fills in the teams of rows in one query.
func (db *DB) summaries(ctx context.Context, guildID string, rows []summaryRow) ([]community.MatchSummary, error) {
	out := make([]community.MatchSummary, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	ids := make([]int64, len(rows))
	at := make(map[int64]int, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
		at[r.ID] = i
		out[i] = community.MatchSummary{ID: r.ID, QueueID: r.QueueID, SeasonID: r.SeasonID, State: r.State,
			Winner: r.Winner, PTeam1: r.PTeam1, At: playedAt(r.CreatedAt, r.PlayedAt)}
	}
	var ps []struct {
		MatchID int64
		UserID  string
		Team    int
	}
	// The players are read by their primary key (match_id) from the
	// page's matches, which name the guild: with `guild_id = ?` on
	// match_players itself SQLite (and PostgreSQL before it has
	// statistics) read every match_players row of the guild through
	// match_players_user, the guild's whole history for a page of 20.
	err := db.q(ctx).Raw(`SELECT p.match_id, p.user_id, p.team FROM matches m JOIN match_players p ON p.match_id = m.id
		WHERE m.id IN ? AND m.guild_id = ? ORDER BY p.match_id, p.team, p.seat`, ids, guildID).Scan(&ps).Error
	if err != nil {
		return nil, wrap("community match players", err, "matches not found")
	}
	for _, p := range ps {
		m := &out[at[p.MatchID]]
		if p.Team == 1 {
			m.Team1 = append(m.Team1, p.UserID)
		} else {
			m.Team2 = append(m.Team2, p.UserID)
		}
	}
	return out, nil
}

// CommunityActive implements community.Store.
func (db *DB) CommunityActive(ctx context.Context, guildID string, queueID, seasonID int64, limit int) ([]community.PlayerCount, error) {
	return db.playerCounts(ctx, "community active", `SELECT r.user_id, p.name, r.wins + r.losses + r.draws AS count
		FROM ratings r JOIN players p ON p.guild_id = r.guild_id AND p.user_id = r.user_id
		WHERE r.guild_id = ? AND r.queue_id = ? AND r.season_id = ? AND r.wins + r.losses + r.draws > 0
		ORDER BY count DESC, r.user_id LIMIT ?`, guildID, queueID, seasonID, limit)
}

// CommunityStreaks implements community.Store.
func (db *DB) CommunityStreaks(ctx context.Context, guildID string, queueID, seasonID int64, limit int) ([]community.PlayerCount, error) {
	return db.playerCounts(ctx, "community streaks", `SELECT r.user_id, p.name, r.streak AS count
		FROM ratings r JOIN players p ON p.guild_id = r.guild_id AND p.user_id = r.user_id
		WHERE r.guild_id = ? AND r.queue_id = ? AND r.season_id = ? AND r.streak > 0
		ORDER BY r.streak DESC, r.user_id LIMIT ?`, guildID, queueID, seasonID, limit)
}

// CommunityBestStreaks implements community.Store from the rating rows'
// best_streak, which every rated write and replay keeps with the record.
func (db *DB) CommunityBestStreaks(ctx context.Context, guildID string, queueID, seasonID int64, limit int) ([]community.PlayerCount, error) {
	return db.playerCounts(ctx, "community best streaks", `SELECT r.user_id, p.name, r.best_streak AS count
		FROM ratings r JOIN players p ON p.guild_id = r.guild_id AND p.user_id = r.user_id
		WHERE r.guild_id = ? AND r.queue_id = ? AND r.season_id = ? AND r.best_streak > 0
		ORDER BY r.best_streak DESC, r.user_id LIMIT ?`, guildID, queueID, seasonID, limit)
}

func (db *DB) playerCounts(ctx context.Context, op, query string, args ...any) ([]community.PlayerCount, error) {
	var rows []community.PlayerCount
	if err := db.q(ctx).Raw(query, args...).Scan(&rows).Error; err != nil {
		return nil, wrap(op, err, "ratings not found")
	}
	return rows, nil
}

// upsetsSQL lists a season's won matches, lowest shown chance first,
// from the front of matches_upsets, a partial index of the rated won
// matches by that chance: its test and its order are written as the
// index's own, the rated states written out (ratedIn), so that SQLite and
// PostgreSQL read the page's rows and stop instead of sorting the season.
const upsetsSQL = `SELECT ` + summaryColumns + `,
		CASE WHEN m.winner = 1 THEN m.p_team1 ELSE 1 - m.p_team1 END AS chance
		FROM matches m
		WHERE m.queue_id = ? AND m.season_id = ? AND ` + ratedIn + ` AND m.winner IN (1, 2) AND m.guild_id = ?
		ORDER BY CASE WHEN m.winner = 1 THEN m.p_team1 ELSE 1 - m.p_team1 END, m.id DESC LIMIT ?`

// CommunityUpsets implements community.Store.
func (db *DB) CommunityUpsets(ctx context.Context, guildID string, queueID, seasonID int64, limit int) ([]community.MatchSummary, error) {
	var rows []summaryRow
	err := db.q(ctx).Raw(upsetsSQL, queueID, seasonID, guildID, limit).Scan(&rows).Error
	if err != nil {
		return nil, wrap("community upsets", err, "matches not found")
	}
	return db.summaries(ctx, guildID, rows)
}

// partnershipsSQL ranks a season's pairs from season_pairs, walking
// season_pairs_best from its front: the ORDER BY and the minimum of games
// are written as that index's own expressions (the minimum as a literal,
// which a partial index needs to be chosen).
func partnershipsSQL(minGames int) string {
	return `SELECT x.a, x.b, pa.name AS name_a, pb.name AS name_b, x.wins, x.losses, x.draws
		FROM season_pairs x CROSS JOIN players pa CROSS JOIN players pb
		WHERE x.queue_id = ? AND x.season_id = ? AND x.wins + x.losses + x.draws >= ` + strconv.Itoa(minGames) + ` AND x.guild_id = ?
		AND pa.guild_id = ? AND pa.user_id = x.a AND pb.guild_id = ? AND pb.user_id = x.b
		ORDER BY ((x.wins + 0.5 * x.draws) / (x.wins + x.losses + x.draws)) DESC, (x.wins + x.losses + x.draws) DESC, x.a, x.b
		LIMIT ?`
}

// CommunityPartnerships implements community.Store from season_pairs,
// the counts the rated write keeps.
func (db *DB) CommunityPartnerships(ctx context.Context, guildID string, queueID, seasonID int64, minGames, limit int) ([]community.Partnership, error) {
	var rows []struct {
		A, B         string
		NameA, NameB string
		Wins, Losses int
		Draws        int
	}
	err := db.q(ctx).Raw(partnershipsSQL(minGames), queueID, seasonID, guildID, guildID, guildID, limit).Scan(&rows).Error
	if err != nil {
		return nil, wrap("community partnerships", err, "matches not found")
	}
	out := make([]community.Partnership, len(rows))
	for i, r := range rows {
		out[i] = community.Partnership{A: r.A, B: r.B, NameA: r.NameA, NameB: r.NameB,
			Record: community.Record{Wins: r.Wins, Losses: r.Losses, Draws: r.Draws}}
	}
	return out, nil
}

type improvedRow struct {
	UserID       string
	Seq          int64
	BeforeRating float64
	AfterRating  float64
}

// improvedSQL reads a ladder's log rows of matches played since a time,
// in log order: from rating_changes_at, so the read costs the window's
// rows, not the season's.
const improvedSQL = `SELECT rc.user_id, rc.seq, rc.before_rating, rc.after_rating
		FROM rating_changes rc JOIN matches m ON m.id = rc.match_id
		WHERE rc.queue_id = ? AND rc.season_id = ? AND rc.kind = 'match' AND rc.at >= ? AND m.guild_id = ?
		ORDER BY rc.seq`

// CommunityImproved implements community.Store: the ladder's log rows of
// the window in seq order, first and last per player.
func (db *DB) CommunityImproved(ctx context.Context, guildID string, queueID, seasonID int64, since time.Time, limit int) ([]community.Improvement, error) {
	var rows []improvedRow
	err := db.q(ctx).Raw(improvedSQL, queueID, seasonID, since.UTC(), guildID).Scan(&rows).Error
	if err != nil {
		return nil, wrap("community improved", err, "ladder not found")
	}
	by := map[string]*community.Improvement{}
	var order []string
	for _, r := range rows {
		im, ok := by[r.UserID]
		if !ok {
			im = &community.Improvement{UserID: r.UserID, From: r.BeforeRating}
			by[r.UserID] = im
			order = append(order, r.UserID)
		}
		im.To = r.AfterRating
		im.Games++
	}
	var out []community.Improvement
	for _, u := range order {
		if im := by[u]; im.Gain() > 0 {
			out = append(out, *im)
		}
	}
	slices.SortStableFunc(out, func(a, b community.Improvement) int {
		if a.Gain() != b.Gain() {
			if a.Gain() > b.Gain() {
				return -1
			}
			return 1
		}
		return strings.Compare(a.UserID, b.UserID)
	})
	out = out[:min(len(out), limit)]
	ids := make([]string, len(out))
	for i, im := range out {
		ids[i] = im.UserID
	}
	if len(ids) > 0 {
		names, err := db.PlayerNames(ctx, guildID, ids)
		if err != nil {
			return nil, err
		}
		for i := range out {
			out[i].Name = names[out[i].UserID]
		}
	}
	return out, nil
}

// hoursSQL reads a season's matches by the hour of the week.
const hoursSQL = `SELECT slot, matches FROM season_hours WHERE queue_id = ? AND season_id = ? AND guild_id = ?`

// CommunityHours implements community.Store from season_hours, the
// counts the rated write keeps.
func (db *DB) CommunityHours(ctx context.Context, guildID string, queueID, seasonID int64) (community.Hours, error) {
	var rows []struct {
		Slot    int
		Matches int
	}
	var h community.Hours
	err := db.q(ctx).Raw(hoursSQL, queueID, seasonID, guildID).Scan(&rows).Error
	if err != nil {
		return h, wrap("community hours", err, "ladder not found")
	}
	for _, r := range rows {
		if r.Slot >= 0 && r.Slot < 7*24 {
			h[r.Slot/24][r.Slot%24] += r.Matches
		}
	}
	return h, nil
}
