package storage

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/ladder"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Community settings, predictions and MVP votes (package community). The
// points and MVP counts are counted here from the raw rows and the
// matches' final results.

type communitySettingsRow struct {
	QueueID     int64 `gorm:"primaryKey"`
	GuildID     string
	Predictions bool
	MvpVote     bool
}

func (communitySettingsRow) TableName() string { return "community_settings" }

type predictionRow struct {
	MatchID int64 `gorm:"primaryKey"`
	GuildID string
	UserID  string `gorm:"primaryKey"`
	Team    int
	Chance  float64
	Points  int
	At      time.Time
}

func (predictionRow) TableName() string { return "predictions" }

type mvpVoteRow struct {
	MatchID int64 `gorm:"primaryKey"`
	GuildID string
	Voter   string `gorm:"primaryKey"`
	Votee   string
	At      time.Time
}

func (mvpVoteRow) TableName() string { return "mvp_votes" }

// CommunitySettings implements community.SocialStore.
func (db *DB) CommunitySettings(ctx context.Context, queueID int64) (community.Settings, error) {
	var rows []communitySettingsRow
	if err := db.db.WithContext(ctx).Where("queue_id = ?", queueID).Find(&rows).Error; err != nil {
		return community.Settings{}, wrap("community settings", err, "queue not found")
	}
	if len(rows) == 0 {
		return community.Settings{QueueID: queueID}, nil
	}
	return community.Settings{QueueID: queueID, Predictions: rows[0].Predictions, MVPVote: rows[0].MvpVote}, nil
}

// SaveCommunitySettings implements community.SocialStore, with the audit
// entry in the same transaction.
func (db *DB) SaveCommunitySettings(ctx context.Context, guildID string, s community.Settings, actor ladder.Actor, at time.Time) error {
	err := db.db.WithContext(ctx).Transaction(func(g *gorm.DB) error {
		row := communitySettingsRow{QueueID: s.QueueID, GuildID: guildID, Predictions: s.Predictions, MvpVote: s.MVPVote}
		if err := g.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "queue_id"}}, UpdateAll: true}).Create(&row).Error; err != nil {
			return err
		}
		after, _ := json.Marshal(map[string]bool{"predictions": s.Predictions, "mvp_vote": s.MVPVote})
		a := auditRow{GuildID: guildID, ActorID: actor.UserID, Action: "queue.community", Target: strconv.FormatInt(s.QueueID, 10),
			After: string(after), At: at}
		return g.Create(&a).Error
	})
	return wrap("save community settings", err, "queue not found")
}

// SavePrediction implements community.SocialStore.
func (db *DB) SavePrediction(ctx context.Context, guildID string, p community.Prediction) error {
	row := predictionRow{MatchID: p.MatchID, GuildID: guildID, UserID: p.UserID, Team: p.Team, Chance: p.Chance, Points: community.Points(p.Chance), At: p.At}
	err := db.db.WithContext(ctx).Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "match_id"}, {Name: "user_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"team", "chance", "points", "at"})}).Create(&row).Error
	return wrap("save prediction", err, "match not found")
}

// SaveMVPVote implements community.SocialStore.
func (db *DB) SaveMVPVote(ctx context.Context, guildID string, matchID int64, voter, votee string, at time.Time) error {
	row := mvpVoteRow{MatchID: matchID, GuildID: guildID, Voter: voter, Votee: votee, At: at}
	res := db.db.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&row)
	if res.Error != nil {
		return wrap("save mvp vote", res.Error, "match not found")
	}
	if res.RowsAffected == 0 {
		return ladder.Errorf(ladder.CodeConflict, "you have voted on match #%d already", matchID)
	}
	return nil
}

// Predictors implements community.SocialStore: points of the correct
// calls on the ladder's rated matches, most first.
func (db *DB) Predictors(ctx context.Context, guildID string, queueID, seasonID int64, limit int) ([]community.PredictorRow, error) {
	var rows []struct {
		UserID  string
		Name    string
		Points  int
		Correct int
		Called  int
	}
	err := db.db.WithContext(ctx).Raw(`SELECT p.user_id, COALESCE(pl.name, '') AS name,
			SUM(CASE WHEN m.winner = p.team THEN p.points ELSE 0 END) AS points,
			SUM(CASE WHEN m.winner = p.team THEN 1 ELSE 0 END) AS correct,
			COUNT(*) AS called
		FROM predictions p
		JOIN matches m ON m.id = p.match_id
		LEFT JOIN players pl ON pl.guild_id = p.guild_id AND pl.user_id = p.user_id
		WHERE p.guild_id = ? AND m.guild_id = ? AND m.queue_id = ? AND m.season_id = ? AND m.state IN ?
		GROUP BY p.user_id, pl.name
		ORDER BY points DESC, correct DESC, p.user_id
		LIMIT ?`, guildID, guildID, queueID, seasonID, ratedStates, limit).Scan(&rows).Error
	if err != nil {
		return nil, wrap("predictors", err, "ladder not found")
	}
	out := make([]community.PredictorRow, len(rows))
	for i, r := range rows {
		out[i] = community.PredictorRow{UserID: r.UserID, Name: r.Name, Points: r.Points, Correct: r.Correct, Called: r.Called}
	}
	return out, nil
}

// MVPs implements community.SocialStore: per rated match, the players
// with the most votes (ties share the title), counted per player.
func (db *DB) MVPs(ctx context.Context, guildID string, queueID, seasonID int64, userID string, limit int) ([]community.MVPRow, error) {
	var rows []struct {
		Votee string
		Name  string
		MVPs  int `gorm:"column:mvps"`
		Votes int
	}
	err := db.db.WithContext(ctx).Raw(`WITH tally AS (
			SELECT v.match_id, v.votee, COUNT(*) AS votes
			FROM mvp_votes v JOIN matches m ON m.id = v.match_id
			WHERE v.guild_id = ? AND m.guild_id = ? AND m.queue_id = ? AND m.season_id = ? AND m.state IN ?
			GROUP BY v.match_id, v.votee),
		top AS (SELECT match_id, MAX(votes) AS best FROM tally GROUP BY match_id)
		SELECT t.votee, COALESCE(pl.name, '') AS name,
			SUM(CASE WHEN t.votes = top.best THEN 1 ELSE 0 END) AS mvps, SUM(t.votes) AS votes
		FROM tally t JOIN top ON top.match_id = t.match_id
		LEFT JOIN players pl ON pl.guild_id = ? AND pl.user_id = t.votee
		WHERE (? = '' OR t.votee = ?)
		GROUP BY t.votee, pl.name
		ORDER BY mvps DESC, votes DESC, t.votee
		LIMIT ?`, guildID, guildID, queueID, seasonID, ratedStates, guildID, userID, userID, limit).Scan(&rows).Error
	if err != nil {
		return nil, wrap("mvps", err, "ladder not found")
	}
	out := make([]community.MVPRow, len(rows))
	for i, r := range rows {
		out[i] = community.MVPRow{UserID: r.Votee, Name: r.Name, MVPs: r.MVPs, Votes: r.Votes}
	}
	return out, nil
}
