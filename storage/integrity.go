package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/ladder"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// The integrity detectors' rows (package integrity): counters, progress,
// the audit position and flags. Every query names the guild.

var _ integrity.Store = (*DB)(nil)

type integrityCounterRow struct {
	QueueID  int64 `gorm:"primaryKey"`
	SeasonID int64 `gorm:"primaryKey"`
	GuildID  string
	Key      string `gorm:"primaryKey"`
	Value    string
}

func (integrityCounterRow) TableName() string { return "integrity_counters" }

type integrityProgressRow struct {
	QueueID  int64 `gorm:"primaryKey"`
	SeasonID int64 `gorm:"primaryKey"`
	GuildID  string
	Seq      int64
	Folded   int
}

func (integrityProgressRow) TableName() string { return "integrity_progress" }

type integrityFlagRow struct {
	ID            int64 `gorm:"primaryKey"`
	GuildID       string
	QueueID       int64
	SeasonID      int64
	Kind          string
	Subject       string
	Matches       string
	Evidence      string
	Score         float64
	Seq           int64
	RaisedAt      time.Time
	Posted        bool
	DismissedBy   string
	DismissedAt   *time.Time
	DismissReason string
}

func (integrityFlagRow) TableName() string { return "integrity_flags" }

func (r integrityFlagRow) flag() integrity.Flag {
	f := integrity.Flag{ID: r.ID, GuildID: r.GuildID, QueueID: r.QueueID, SeasonID: r.SeasonID, Kind: r.Kind,
		Subjects: strings.Split(r.Subject, ","), Evidence: r.Evidence, Score: r.Score, Seq: r.Seq,
		RaisedAt: r.RaisedAt.UTC(), Posted: r.Posted, DismissedBy: r.DismissedBy, DismissReason: r.DismissReason}
	if r.DismissedAt != nil {
		f.DismissedAt = r.DismissedAt.UTC()
	}
	for _, s := range strings.Split(r.Matches, ",") {
		if id, err := strconv.ParseInt(s, 10, 64); err == nil {
			f.Matches = append(f.Matches, id)
		}
	}
	return f
}

func flagRow(f integrity.Flag) integrityFlagRow {
	ms := make([]string, len(f.Matches))
	for i, id := range f.Matches {
		ms[i] = strconv.FormatInt(id, 10)
	}
	return integrityFlagRow{GuildID: f.GuildID, QueueID: f.QueueID, SeasonID: f.SeasonID, Kind: f.Kind,
		Subject: integrity.Subject(f.Subjects), Matches: strings.Join(ms, ","), Evidence: f.Evidence,
		Score: f.Score, Seq: f.Seq, RaisedAt: f.RaisedAt}
}

// IntegrityLadders implements integrity.Store: every queue of the guild in
// every season, so a late result in a closed season is folded too.
func (db *DB) IntegrityLadders(ctx context.Context, guildID string) ([]integrity.Ladder, error) {
	var ls []integrity.Ladder
	err := db.db.WithContext(ctx).Raw(`SELECT q.id AS queue_id, s.id AS season_id FROM queues q
		JOIN seasons s ON s.guild_id = q.guild_id WHERE q.guild_id = ? ORDER BY q.id, s.id`, guildID).Scan(&ls).Error
	return ls, wrap("integrity ladders", err, "guild not found")
}

type integrityMatchRow struct {
	ID             int64
	Seq            int64
	Winner         int
	PTeam1         float64
	CreatedAt      time.Time
	PlayedAt       *time.Time
	ReportedBy     string
	ReportedWinner int
	DisputedBy     string
	ResolvedBy     string
}

type integrityChangeRow struct {
	MatchID      int64
	UserID       string
	Team         int
	BeforeRating float64
	AfterRating  float64
	BeforeGames  int
}

// IntegrityEntries implements integrity.Store with two indexed reads: the
// ladder's matches after afterSeq (matches_log) and their log rows.
func (db *DB) IntegrityEntries(ctx context.Context, guildID string, l integrity.Ladder, afterSeq int64, limit int) ([]integrity.Entry, error) {
	return integrityEntries(ctx, db.db.WithContext(ctx), guildID, l, afterSeq, limit)
}

func integrityEntries(ctx context.Context, g *gorm.DB, guildID string, l integrity.Ladder, afterSeq int64, limit int) ([]integrity.Entry, error) {
	if limit <= 0 {
		limit = math.MaxInt32
	}
	var ms []integrityMatchRow
	err := g.Raw(`SELECT id, seq, winner, p_team1, created_at, played_at, reported_by, reported_winner, disputed_by, resolved_by
		FROM matches WHERE queue_id = ? AND season_id = ? AND state IN ? AND seq > ? AND guild_id = ?
		ORDER BY seq LIMIT ?`, l.QueueID, l.SeasonID, ratedStates, afterSeq, guildID, limit).Scan(&ms).Error
	if err != nil || len(ms) == 0 {
		return nil, wrap("integrity entries", err, "matches not found")
	}
	es := make([]integrity.Entry, len(ms))
	at := make(map[int64]int, len(ms))
	ids := make([]int64, len(ms))
	for i, m := range ms {
		ids[i], at[m.ID] = m.ID, i
		es[i] = integrity.Entry{MatchID: m.ID, Seq: m.Seq, At: playedAt(m.CreatedAt, m.PlayedAt), Winner: m.Winner, PTeam1: m.PTeam1,
			Before: map[string]float64{}, Delta: map[string]float64{}, Games: map[string]int{},
			ReportedBy: m.ReportedBy, ReportedWinner: m.ReportedWinner, DisputedBy: m.DisputedBy, ResolvedBy: m.ResolvedBy}
	}
	for chunk := range slices.Chunk(ids, 500) {
		var cs []integrityChangeRow
		err := g.Raw(`SELECT match_id, user_id, team, before_rating, after_rating, before_games
			FROM rating_changes WHERE match_id IN ? AND kind = 'match' ORDER BY match_id, team, user_id`, chunk).Scan(&cs).Error
		if err != nil {
			return nil, wrap("integrity entries", err, "log not found")
		}
		for _, c := range cs {
			e := &es[at[c.MatchID]]
			if c.Team == 1 || c.Team == 2 {
				e.Teams[c.Team-1] = append(e.Teams[c.Team-1], c.UserID)
			}
			e.Before[c.UserID], e.Delta[c.UserID], e.Games[c.UserID] = c.BeforeRating, c.AfterRating-c.BeforeRating, c.BeforeGames
		}
	}
	return es, nil
}

// IntegrityStep implements integrity.Store. The progress row is read
// first and written last under the same transaction; on PostgreSQL it is
// locked (FOR UPDATE), so two processes never fold the same batch twice.
func (db *DB) IntegrityStep(ctx context.Context, guildID string, l integrity.Ladder, limit int, fn integrity.StepFunc) (int, error) {
	// Most runs find nothing new: two indexed reads answer that without
	// a write transaction.
	var seqs []int64
	g0 := db.db.WithContext(ctx)
	if err := g0.Raw(`SELECT seq FROM integrity_progress WHERE queue_id = ? AND season_id = ? AND guild_id = ?`, l.QueueID, l.SeasonID, guildID).Scan(&seqs).Error; err != nil {
		return 0, wrap("integrity step", err, "ladder not found")
	}
	var after int64
	if len(seqs) > 0 {
		after = seqs[0]
	}
	var next []int64
	if err := g0.Raw(`SELECT seq FROM matches WHERE queue_id = ? AND season_id = ? AND state IN ? AND seq > ? AND guild_id = ? LIMIT 1`,
		l.QueueID, l.SeasonID, ratedStates, after, guildID).Scan(&next).Error; err != nil {
		return 0, wrap("integrity step", err, "ladder not found")
	}
	if len(next) == 0 {
		return 0, nil
	}
	n := 0
	err := db.db.WithContext(ctx).Transaction(func(g *gorm.DB) error {
		n = 0
		p := integrityProgressRow{QueueID: l.QueueID, SeasonID: l.SeasonID, GuildID: guildID}
		if err := g.Clauses(clause.OnConflict{DoNothing: true}).Create(&p).Error; err != nil {
			return err
		}
		q := g
		if db.dialect == Postgres {
			q = g.Clauses(clause.Locking{Strength: "UPDATE"})
		}
		if err := q.Where("queue_id = ? AND season_id = ? AND guild_id = ?", l.QueueID, l.SeasonID, guildID).Take(&p).Error; err != nil {
			return err
		}
		es, err := integrityEntries(ctx, g, guildID, l, p.Seq, limit)
		if err != nil || len(es) == 0 {
			return err
		}
		var keys []string
		for _, e := range es {
			keys = append(keys, integrity.Keys(e)...)
		}
		slices.Sort(keys)
		keys = slices.Compact(keys)
		st, err := loadCounters(g, l, keys)
		if err != nil {
			return err
		}
		flags, np := fn(integrity.Progress{Seq: p.Seq, Folded: p.Folded}, es, st)
		rows := make([]integrityCounterRow, 0, len(st))
		for _, k := range keys {
			b, err := json.Marshal(st[k])
			if err != nil {
				return err
			}
			rows = append(rows, integrityCounterRow{QueueID: l.QueueID, SeasonID: l.SeasonID, GuildID: guildID, Key: k, Value: string(b)})
		}
		for chunk := range slices.Chunk(rows, 200) {
			err := g.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "queue_id"}, {Name: "season_id"}, {Name: "key"}},
				DoUpdates: clause.AssignmentColumns([]string{"value"})}).Create(&chunk).Error
			if err != nil {
				return err
			}
		}
		for _, f := range flags {
			r := flagRow(f)
			if err := g.Clauses(clause.OnConflict{DoNothing: true}).Create(&r).Error; err != nil {
				return err
			}
		}
		n = len(es)
		return g.Model(&integrityProgressRow{}).Where("queue_id = ? AND season_id = ?", l.QueueID, l.SeasonID).
			Updates(map[string]any{"seq": np.Seq, "folded": np.Folded}).Error
	})
	return n, wrap("integrity step", err, "ladder not found")
}

func loadCounters(g *gorm.DB, l integrity.Ladder, keys []string) (integrity.State, error) {
	st := integrity.State{}
	for chunk := range slices.Chunk(keys, 500) {
		var rows []integrityCounterRow
		if err := g.Where("queue_id = ? AND season_id = ? AND key IN ?", l.QueueID, l.SeasonID, chunk).Find(&rows).Error; err != nil {
			return nil, err
		}
		for _, r := range rows {
			var c integrity.Counter
			if err := json.Unmarshal([]byte(r.Value), &c); err != nil {
				return nil, fmt.Errorf("counter %s: %w", r.Key, err)
			}
			st[r.Key] = &c
		}
	}
	for _, k := range keys {
		if st[k] == nil {
			st[k] = &integrity.Counter{}
		}
	}
	return st, nil
}

// IntegrityCounters implements integrity.Store.
func (db *DB) IntegrityCounters(ctx context.Context, guildID string, l integrity.Ladder) (integrity.State, error) {
	var rows []integrityCounterRow
	err := db.db.WithContext(ctx).Where("queue_id = ? AND season_id = ? AND guild_id = ?", l.QueueID, l.SeasonID, guildID).Find(&rows).Error
	if err != nil {
		return nil, wrap("integrity counters", err, "ladder not found")
	}
	st := integrity.State{}
	for _, r := range rows {
		var c integrity.Counter
		if err := json.Unmarshal([]byte(r.Value), &c); err != nil {
			return nil, fmt.Errorf("storage: integrity counter %s: %w", r.Key, err)
		}
		st[r.Key] = &c
	}
	return st, nil
}

// IntegrityProgress implements integrity.Store.
func (db *DB) IntegrityProgress(ctx context.Context, guildID string, l integrity.Ladder) (integrity.Progress, error) {
	var rows []integrityProgressRow
	err := db.db.WithContext(ctx).Where("queue_id = ? AND season_id = ? AND guild_id = ?", l.QueueID, l.SeasonID, guildID).Find(&rows).Error
	if err != nil || len(rows) == 0 {
		return integrity.Progress{}, wrap("integrity progress", err, "ladder not found")
	}
	return integrity.Progress{Seq: rows[0].Seq, Folded: rows[0].Folded}, nil
}

// IntegrityCorrections implements integrity.Store: the guild's audit
// entries after its stored position (audit_log_guild), with the log place
// of the match of each; corrections, voids and resolutions of matches
// already in the log (seq > 0) are returned.
func (db *DB) IntegrityCorrections(ctx context.Context, guildID string, limit int) ([]integrity.Correction, int64, error) {
	if limit <= 0 {
		limit = math.MaxInt32
	}
	var rows []struct {
		AuditID  int64
		Action   string
		QueueID  int64
		SeasonID int64
		Seq      int64
	}
	err := db.db.WithContext(ctx).Raw(`SELECT a.id AS audit_id, a.action, COALESCE(m.queue_id, 0) AS queue_id,
			COALESCE(m.season_id, 0) AS season_id, COALESCE(m.seq, 0) AS seq
		FROM audit_log a LEFT JOIN matches m ON m.id = a.match_id
		WHERE a.guild_id = ? AND a.id > COALESCE((SELECT audit_id FROM integrity_audit WHERE guild_id = ?), 0)
		ORDER BY a.id LIMIT ?`, guildID, guildID, limit).Scan(&rows).Error
	if err != nil {
		return nil, 0, wrap("integrity corrections", err, "guild not found")
	}
	var out []integrity.Correction
	var last int64
	for _, r := range rows {
		last = r.AuditID
		switch {
		case r.Action == "match.correct", r.Action == "match.void", r.Action == "match.resolve":
			// A replay moves every later match of the ladder (a void
			// takes the match's place in the log away), so whatever the
			// match's seq is now, the ladder's folded counters are stale.
			if r.QueueID > 0 {
				out = append(out, integrity.Correction{AuditID: r.AuditID, Ladder: integrity.Ladder{QueueID: r.QueueID, SeasonID: r.SeasonID}, Seq: r.Seq})
			}
		case strings.HasPrefix(r.Action, "rating."), r.Action == "penalty.rating":
			// A rating set or adjusted replays its queue's ladder; the
			// entry does not name the queue, so every ladder of the guild
			// starts over (the zero Ladder).
			out = append(out, integrity.Correction{AuditID: r.AuditID})
		}
	}
	return out, last, nil
}

// IntegrityRestart implements integrity.Store.
func (db *DB) IntegrityRestart(ctx context.Context, guildID string, ls []integrity.Ladder, auditID int64) error {
	err := db.db.WithContext(ctx).Transaction(func(g *gorm.DB) error {
		for _, l := range ls {
			if err := g.Exec(`DELETE FROM integrity_counters WHERE queue_id = ? AND season_id = ? AND guild_id = ?`, l.QueueID, l.SeasonID, guildID).Error; err != nil {
				return err
			}
			if err := g.Exec(`DELETE FROM integrity_progress WHERE queue_id = ? AND season_id = ? AND guild_id = ?`, l.QueueID, l.SeasonID, guildID).Error; err != nil {
				return err
			}
		}
		return g.Exec(`INSERT INTO integrity_audit (guild_id, audit_id) VALUES (?, ?)
			ON CONFLICT (guild_id) DO UPDATE SET audit_id = excluded.audit_id`, guildID, auditID).Error
	})
	return wrap("integrity restart", err, "guild not found")
}

// IntegrityFlags implements integrity.Store.
func (db *DB) IntegrityFlags(ctx context.Context, guildID string, openOnly bool, limit int) ([]integrity.Flag, error) {
	q := db.db.WithContext(ctx).Where("guild_id = ?", guildID)
	if openOnly {
		q = q.Where("dismissed_by = ''")
	}
	var rows []integrityFlagRow
	if err := q.Order("id DESC").Limit(limit).Find(&rows).Error; err != nil {
		return nil, wrap("integrity flags", err, "guild not found")
	}
	out := make([]integrity.Flag, len(rows))
	for i, r := range rows {
		out[i] = r.flag()
	}
	return out, nil
}

// IntegrityFlag implements integrity.Store.
func (db *DB) IntegrityFlag(ctx context.Context, guildID string, id int64) (integrity.Flag, error) {
	var r integrityFlagRow
	err := db.db.WithContext(ctx).Where("guild_id = ? AND id = ?", guildID, id).Take(&r).Error
	if err != nil {
		return integrity.Flag{}, wrap("integrity flag", err, fmt.Sprintf("flag %d not found", id))
	}
	return r.flag(), nil
}

// UnpostedFlags implements integrity.Store.
func (db *DB) UnpostedFlags(ctx context.Context, guildID string, limit int) ([]integrity.Flag, error) {
	var rows []integrityFlagRow
	err := db.db.WithContext(ctx).Where("guild_id = ? AND posted = ?", guildID, false).Order("id").Limit(limit).Find(&rows).Error
	if err != nil {
		return nil, wrap("unposted flags", err, "guild not found")
	}
	out := make([]integrity.Flag, len(rows))
	for i, r := range rows {
		out[i] = r.flag()
	}
	return out, nil
}

// MarkFlagPosted implements integrity.Store: a conditional update, so one
// process posts each flag.
func (db *DB) MarkFlagPosted(ctx context.Context, guildID string, id int64) (bool, error) {
	res := db.db.WithContext(ctx).Model(&integrityFlagRow{}).Where("guild_id = ? AND id = ? AND posted = ?", guildID, id, false).Update("posted", true)
	if res.Error != nil {
		return false, wrap("mark flag posted", res.Error, "flag not found")
	}
	return res.RowsAffected == 1, nil
}

// DismissFlag implements integrity.Store.
func (db *DB) DismissFlag(ctx context.Context, guildID string, id int64, by, reason string, at time.Time) (integrity.Flag, error) {
	var f integrity.Flag
	err := db.db.WithContext(ctx).Transaction(func(g *gorm.DB) error {
		var r integrityFlagRow
		if err := g.Where("guild_id = ? AND id = ?", guildID, id).Take(&r).Error; err != nil {
			return err
		}
		if r.DismissedBy != "" {
			return ladder.Errorf(ladder.CodeConflict, "flag %d was dismissed already by <@%s>", id, r.DismissedBy)
		}
		res := g.Model(&integrityFlagRow{}).Where("id = ? AND dismissed_by = ''", id).
			Updates(map[string]any{"dismissed_by": by, "dismissed_at": at, "dismiss_reason": reason})
		if err := found(res); err != nil {
			return ladder.Errorf(ladder.CodeConflict, "flag %d was dismissed already", id)
		}
		r.DismissedBy, r.DismissedAt, r.DismissReason = by, &at, reason
		f = r.flag()
		before, _ := json.Marshal(map[string]any{"kind": r.Kind, "subject": r.Subject, "evidence": r.Evidence})
		a := auditRow{GuildID: guildID, ActorID: by, Action: "integrity.dismiss", Target: strconv.FormatInt(id, 10), Reason: reason,
			Before: string(before), After: `{"dismissed":true}`, At: at}
		return g.Create(&a).Error
	})
	if err != nil {
		return integrity.Flag{}, wrap("dismiss flag", err, fmt.Sprintf("flag %d not found", id))
	}
	return f, nil
}
