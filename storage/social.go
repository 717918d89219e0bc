package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/ladder"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Community settings, predictions and MVP votes (package community), and
// the predictors' points and MVP counts derived from them and the
// matches' results, kept in step by Recount in the transactions that
// change either.

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
	// Counted and Won are what the prediction counts for in
	// predictor_points: its match rated, and called right.
	Counted bool
	Won     bool
}

func (predictionRow) TableName() string { return "predictions" }

type mvpVoteRow struct {
	MatchID int64 `gorm:"primaryKey"`
	GuildID string
	Voter   string `gorm:"primaryKey"`
	Votee   string
	At      time.Time
	// Counted is whether the vote counts in mvp_counts (its match rated).
	Counted bool
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
			ReasonCode: new(string), After: string(after), At: at}
		return g.Create(&a).Error
	})
	return wrap("save community settings", err, "queue not found")
}

// SavePrediction implements community.SocialStore. The match's row is
// locked first, as the rated write and a substitute's seat lock it: a
// call is taken only while the match is open and from someone not
// seated in it, so a result never misses a call committed beside it and
// a substitute seated meanwhile never calls the match they play.
func (db *DB) SavePrediction(ctx context.Context, guildID string, p community.Prediction) error {
	row := predictionRow{MatchID: p.MatchID, GuildID: guildID, UserID: p.UserID, Team: p.Team, Chance: p.Chance, Points: community.Points(p.Chance), At: p.At}
	err := db.db.WithContext(ctx).Transaction(func(g *gorm.DB) error {
		t := &tx{db: g, dialect: db.dialect}
		m, err := t.LockMatch(ctx, p.MatchID)
		if err != nil {
			return err
		}
		if m.GuildID != guildID {
			return ladder.Errorf(ladder.CodeNotFound, "match %d not found", p.MatchID)
		}
		if m.Team(p.UserID) != 0 {
			// A substitute seated since the caller read the match.
			return ladder.Errorf(ladder.CodeForbidden, "you play match #%d: only others may predict it", p.MatchID)
		}
		if m.State != ladder.StateOpen {
			return ladder.Errorf(ladder.CodeConflict, "predictions on match #%d are closed", p.MatchID)
		}
		return g.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "match_id"}, {Name: "user_id"}},
			DoUpdates: clause.AssignmentColumns([]string{"team", "chance", "points", "at"})}).Create(&row).Error
	})
	return wrap("save prediction", err, "match not found")
}

// SaveMVPVote implements community.SocialStore: the vote, taken only
// while its match is rated, and the recount of its match in one
// transaction, retried on a serialization failure or
// a deadlock as every write of the store is (inTx). The match's row is
// locked first (FOR NO KEY UPDATE on PostgreSQL): a correction or a rated
// write of the same match, which locks it FOR UPDATE, waits for the vote
// or the vote for it; a replay of the ladder, which rewrites the log rows
// of later matches and so takes their key share through the foreign key,
// does not wait for a vote that holds one of them while it waits for the
// replay's mvp_counts rows — the two would wait for each other.
func (db *DB) SaveMVPVote(ctx context.Context, guildID string, matchID int64, voter, votee string, at time.Time) error {
	row := mvpVoteRow{MatchID: matchID, GuildID: guildID, Voter: voter, Votee: votee, At: at}
	err := db.inTx(ctx, func(t *tx) error {
		var rows []matchRow
		lock := ""
		if t.dialect == Postgres {
			lock = " FOR NO KEY UPDATE"
		}
		if err := t.q(ctx).Raw("SELECT * FROM matches WHERE id = ?"+lock, matchID).Scan(&rows).Error; err != nil {
			return err
		}
		if len(rows) == 0 || rows[0].GuildID != guildID {
			return ladder.Errorf(ladder.CodeNotFound, "match %d not found", matchID)
		}
		if !rows[0].match().State.Rated() {
			// Voided since the caller read it: a vote is taken only on a
			// rated match, so none waits to count should it be restored.
			return ladder.Errorf(ladder.CodeConflict, "match #%d is not rated: the MVP vote opens with its result", matchID)
		}
		res := t.q(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&row)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return ladder.Errorf(ladder.CodeConflict, "you have voted on match #%d already", matchID)
		}
		return t.Recount(ctx, []int64{matchID})
	})
	return wrap("save mvp vote", err, "match not found")
}

// recountSQL are the statements of Recount for the matches whose IDs
// the subquery sel (with its arguments) selects: each moves the stored
// counts by the difference between what a prediction or vote counts for
// now (its match rated: counted; called right: won) and what it counted
// for when last recounted (its counted and won columns), then brings those
// columns up to date. An MVP title goes to the players of a match with the
// most votes (ties share it). The counts' rows are written in key order,
// so two recounts that move the same rows lock them in the same order.
var recountSQL = []string{
	`INSERT INTO predictor_points (queue_id, season_id, user_id, guild_id, points, correct, called)
SELECT x.queue_id, x.season_id, x.user_id, x.guild_id,
 SUM(CASE WHEN x.nw THEN x.points ELSE 0 END) - SUM(CASE WHEN x.won THEN x.points ELSE 0 END),
 SUM(CASE WHEN x.nw THEN 1 ELSE 0 END) - SUM(CASE WHEN x.won THEN 1 ELSE 0 END),
 SUM(CASE WHEN x.nc THEN 1 ELSE 0 END) - SUM(CASE WHEN x.counted THEN 1 ELSE 0 END)
FROM (SELECT m.queue_id, m.season_id, p.user_id, p.guild_id, p.points, p.won, p.counted,
  (` + ratedIn + `) AS nc, (` + ratedIn + ` AND m.winner = p.team) AS nw
  FROM predictions p JOIN matches m ON m.id = p.match_id WHERE p.match_id IN (%s)) x
WHERE x.nc <> x.counted OR x.nw <> x.won
GROUP BY x.queue_id, x.season_id, x.user_id, x.guild_id
ORDER BY x.queue_id, x.season_id, x.user_id
ON CONFLICT (queue_id, season_id, user_id) DO UPDATE SET points = predictor_points.points + excluded.points,
 correct = predictor_points.correct + excluded.correct, called = predictor_points.called + excluded.called`,
	`UPDATE predictions SET counted = (SELECT ` + ratedIn + ` FROM matches m WHERE m.id = predictions.match_id),
 won = (SELECT ` + ratedIn + ` AND m.winner = predictions.team FROM matches m WHERE m.id = predictions.match_id)
WHERE match_id IN (%s)`,
	`WITH v AS (SELECT v.match_id, v.votee, v.counted, m.queue_id, m.season_id, m.guild_id, (` + ratedIn + `) AS nc
  FROM mvp_votes v JOIN matches m ON m.id = v.match_id WHERE v.match_id IN (%s)),
old_t AS (SELECT match_id, votee, queue_id, season_id, guild_id, COUNT(*) AS votes FROM v WHERE v.counted GROUP BY match_id, votee, queue_id, season_id, guild_id),
old_b AS (SELECT match_id, MAX(votes) AS best FROM old_t GROUP BY match_id),
new_t AS (SELECT match_id, votee, queue_id, season_id, guild_id, COUNT(*) AS votes FROM v WHERE v.nc GROUP BY match_id, votee, queue_id, season_id, guild_id),
new_b AS (SELECT match_id, MAX(votes) AS best FROM new_t GROUP BY match_id),
d AS (SELECT t.queue_id, t.season_id, t.guild_id, t.votee, -t.votes AS votes, CASE WHEN t.votes = b.best THEN -1 ELSE 0 END AS mvps
  FROM old_t t JOIN old_b b ON b.match_id = t.match_id
 UNION ALL SELECT t.queue_id, t.season_id, t.guild_id, t.votee, t.votes, CASE WHEN t.votes = b.best THEN 1 ELSE 0 END
  FROM new_t t JOIN new_b b ON b.match_id = t.match_id)
INSERT INTO mvp_counts (queue_id, season_id, user_id, guild_id, mvps, votes)
SELECT queue_id, season_id, votee, guild_id, SUM(mvps), SUM(votes) FROM d WHERE true
GROUP BY queue_id, season_id, votee, guild_id HAVING SUM(mvps) <> 0 OR SUM(votes) <> 0
ORDER BY queue_id, season_id, votee
ON CONFLICT (queue_id, season_id, user_id) DO UPDATE SET mvps = mvp_counts.mvps + excluded.mvps, votes = mvp_counts.votes + excluded.votes`,
	`UPDATE mvp_votes SET counted = (SELECT ` + ratedIn + ` FROM matches m WHERE m.id = mvp_votes.match_id)
WHERE match_id IN (%s)`,
}

// recount runs recountSQL for the matches sel selects, deferred (later):
// it reads nothing back, so on PostgreSQL it travels with COMMIT.
func (t *tx) recount(ctx context.Context, sel string, args ...any) error {
	for _, text := range recountSQL {
		if err := t.later(ctx, fmt.Sprintf(text, sel), args...); err != nil {
			return wrap("recount", err, "")
		}
	}
	return nil
}

// Recount implements community.TallyStore. A match that this transaction
// inserted with its result has no predictions or votes (they name a match
// that exists), so its recount is left out: an API result, which creates
// its match as it rates it, costs the counts nothing. So is a match whose
// lock found none on PostgreSQL (LockMatchLadder): a confirm of a match
// nobody predicted or voted on recounts nothing.
func (t *tx) Recount(ctx context.Context, matchIDs []int64) error {
	matchIDs = slices.DeleteFunc(slices.Clone(matchIDs), func(id int64) bool {
		return t.created[id] || t.pg != nil && slices.Contains(t.pg.quiet, id)
	})
	if len(matchIDs) == 0 {
		return nil
	}
	if t.dialect == SQLite {
		// On SQLite each statement costs its own call, and most matches
		// have no prediction or vote (both are off by default): one read
		// that finds none stands in for the four statements, which would
		// change nothing. On PostgreSQL they travel with COMMIT, and a
		// read would cost a round trip more.
		var n int
		err := t.q(ctx).Raw(socialSQL, matchIDs, matchIDs).Row().Scan(&n)
		if err != nil {
			return wrap("recount", err, "")
		}
		if n == 0 {
			return nil
		}
	}
	return t.recount(ctx, `SELECT id FROM matches WHERE id IN ?`, matchIDs)
}

// Predictors implements community.SocialStore from the stored points.
func (db *DB) Predictors(ctx context.Context, guildID string, queueID, seasonID int64, limit int) ([]community.PredictorRow, error) {
	var rows []struct {
		UserID  string
		Name    string
		Points  int
		Correct int
		Called  int
	}
	err := db.db.WithContext(ctx).Raw(`SELECT p.user_id, COALESCE(pl.name, '') AS name, p.points, p.correct, p.called
		FROM predictor_points p
		LEFT JOIN players pl ON pl.guild_id = p.guild_id AND pl.user_id = p.user_id
		WHERE p.queue_id = ? AND p.season_id = ? AND p.guild_id = ? AND p.called > 0
		ORDER BY p.points DESC, p.correct DESC, p.user_id
		LIMIT ?`, queueID, seasonID, guildID, limit).Scan(&rows).Error
	if err != nil {
		return nil, wrap("predictors", err, "ladder not found")
	}
	out := make([]community.PredictorRow, len(rows))
	for i, r := range rows {
		out[i] = community.PredictorRow{UserID: r.UserID, Name: r.Name, Points: r.Points, Correct: r.Correct, Called: r.Called}
	}
	return out, nil
}

// MVPs implements community.SocialStore from the stored counts.
func (db *DB) MVPs(ctx context.Context, guildID string, queueID, seasonID int64, userID string, limit int) ([]community.MVPRow, error) {
	var rows []struct {
		UserID string
		Name   string
		MVPs   int `gorm:"column:mvps"`
		Votes  int
	}
	err := db.db.WithContext(ctx).Raw(`SELECT c.user_id, COALESCE(pl.name, '') AS name, c.mvps, c.votes
		FROM mvp_counts c
		LEFT JOIN players pl ON pl.guild_id = c.guild_id AND pl.user_id = c.user_id
		WHERE c.queue_id = ? AND c.season_id = ? AND c.guild_id = ? AND c.votes > 0 AND (? = '' OR c.user_id = ?)
		ORDER BY c.mvps DESC, c.votes DESC, c.user_id
		LIMIT ?`, queueID, seasonID, guildID, userID, userID, limit).Scan(&rows).Error
	if err != nil {
		return nil, wrap("mvps", err, "ladder not found")
	}
	out := make([]community.MVPRow, len(rows))
	for i, r := range rows {
		out[i] = community.MVPRow{UserID: r.UserID, Name: r.Name, MVPs: r.MVPs, Votes: r.Votes}
	}
	return out, nil
}

// talliesStoredSQL reads a guild's stored counts, rows of zeros left out.
const talliesStoredSQL = `SELECT queue_id, season_id, user_id, SUM(points) AS points, SUM(correct) AS correct, SUM(called) AS called,
 SUM(mvps) AS mvps, SUM(votes) AS votes FROM (
 SELECT queue_id, season_id, user_id, points, correct, called, 0 AS mvps, 0 AS votes FROM predictor_points WHERE guild_id = ?
 UNION ALL SELECT queue_id, season_id, user_id, 0, 0, 0, mvps, votes FROM mvp_counts WHERE guild_id = ?) x
GROUP BY queue_id, season_id, user_id
HAVING SUM(points) <> 0 OR SUM(correct) <> 0 OR SUM(called) <> 0 OR SUM(mvps) <> 0 OR SUM(votes) <> 0
ORDER BY queue_id, season_id, user_id`

// talliesLogSQL recounts them from the raw rows and the matches' results,
// as the counts were read before they were kept.
const talliesLogSQL = `WITH pr AS (SELECT m.queue_id, m.season_id, p.user_id,
  SUM(CASE WHEN m.winner = p.team THEN p.points ELSE 0 END) AS points,
  SUM(CASE WHEN m.winner = p.team THEN 1 ELSE 0 END) AS correct, COUNT(*) AS called
 FROM predictions p JOIN matches m ON m.id = p.match_id
 WHERE p.guild_id = ? AND m.guild_id = ? AND ` + ratedIn + ` GROUP BY m.queue_id, m.season_id, p.user_id),
tally AS (SELECT v.match_id, m.queue_id, m.season_id, v.votee, COUNT(*) AS votes
 FROM mvp_votes v JOIN matches m ON m.id = v.match_id
 WHERE v.guild_id = ? AND m.guild_id = ? AND ` + ratedIn + ` GROUP BY v.match_id, m.queue_id, m.season_id, v.votee),
top AS (SELECT match_id, MAX(votes) AS best FROM tally GROUP BY match_id),
mv AS (SELECT t.queue_id, t.season_id, t.votee AS user_id, SUM(CASE WHEN t.votes = top.best THEN 1 ELSE 0 END) AS mvps, SUM(t.votes) AS votes
 FROM tally t JOIN top ON top.match_id = t.match_id GROUP BY t.queue_id, t.season_id, t.votee)
SELECT queue_id, season_id, user_id, SUM(points) AS points, SUM(correct) AS correct, SUM(called) AS called,
 SUM(mvps) AS mvps, SUM(votes) AS votes FROM (
 SELECT queue_id, season_id, user_id, points, correct, called, 0 AS mvps, 0 AS votes FROM pr
 UNION ALL SELECT queue_id, season_id, user_id, 0, 0, 0, mvps, votes FROM mv) x
GROUP BY queue_id, season_id, user_id
ORDER BY queue_id, season_id, user_id`

// Tallies implements community.SocialStore.
func (db *DB) Tallies(ctx context.Context, guildID string, fromLog bool) ([]community.Tally, error) {
	var rows []struct {
		QueueID, SeasonID       int64
		UserID                  string
		Points, Correct, Called int
		MVPs                    int `gorm:"column:mvps"`
		Votes                   int
	}
	q := db.db.WithContext(ctx).Raw(talliesStoredSQL, guildID, guildID)
	if fromLog {
		q = db.db.WithContext(ctx).Raw(talliesLogSQL, guildID, guildID, guildID, guildID)
	}
	if err := q.Scan(&rows).Error; err != nil {
		return nil, wrap("tallies", err, "guild not found")
	}
	out := make([]community.Tally, len(rows))
	for i, r := range rows {
		out[i] = community.Tally{QueueID: r.QueueID, SeasonID: r.SeasonID, UserID: r.UserID, Points: r.Points, Correct: r.Correct,
			Called: r.Called, MVPs: r.MVPs, Votes: r.Votes}
	}
	return out, nil
}
