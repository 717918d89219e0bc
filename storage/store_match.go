package storage

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

type matchRow struct {
	ID             int64 `gorm:"primaryKey"`
	GuildID        string
	QueueID        int64
	SeasonID       int64
	Team1          string `gorm:"column:team1"`
	Team2          string `gorm:"column:team2"`
	State          string
	Winner         int
	Seq            int64
	PTeam1         float64 `gorm:"column:p_team1"`
	PRaw           float64 `gorm:"column:p_raw"`
	Quality        float64
	CreatedAt      time.Time
	PlayedAt       *time.Time
	ReportedBy     string
	ReportedWinner int
	Deadline       *time.Time
	DisputedBy     string
	DisputeReason  string
	// DisputeReasonCode is NULL in rows written before reason codes were
	// (reasonCode).
	DisputeReasonCode *string
	Evidence          string
	RatedAt           *time.Time
	ResolvedBy        string
	Source            string
	ChannelID         string
	Map               string
	Score             string
}

func (matchRow) TableName() string { return "matches" }

func toMatchRow(m ladder.Match) matchRow {
	return matchRow{
		ID: m.ID, GuildID: m.GuildID, QueueID: m.QueueID, SeasonID: m.SeasonID,
		Team1: strings.Join(m.Teams[0], ","), Team2: strings.Join(m.Teams[1], ","),
		State: string(m.State), Winner: m.Winner, Seq: m.Seq, PTeam1: m.PTeam1, PRaw: m.PRaw, Quality: m.Quality,
		CreatedAt: m.CreatedAt.UTC(), PlayedAt: nt(m.PlayedAt), ReportedBy: m.ReportedBy, ReportedWinner: m.ReportedWinner,
		Deadline: nt(m.Deadline), DisputedBy: m.DisputedBy, DisputeReason: m.DisputeReason,
		DisputeReasonCode: &m.DisputeReasonCode, Evidence: m.Evidence,
		RatedAt: nt(m.RatedAt), ResolvedBy: m.ResolvedBy, Source: m.Source, ChannelID: m.ChannelID, Map: m.Map, Score: m.Score,
	}
}

func (r matchRow) match() ladder.Match {
	return ladder.Match{
		ID: r.ID, GuildID: r.GuildID, QueueID: r.QueueID, SeasonID: r.SeasonID,
		Teams: [2][]string{splitTeam(r.Team1), splitTeam(r.Team2)},
		State: ladder.MatchState(r.State), Winner: r.Winner, Seq: r.Seq, PTeam1: r.PTeam1, PRaw: r.PRaw, Quality: r.Quality,
		CreatedAt: r.CreatedAt.UTC(), PlayedAt: tv(r.PlayedAt), ReportedBy: r.ReportedBy, ReportedWinner: r.ReportedWinner,
		Deadline: tv(r.Deadline), DisputedBy: r.DisputedBy, DisputeReason: r.DisputeReason,
		DisputeReasonCode: reasonCode(r.DisputeReasonCode, r.DisputeReason), Evidence: r.Evidence,
		RatedAt: tv(r.RatedAt), ResolvedBy: r.ResolvedBy, Source: r.Source, ChannelID: r.ChannelID, Map: r.Map, Score: r.Score,
	}
}

func splitTeam(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

func matches(rows []matchRow) []ladder.Match {
	out := make([]ladder.Match, len(rows))
	for i, r := range rows {
		out[i] = r.match()
	}
	return out
}

type matchPlayerRow struct {
	MatchID int64
	GuildID string
	UserID  string
	Team    int
	Seat    int
	Active  bool
}

func (matchPlayerRow) TableName() string { return "match_players" }

// CreateMatch implements ladder.Tx.
func (t *tx) CreateMatch(ctx context.Context, m ladder.Match) (ladder.Match, error) {
	r := toMatchRow(m)
	r.ID = 0
	if err := t.q(ctx).Create(&r).Error; err != nil {
		return ladder.Match{}, wrap("create match", err, "match conflict")
	}
	m.ID = r.ID
	ps := make([]matchPlayerRow, 0, len(m.Teams[0])+len(m.Teams[1]))
	for team, us := range m.Teams {
		for seat, u := range us {
			ps = append(ps, matchPlayerRow{MatchID: m.ID, GuildID: m.GuildID, UserID: u, Team: team + 1, Seat: seat, Active: m.State.Active()})
		}
	}
	if err := t.q(ctx).Create(&ps).Error; err != nil {
		return ladder.Match{}, wrap("create match", err, "a player of this match is already in another open match")
	}
	return m, nil
}

// Match implements ladder.Tx.
func (t *tx) Match(ctx context.Context, id int64) (ladder.Match, error) {
	var r matchRow
	if err := t.q(ctx).Where("id = ?", id).Take(&r).Error; err != nil {
		return ladder.Match{}, wrap("match", err, "match %d not found", id)
	}
	return r.match(), nil
}

// LockMatch implements ladder.Tx.
func (t *tx) LockMatch(ctx context.Context, id int64) (ladder.Match, error) {
	var rows []matchRow
	if err := t.q(ctx).Raw("SELECT * FROM matches WHERE id = ?"+t.forUpdate(), id).Scan(&rows).Error; err != nil {
		return ladder.Match{}, wrap("lock match", err, "")
	}
	if len(rows) == 0 {
		return ladder.Match{}, ladder.Errorf(ladder.CodeNotFound, "match %d not found", id)
	}
	return rows[0].match(), nil
}

// LockMatches implements ladder.Tx. On PostgreSQL the same round trip
// asks which of the matches have predictions or MVP votes, as
// LockMatchLadder does for one, so that the rated write of a match
// without any leaves the recount out.
func (t *tx) LockMatches(ctx context.Context, ids []int64) ([]ladder.Match, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var ms []ladder.Match
	if t.pg == nil {
		var rows []matchRow
		if err := t.q(ctx).Raw("SELECT * FROM matches WHERE id IN ? ORDER BY id"+t.forUpdate(), ids).Scan(&rows).Error; err != nil {
			return nil, wrap("lock matches", err, "")
		}
		for _, r := range rows {
			ms = append(ms, r.match())
		}
		return ms, nil
	}
	social := map[int64]bool{}
	var (
		lad  ladderRow
		have bool
	)
	err := t.pg.batch(ctx, func(b *pgx.Batch) {
		b.Queue(lockMatchesPG, ids)
		b.Queue(socialMatchesPG, ids)
		b.Queue(ladderOfMatchPG, ids[0])
	}, func(br pgx.BatchResults) error {
		rows, err := br.Query()
		if err != nil {
			return err
		}
		var mr matchRow
		for rows.Next() {
			if err := rows.Scan(mr.ptrs()...); err != nil {
				rows.Close()
				return err
			}
			ms = append(ms, mr.match())
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if rows, err = br.Query(); err != nil {
			return err
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			social[id] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		switch err := br.QueryRow().Scan(lad.ptrs()...); {
		case err == nil:
			have = true
		case !errors.Is(err, pgx.ErrNoRows):
			return err
		}
		return nil
	})
	if err != nil {
		return nil, wrap("lock matches", err, "")
	}
	if have {
		l, err := lad.ladder()
		if err != nil {
			return nil, err
		}
		t.pg.ladderOf = &l
	}
	for _, m := range ms {
		if !social[m.ID] {
			t.pg.quiet = append(t.pg.quiet, m.ID)
		}
	}
	return ms, nil
}

// lockMatchesPG locks matches (LockMatches) in ID order for pgx;
// socialMatchesPG, sent after it, lists those of them with predictions or
// MVP votes (socialSQL).
//
// ladderOfMatchPG, sent after them, is LadderOf for the queue and season
// of the first of them: a batch of one queue's confirms then has its
// ladder without a round trip of its own (LadderOf answers from it). It
// takes no lock, as LadderOf takes none.
const (
	ladderOfMatchPG = `SELECT ` + ladderColumns + `
FROM matches m
JOIN queues q ON q.id = m.queue_id
JOIN guilds g ON g.id = q.guild_id
JOIN seasons s ON s.id = m.season_id AND s.guild_id = g.id
WHERE m.id = $1`
	lockMatchesPG   = `SELECT ` + matchColumns + ` FROM matches WHERE id = ANY($1) ORDER BY id FOR UPDATE`
	socialMatchesPG = `SELECT m.id FROM matches m WHERE m.id = ANY($1) AND (EXISTS (SELECT 1 FROM predictions p WHERE p.match_id = m.id) OR EXISTS (SELECT 1 FROM mvp_votes v WHERE v.match_id = m.id))`
)

// UpdateMatch implements ladder.Tx. It also frees the players when the
// match stops being active, and keeps the disputes table in step; the
// rows derived from a logged match follow it (derived.go).
func (t *tx) UpdateMatch(ctx context.Context, m ladder.Match) error {
	var old ladder.Match
	if t.updating(m) {
		// Only a moderator's correction or void updates a logged match:
		// the read of it as it was costs those alone.
		var rows []matchRow
		if err := t.q(ctx).Raw("SELECT * FROM matches WHERE id = ?", m.ID).Scan(&rows).Error; err != nil {
			return wrap("update match", err, "")
		}
		if len(rows) == 0 {
			return ladder.Errorf(ladder.CodeNotFound, "match %d not found", m.ID)
		}
		old = rows[0].match()
	}
	if err := t.updateMatch(ctx, m); err != nil {
		return err
	}
	return t.updated(ctx, old, m)
}

// updateMatch is UpdateMatch for the rated write, whose own functions
// follow it.
func (t *tx) updateMatch(ctx context.Context, m ladder.Match) error {
	r := toMatchRow(m)
	res := t.q(ctx).Model(&matchRow{}).Where("id = ?", m.ID).Select("*").
		Omit("id", "guild_id", "queue_id", "season_id", "team1", "team2", "created_at").Updates(&r)
	if err := found(res); err != nil {
		return wrap("update match", err, "match %d not found", m.ID)
	}
	if !m.State.Active() {
		err := t.q(ctx).Model(&matchPlayerRow{}).Where("match_id = ? AND "+t.active(), m.ID).Update("active", false).Error
		if err != nil {
			return wrap("update match", err, "")
		}
	}
	return t.syncDispute(ctx, m)
}

type disputeRow struct {
	MatchID    int64 `gorm:"primaryKey;autoIncrement:false"`
	GuildID    string
	UserID     string
	Reason     string
	ReasonCode string
	Evidence   string
	CreatedAt  time.Time
	ResolvedAt *time.Time
}

func (disputeRow) TableName() string { return "disputes" }

// syncDispute records a dispute when a match becomes disputed and closes it
// when the match leaves that state.
func (t *tx) syncDispute(ctx context.Context, m ladder.Match) error {
	if m.State == ladder.StateDisputed {
		r := disputeRow{MatchID: m.ID, GuildID: m.GuildID, UserID: m.DisputedBy, Reason: m.DisputeReason, ReasonCode: m.DisputeReasonCode,
			Evidence: m.Evidence, CreatedAt: dbNow()}
		err := t.q(ctx).Exec("INSERT INTO disputes (match_id, guild_id, user_id, reason, reason_code, evidence, created_at) VALUES (?, ?, ?, ?, ?, ?, ?) "+
			"ON CONFLICT (match_id) DO UPDATE SET user_id = excluded.user_id, reason = excluded.reason, reason_code = excluded.reason_code, evidence = excluded.evidence, created_at = excluded.created_at, resolved_at = NULL",
			r.MatchID, r.GuildID, r.UserID, r.Reason, r.ReasonCode, r.Evidence, r.CreatedAt).Error
		return wrap("record dispute", err, "")
	}
	err := t.q(ctx).Model(&disputeRow{}).Where("match_id = ? AND resolved_at IS NULL", m.ID).Update("resolved_at", dbNow()).Error
	return wrap("close dispute", err, "")
}

// Matches implements ladder.Tx.
func (t *tx) Matches(ctx context.Context, f ladder.MatchFilter) ([]ladder.Match, error) {
	q := t.q(ctx).Model(&matchRow{})
	if f.UserID != "" {
		q = q.Where("id IN (?)", t.q(ctx).Model(&matchPlayerRow{}).Select("match_id").Where("guild_id = ? AND user_id = ?", f.GuildID, f.UserID))
	}
	if f.GuildID != "" {
		q = q.Where("guild_id = ?", f.GuildID)
	}
	if f.QueueID != 0 {
		q = q.Where("queue_id = ?", f.QueueID)
	}
	if f.SeasonID != 0 {
		q = q.Where("season_id = ?", f.SeasonID)
	}
	// The states are written out, not bound: SQLite uses a partial index
	// (matches_due, matches_state) only when the query's own test implies
	// the index's, which a list of bound parameters cannot, and would scan
	// every match of the database for the auto-confirm job's due matches.
	// A guild's matches in some of matches_state's states also state that
	// index's own test (pendingTest), or SQLite would walk every match of
	// the guild for its disputed ones.
	//
	// A ladder's latest rated matches (the pool's health) are read from
	// matches_log, latest in the log first: by ID, SQLite walked the
	// guild's matches of every queue and season newest first until it had
	// found them.
	order := "id DESC"
	if len(f.States) > 0 {
		ss := make([]string, len(f.States))
		for i, s := range f.States {
			ss[i] = string(s)
		}
		q = q.Where("state IN (" + sqlStrings(ss) + ")")
		switch {
		case f.GuildID != "" && subset(ss, pendingStates) && !slices.Equal(ss, pendingStates):
			q = q.Where(pendingTest)
		case f.QueueID != 0 && f.SeasonID != 0 && f.UserID == "" && f.DueBefore.IsZero() && f.BeforeID == 0 && subset(ss, ratedStates):
			if !slices.Equal(ss, ratedStates) {
				q = q.Where("state IN (" + sqlStrings(ratedStates) + ")")
			}
			order = "seq DESC"
		}
	}
	if !f.DueBefore.IsZero() {
		// From matches_due, then by ID: with the test on matches itself,
		// SQLite walked every match in ID order to skip the sort.
		q = q.Where("id IN (SELECT id FROM matches WHERE state = "+sqlStrings([]string{string(ladder.StateReported)})+" AND deadline < ?)", f.DueBefore.UTC())
	}
	if f.BeforeID > 0 {
		q = q.Where("id < ?", f.BeforeID)
	}
	var rows []matchRow
	if err := q.Order(order).Limit(max(f.Limit, 1)).Find(&rows).Error; err != nil {
		return nil, wrap("matches", err, "")
	}
	return matches(rows), nil
}

// subset reports whether every one of ss is in of.
func subset(ss, of []string) bool {
	return !slices.ContainsFunc(ss, func(s string) bool { return !slices.Contains(of, s) })
}

// RatedMatches implements ladder.Tx. It reads only the columns a replay
// needs, over the partial index matches_log.
func (t *tx) RatedMatches(ctx context.Context, k ladder.Key, fromSeq int64) ([]ladder.Match, error) {
	rows, err := t.q(ctx).Raw("SELECT id, team1, team2, winner, seq, played_at, map, score FROM matches "+
		"WHERE queue_id = ? AND season_id = ? AND state IN ('confirmed', 'resolved') AND seq >= ? ORDER BY seq",
		k.QueueID, k.SeasonID, fromSeq).Rows()
	return scanRated(k, rows, err, 0)
}

// RatedMatchesAfter implements ladder.Tx: a page of RatedMatches by the
// log's order, over the same partial index.
func (t *tx) RatedMatchesAfter(ctx context.Context, k ladder.Key, afterSeq int64, limit int) ([]ladder.Match, error) {
	rows, err := t.q(ctx).Raw("SELECT id, team1, team2, winner, seq, played_at, map, score FROM matches "+
		"WHERE queue_id = ? AND season_id = ? AND state IN ('confirmed', 'resolved') AND seq > ? ORDER BY seq LIMIT ?",
		k.QueueID, k.SeasonID, afterSeq, max(limit, 1)).Rows()
	return scanRated(k, rows, err, max(limit, 1))
}

// scanRated reads the rated matches of ladder k that RatedMatches and
// RatedMatchesAfter select, room for size of them made at once.
func scanRated(k ladder.Key, rows *sql.Rows, err error, size int) ([]ladder.Match, error) {
	if err != nil {
		return nil, wrap("rated matches", err, "")
	}
	defer rows.Close()
	var out []ladder.Match
	if size > 0 {
		out = make([]ladder.Match, 0, size)
	}
	for rows.Next() {
		m := ladder.Match{QueueID: k.QueueID, SeasonID: k.SeasonID, State: ladder.StateConfirmed}
		var t1, t2 string
		var played *time.Time
		if err := rows.Scan(&m.ID, &t1, &t2, &m.Winner, &m.Seq, &played, &m.Map, &m.Score); err != nil {
			return nil, wrap("rated matches", err, "")
		}
		m.Teams = [2][]string{splitTeam(t1), splitTeam(t2)}
		m.PlayedAt = tv(played)
		out = append(out, m)
	}
	return out, wrap("rated matches", rows.Err(), "")
}

type changeRow struct {
	ID           int64 `gorm:"primaryKey"`
	Seq          int64
	QueueID      int64
	SeasonID     int64
	MatchID      *int64
	UserID       string
	Team         int
	Kind         string
	BeforeRating float64
	BeforeDev    float64
	BeforeGames  int
	BeforeLastAt *time.Time
	BeforeRecent int64
	AfterRating  float64
	AfterDev     float64
	AfterGames   int
	AfterLastAt  *time.Time
	AfterRecent  int64
	Wins         int
	Losses       int
	Draws        int
	Streak       int
	BestStreak   int
	At           time.Time
}

func (changeRow) TableName() string { return "rating_changes" }

func toChangeRow(c ladder.RatingChange) changeRow {
	var mid *int64
	if c.MatchID != 0 {
		id := c.MatchID
		mid = &id
	}
	return changeRow{
		Seq: c.Seq, QueueID: c.QueueID, SeasonID: c.SeasonID, MatchID: mid, UserID: c.UserID, Team: c.Team, Kind: c.Kind,
		BeforeRating: c.Before.Rating, BeforeDev: c.Before.Dev, BeforeGames: c.Before.Games, BeforeLastAt: nt(c.Before.Last), BeforeRecent: int64(c.Before.Recent),
		AfterRating: c.After.Rating, AfterDev: c.After.Dev, AfterGames: c.After.Games, AfterLastAt: nt(c.After.Last), AfterRecent: int64(c.After.Recent),
		Wins: c.Record.Wins, Losses: c.Record.Losses, Draws: c.Record.Draws, Streak: c.Record.Streak, BestStreak: c.Record.Best, At: c.At.UTC(),
	}
}

func (r changeRow) change() ladder.RatingChange {
	c := ladder.RatingChange{
		Seq: r.Seq, QueueID: r.QueueID, SeasonID: r.SeasonID, UserID: r.UserID, Team: r.Team, Kind: r.Kind,
		Before: rating.State{Rating: r.BeforeRating, Dev: r.BeforeDev, Games: r.BeforeGames, Last: tv(r.BeforeLastAt), Recent: uint64(r.BeforeRecent)},
		After:  rating.State{Rating: r.AfterRating, Dev: r.AfterDev, Games: r.AfterGames, Last: tv(r.AfterLastAt), Recent: uint64(r.AfterRecent)},
		Record: ladder.Record{Wins: r.Wins, Losses: r.Losses, Draws: r.Draws, Streak: r.Streak, Best: r.BestStreak},
		At:     r.At.UTC(),
	}
	if r.MatchID != nil {
		c.MatchID = *r.MatchID
	}
	return c
}

func changes(rows []changeRow) []ladder.RatingChange {
	out := make([]ladder.RatingChange, len(rows))
	for i, r := range rows {
		out[i] = r.change()
	}
	return out
}

// InsertChanges implements ladder.Tx, keeping the slice's order in IDs.
func (t *tx) InsertChanges(ctx context.Context, cs []ladder.RatingChange) error {
	if len(cs) == 0 {
		return nil
	}
	rows := make([]changeRow, len(cs))
	for i, c := range cs {
		rows[i] = toChangeRow(c)
	}
	return wrap("insert changes", t.q(ctx).CreateInBatches(&rows, 500).Error, "change conflict")
}

// Changes implements ladder.Tx.
func (t *tx) Changes(ctx context.Context, k ladder.Key, fromSeq int64) ([]ladder.RatingChange, error) {
	var rows []changeRow
	err := t.q(ctx).Where("queue_id = ? AND season_id = ? AND seq >= ?", k.QueueID, k.SeasonID, fromSeq).Order("seq, id").Find(&rows).Error
	if err != nil {
		return nil, wrap("changes", err, "")
	}
	return changes(rows), nil
}

// MatchChangesBetween implements ladder.Tx (rating_changes_log).
func (t *tx) MatchChangesBetween(ctx context.Context, k ladder.Key, fromSeq, toSeq int64) ([]ladder.RatingChange, error) {
	var rows []changeRow
	err := t.q(ctx).Raw(`SELECT * FROM rating_changes WHERE queue_id = ? AND season_id = ? AND seq >= ? AND seq <= ? AND kind = 'match'
 ORDER BY seq, id`, k.QueueID, k.SeasonID, fromSeq, toSeq).Scan(&rows).Error
	if err != nil {
		return nil, wrap("changes", err, "")
	}
	return changes(rows), nil
}

// DeleteChanges implements ladder.Tx.
func (t *tx) DeleteChanges(ctx context.Context, k ladder.Key, fromSeq int64, userIDs []string) error {
	// Only replays delete log rows: the rows derived from the log learn
	// that it is rewritten from fromSeq, in the same transaction.
	if err := t.rewritten(ctx, k, fromSeq); err != nil {
		return err
	}
	for start := 0; start < len(userIDs); start += 500 {
		chunk := userIDs[start:min(start+500, len(userIDs))]
		err := t.q(ctx).Where("queue_id = ? AND season_id = ? AND user_id IN ? AND seq >= ?", k.QueueID, k.SeasonID, chunk, fromSeq).
			Delete(&changeRow{}).Error
		if err != nil {
			return wrap("delete changes", err, "")
		}
	}
	return nil
}

// Adjustments implements ladder.Tx.
func (t *tx) Adjustments(ctx context.Context, k ladder.Key) ([]ladder.RatingChange, error) {
	var rows []changeRow
	err := t.q(ctx).Where("queue_id = ? AND season_id = ? AND kind <> 'match'", k.QueueID, k.SeasonID).Order("seq, id").Find(&rows).Error
	if err != nil {
		return nil, wrap("adjustments", err, "")
	}
	return changes(rows), nil
}

// PlayerChanges implements ladder.Tx.
func (t *tx) PlayerChanges(ctx context.Context, k ladder.Key, userID string, limit int) ([]ladder.RatingChange, error) {
	var rows []changeRow
	err := t.q(ctx).Where("queue_id = ? AND season_id = ? AND user_id = ?", k.QueueID, k.SeasonID, userID).
		Order("seq DESC").Limit(max(limit, 1)).Find(&rows).Error
	if err != nil {
		return nil, wrap("player changes", err, "")
	}
	out := changes(rows)
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}

// MatchChanges implements ladder.Tx.
func (t *tx) MatchChanges(ctx context.Context, matchID int64) ([]ladder.RatingChange, error) {
	var rows []changeRow
	if err := t.q(ctx).Where("match_id = ?", matchID).Order("id").Find(&rows).Error; err != nil {
		return nil, wrap("match changes", err, "")
	}
	out := changes(rows)
	for i := range out {
		out[i].MatchID = matchID
	}
	return out, nil
}
