package storage

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/ladder"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// The integrity detectors' rows (package integrity): counters, progress
// and flags. The rated write folds each match into them (IntegrityLoad,
// IntegritySave, through derived.go); the job rebuilds a ladder a
// correction rewrote (IntegrityStep).

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
	Live     bool
	Clear    bool
	// Ended: the ladder's season has ended (integrity.Progress.Ended).
	Ended bool
}

func (integrityProgressRow) TableName() string { return "integrity_progress" }

// progress is the row as integrity reads it.
func (r integrityProgressRow) progress() integrity.Progress {
	return integrity.Progress{Seq: r.Seq, Folded: r.Folded, Live: r.Live, Clear: r.Clear, Ended: r.Ended}
}

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
		Subjects: strings.Split(r.Subject, ","), Evidence: integrity.DecodeEvidence(r.Evidence), Score: r.Score, Seq: r.Seq,
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
		Subject: integrity.Subject(f.Subjects), Matches: strings.Join(ms, ","), Evidence: f.Evidence.Encode(),
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
	BeforeLastAt *time.Time
}

// IntegrityEntries implements integrity.Store with two indexed reads: the
// ladder's matches after afterSeq (matches_log) and their log rows.
func (db *DB) IntegrityEntries(ctx context.Context, guildID string, l integrity.Ladder, afterSeq int64, limit int) ([]integrity.Entry, error) {
	return integrityEntries(ctx, db.db.WithContext(ctx), guildID, l, afterSeq, limit)
}

// entriesSQL reads a ladder's rated matches after a position, in order,
// from matches_log. The states are written out (ratedIn): that index
// holds only rated matches, and SQLite uses such a partial index only when
// the query's own test implies the index's, which a bound parameter
// cannot. With `state IN ?` SQLite read every match of the guild (by
// matches_guild) and sorted them, at each step of the integrity job: a
// cost growing with the guild's history.
const entriesSQL = `SELECT m.id, m.seq, m.winner, m.p_team1, m.created_at, m.played_at, m.reported_by, m.reported_winner,
 m.disputed_by, m.resolved_by FROM matches m WHERE m.queue_id = ? AND m.season_id = ? AND ` + ratedIn + ` AND m.seq > ?
 AND m.guild_id = ? ORDER BY m.seq LIMIT ?`

func integrityEntries(ctx context.Context, g *gorm.DB, guildID string, l integrity.Ladder, afterSeq int64, limit int) ([]integrity.Entry, error) {
	if limit <= 0 {
		limit = math.MaxInt32
	}
	var ms []integrityMatchRow
	err := g.Raw(entriesSQL, l.QueueID, l.SeasonID, afterSeq, guildID, limit).Scan(&ms).Error
	if err != nil || len(ms) == 0 {
		return nil, wrap("integrity entries", err, "matches not found")
	}
	es := make([]integrity.Entry, len(ms))
	at := make(map[int64]int, len(ms))
	ids := make([]int64, len(ms))
	for i, m := range ms {
		ids[i], at[m.ID] = m.ID, i
		es[i] = integrity.Entry{MatchID: m.ID, Seq: m.Seq, At: playedAt(m.CreatedAt, m.PlayedAt), Winner: m.Winner, PTeam1: m.PTeam1,
			Before: map[string]float64{}, Delta: map[string]float64{}, Games: map[string]int{}, Carried: map[string]bool{},
			ReportedBy: m.ReportedBy, ReportedWinner: m.ReportedWinner, DisputedBy: m.DisputedBy, ResolvedBy: m.ResolvedBy}
	}
	for chunk := range slices.Chunk(ids, 500) {
		var cs []integrityChangeRow
		err := g.Raw(`SELECT match_id, user_id, team, before_rating, after_rating, before_games, before_last_at
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
			if c.BeforeGames == 0 && !tv(c.BeforeLastAt).IsZero() {
				e.Carried[c.UserID] = true
			}
		}
	}
	return es, nil
}

// IntegrityPending implements integrity.Store (integrity_progress_pending).
func (db *DB) IntegrityPending(ctx context.Context, limit int) ([]integrity.Pending, error) {
	var rows []integrityProgressRow
	err := db.db.WithContext(ctx).Where("live = ?", false).Order("queue_id, season_id").Limit(limit).Find(&rows).Error
	if err != nil {
		return nil, wrap("integrity pending", err, "")
	}
	out := make([]integrity.Pending, len(rows))
	for i, r := range rows {
		out[i] = integrity.Pending{GuildID: r.GuildID, Ladder: integrity.Ladder{QueueID: r.QueueID, SeasonID: r.SeasonID}}
	}
	return out, nil
}

// IntegrityEndedMissed implements integrity.Store. It reads the ladders
// not marked ended (the partial index integrity_progress_running) and the
// running seasons (seasons_running), and finds the first among the second
// whose season is not running: its cost follows the running seasons, not
// the seasons that ended (`season_id IN (… ended_at IS NOT NULL)` had
// PostgreSQL hash every ended season).
func (db *DB) IntegrityEndedMissed(ctx context.Context) (int, error) {
	res := db.db.WithContext(ctx).Exec(`UPDATE integrity_progress SET ended = true, seq = 0, folded = 0, live = false, clear = true
 WHERE NOT ended AND season_id NOT IN (SELECT id FROM seasons WHERE ended_at IS NULL)`)
	return int(res.RowsAffected), wrap("integrity ended missed", res.Error, "")
}

// clearCountersSQL deletes up to a batch of a ladder's counters.
const clearCountersSQL = `DELETE FROM integrity_counters WHERE queue_id = ? AND season_id = ? AND key IN
 (SELECT key FROM integrity_counters WHERE queue_id = ? AND season_id = ? LIMIT ?)`

// IntegrityStep implements integrity.Store. The progress row is locked
// first (FOR UPDATE on PostgreSQL, SQLite's write lock) and written last:
// a rated write of the ladder waits for it in its own fold (IntegrityLoad),
// so a step that finds the log's end and makes the ladder live leaves no
// match to nobody.
func (db *DB) IntegrityStep(ctx context.Context, guildID string, l integrity.Ladder, limit int, fn integrity.StepFunc) (int, error) {
	n := 0
	err := db.db.WithContext(ctx).Transaction(func(g *gorm.DB) error {
		n = 0
		q := g
		if db.dialect == Postgres {
			q = g.Clauses(clause.Locking{Strength: "UPDATE"})
		}
		var p integrityProgressRow
		if err := q.Where("queue_id = ? AND season_id = ? AND guild_id = ?", l.QueueID, l.SeasonID, guildID).Take(&p).Error; err != nil {
			return err
		}
		if p.Live {
			return nil
		}
		if p.Clear {
			res := g.Exec(clearCountersSQL, l.QueueID, l.SeasonID, l.QueueID, l.SeasonID, limit)
			if res.Error != nil {
				return res.Error
			}
			if n = int(res.RowsAffected); n == limit {
				return nil // more to delete next step
			}
			p.Clear = false
		}
		es, err := integrityEntries(ctx, g, guildID, l, p.Seq, limit)
		if err != nil {
			return err
		}
		var keys []string
		for _, e := range es {
			keys = append(keys, integrity.Keys(e)...)
		}
		slices.Sort(keys)
		keys = slices.Compact(keys)
		t := &tx{db: g, dialect: db.dialect}
		st, err := loadCounters(ctx, t, l, keys)
		if err != nil {
			return err
		}
		flags, np := fn(integrity.Progress{Seq: p.Seq, Folded: p.Folded, Ended: p.Ended}, es, st)
		if err := t.saveCounters(ctx, guildID, l, st, flags); err != nil {
			return err
		}
		n += len(es)
		// Fewer than a batch: the log's end, under the lock.
		live := len(es) < limit
		return g.Model(&integrityProgressRow{}).Where("queue_id = ? AND season_id = ?", l.QueueID, l.SeasonID).
			Updates(map[string]any{"seq": np.Seq, "folded": np.Folded, "live": live, "clear": p.Clear}).Error
	})
	return n, wrap("integrity step", err, "ladder not found")
}

// Statements of the fold in the rated write (IntegrityLoad).
const (
	// progressInsertSQL gives a ladder without one a live progress row,
	// ended when its season has (a match of a season rated after its end,
	// in a queue that had none before).
	progressInsertSQL = `INSERT INTO integrity_progress (queue_id, season_id, guild_id, seq, folded, live, clear, ended)
 VALUES (?, ?, ?, 0, 0, true, false, EXISTS (SELECT 1 FROM seasons WHERE id = ? AND ended_at IS NOT NULL))
 ON CONFLICT (queue_id, season_id) DO NOTHING`
	progressLockSQL = `SELECT seq, folded, live, clear, ended FROM integrity_progress WHERE queue_id = ? AND season_id = ?`
	// gapSQL counts a rated match after the progress and before the
	// write (matches_log): one the fold never saw. It takes the ladder's
	// last rated match before the write from the end of matches_log and
	// compares it with the progress: `seq > progress AND seq < before
	// LIMIT 1` let the planner scan the whole table for a row that is not
	// there, a cost growing with the log (110 ms at 18,000 matches).
	gapSQL = `SELECT COUNT(*) FROM (SELECT seq FROM matches WHERE queue_id = ? AND season_id = ? AND state IN ('confirmed', 'resolved')
 AND seq < ? ORDER BY seq DESC LIMIT 1) x WHERE x.seq > (SELECT seq FROM integrity_progress WHERE queue_id = ? AND season_id = ?)`
	// progressGapSQLite is progressLockSQL and gapSQL in one statement
	// (SQLite, whose write lock the transaction holds from BEGIN): no row
	// when the ladder has no progress yet.
	progressGapSQLite = `SELECT p.seq, p.folded, p.live, p.clear, p.ended, (SELECT COUNT(*) FROM (SELECT seq FROM matches
 WHERE queue_id = ? AND season_id = ? AND state IN ('confirmed', 'resolved') AND seq < ? ORDER BY seq DESC LIMIT 1) x
 WHERE x.seq > p.seq) FROM integrity_progress p WHERE p.queue_id = ? AND p.season_id = ?`
	// countersSQLite reads the counters of the keys of a JSON array, one
	// probe of the primary key per key (CROSS JOIN keeps SQLite's planner
	// from putting the counters in the outer loop).
	countersSQLite = `SELECT c.key, c.value FROM json_each(?) AS k
 CROSS JOIN integrity_counters c ON c.queue_id = ? AND c.season_id = ? AND c.key = k.value`
	// countersPG reads the counters of keys on PostgreSQL: one probe of the primary
	// key per key. With key = ANY($3) the planner, misled by statistics
	// taken while the ladder was young, scanned every counter of the
	// ladder (all its players, partners and opponents: a cost growing with
	// its history) and filtered the keys; LIMIT 1 keeps the subquery from
	// being flattened into such a join.
	countersPG = `SELECT c.key, c.value FROM unnest($3::text[]) AS k(key)
 CROSS JOIN LATERAL (SELECT key, value FROM integrity_counters WHERE queue_id = $1 AND season_id = $2 AND key = k.key LIMIT 1) c`
)

// countersUpsertPG writes counters given as arrays of keys and values.
const countersUpsertPG = `INSERT INTO integrity_counters (queue_id, season_id, guild_id, key, value)
 SELECT ?, ?, ?, u.key, u.value FROM unnest(?::text[], ?::text[]) AS u(key, value)
 ON CONFLICT (queue_id, season_id, key) DO UPDATE SET value = excluded.value`

// countersUpsertSQLite writes n counters on SQLite.
func countersUpsertSQLite(n int) string {
	return insertRowsSQL("integrity_counters", []string{"queue_id", "season_id", "guild_id", "key", "value"}, n) +
		` ON CONFLICT (queue_id, season_id, key) DO UPDATE SET value = excluded.value`
}

// IntegrityLoad implements integrity.FoldStore. On PostgreSQL its four
// statements travel in one round trip.
func (t *tx) IntegrityLoad(ctx context.Context, guildID string, l integrity.Ladder, before int64, keys []string) (integrity.Progress, bool, integrity.State, error) {
	var (
		p    integrityProgressRow
		gaps int
		rows []integrityCounterRow
	)
	lock := progressLockSQL + t.forUpdate()
	if ld := t.takeLoaded(l, keys); ld != nil {
		p, gaps, rows = ld.p, ld.gaps, ld.rows
	} else if t.pg != nil {
		err := t.pg.batch(ctx, func(b *pgx.Batch) {
			b.Queue(pgSQL(progressInsertSQL), l.QueueID, l.SeasonID, guildID, l.SeasonID)
			b.Queue(pgSQL(lock), l.QueueID, l.SeasonID)
			b.Queue(pgSQL(gapSQL), l.QueueID, l.SeasonID, before, l.QueueID, l.SeasonID)
			b.Queue(countersPG, l.QueueID, l.SeasonID, keys)
		}, func(br pgx.BatchResults) error {
			if _, err := br.Exec(); err != nil {
				return err
			}
			if err := br.QueryRow().Scan(&p.Seq, &p.Folded, &p.Live, &p.Clear, &p.Ended); err != nil {
				return err
			}
			if err := br.QueryRow().Scan(&gaps); err != nil {
				return err
			}
			var err error
			_, rows, err = readCounters(br)
			return err
		})
		if err != nil {
			return integrity.Progress{}, false, nil, wrap("integrity load", err, "")
		}
	} else {
		g := t.q(ctx)
		var err error
		found := false
		if t.dialect == SQLite {
			// The progress and the gap in one statement: the ladder has its
			// progress row from its first fold on, so the insert below runs
			// once per ladder (each statement is a call of its own here).
			err = g.Raw(progressGapSQLite, l.QueueID, l.SeasonID, before, l.QueueID, l.SeasonID).Row().Scan(&p.Seq, &p.Folded, &p.Live, &p.Clear, &p.Ended, &gaps)
			found = err == nil
			if errors.Is(err, sql.ErrNoRows) {
				err = nil
			}
		}
		if err == nil && !found {
			err = g.Exec(progressInsertSQL, l.QueueID, l.SeasonID, guildID, l.SeasonID).Error
			if err == nil {
				err = g.Raw(lock, l.QueueID, l.SeasonID).Row().Scan(&p.Seq, &p.Folded, &p.Live, &p.Clear, &p.Ended)
			}
			if err == nil {
				err = g.Raw(gapSQL, l.QueueID, l.SeasonID, before, l.QueueID, l.SeasonID).Row().Scan(&gaps)
			}
		}
		if err == nil {
			rows, err = t.counterRows(ctx, l, keys)
		}
		if err != nil {
			return integrity.Progress{}, false, nil, wrap("integrity load", err, "")
		}
	}
	st := integrity.State{}
	if err := decodeCounters(st, rows, keys); err != nil {
		return integrity.Progress{}, false, nil, err
	}
	return p.progress(), gaps > 0, st, nil
}

// counterRows reads the counters of keys that exist, outside a pgx
// batch: the rated write's fold on SQLite and the integrity job's step on
// either backend. The keys travel as one value (a JSON array on SQLite,
// a text array on PostgreSQL), so the statement's text is the same for
// any count (an import's batch or a job's step asks for some 25,000 keys;
// a rated write a dozen) and the connection parses it once. It goes
// straight to the connection: the ORM would spread an array into a list.
func (t *tx) counterRows(ctx context.Context, l integrity.Ladder, keys []string) ([]integrityCounterRow, error) {
	conn := t.q(ctx).Statement.ConnPool
	var (
		rs  *sql.Rows
		err error
	)
	if t.dialect == Postgres {
		rs, err = conn.QueryContext(ctx, countersPG, l.QueueID, l.SeasonID, keys)
	} else {
		var list []byte
		if list, err = json.Marshal(keys); err != nil {
			return nil, err
		}
		rs, err = conn.QueryContext(ctx, countersSQLite, string(list), l.QueueID, l.SeasonID)
	}
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	var out []integrityCounterRow
	for rs.Next() {
		var r integrityCounterRow
		if err := rs.Scan(&r.Key, &r.Value); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rs.Err()
}

// unseenSQL counts the rated matches of a ladder after its progress
// among its last $3 (from the end of matches_log, so the read does not
// grow with the log), in the round trip of the rated write (queueLoad):
// beyond the write's own matches, any is one the fold never saw.
const unseenSQL = `SELECT COUNT(*) FROM (SELECT seq FROM matches WHERE queue_id = $1 AND season_id = $2 AND state IN ('confirmed', 'resolved')
 ORDER BY seq DESC LIMIT $3) x WHERE x.seq > (SELECT seq FROM integrity_progress WHERE queue_id = $1 AND season_id = $2)`

// loaded is what IntegrityLoad reads of one ladder, read ahead.
type loaded struct {
	keys []string
	p    integrityProgressRow
	gaps int
	rows []integrityCounterRow
}

// queueLoad queues IntegrityLoad's statements for l after the rated
// writes of l in the same batch: they lock the progress row as
// IntegrityLoad does, and count the ladder's rated matches after the
// progress, which are the writes' own and any the fold never saw.
func queueLoad(b *pgx.Batch, l integrity.Load) {
	b.Queue(pgSQL(progressInsertSQL), l.Ladder.QueueID, l.Ladder.SeasonID, l.GuildID, l.Ladder.SeasonID)
	b.Queue(pgSQL(progressLockSQL+" FOR UPDATE"), l.Ladder.QueueID, l.Ladder.SeasonID)
	b.Queue(unseenSQL, l.Ladder.QueueID, l.Ladder.SeasonID, l.Writes+1)
	b.Queue(countersPG, l.Ladder.QueueID, l.Ladder.SeasonID, l.Keys)
}

// readLoad reads the answers of queueLoad's statements.
func readLoad(br pgx.BatchResults, l integrity.Load) (*loaded, error) {
	ld := &loaded{keys: l.Keys}
	if _, err := br.Exec(); err != nil {
		return nil, err
	}
	if err := br.QueryRow().Scan(&ld.p.Seq, &ld.p.Folded, &ld.p.Live, &ld.p.Clear, &ld.p.Ended); err != nil {
		return nil, err
	}
	var n int
	if err := br.QueryRow().Scan(&n); err != nil {
		return nil, err
	}
	// The write's own matches follow the progress; more is a gap.
	ld.gaps = max(0, n-l.Writes)
	var err error
	_, ld.rows, err = readCounters(br)
	return ld, err
}

// readCounters reads the answer of a counters read (countersPG, or one
// read ahead): the keys it answered for, in its order, and the counters
// that exist (a key without one answers a NULL value, or no row).
func readCounters(br pgx.BatchResults) ([]string, []integrityCounterRow, error) {
	rs, err := br.Query()
	if err != nil {
		return nil, nil, err
	}
	defer rs.Close()
	var (
		keys []string
		rows []integrityCounterRow
	)
	for rs.Next() {
		var (
			key   string
			value *string
		)
		if err := rs.Scan(&key, &value); err != nil {
			return nil, nil, err
		}
		keys = append(keys, key)
		if value != nil {
			rows = append(rows, integrityCounterRow{Key: key, Value: *value})
		}
	}
	return keys, rows, rs.Err()
}

// takeLoaded returns, once, the reads of ladder l sent ahead with the
// rated write, when they were for the same keys; nil otherwise.
func (t *tx) takeLoaded(l integrity.Ladder, keys []string) *loaded {
	if t.pg == nil {
		return nil
	}
	ld := t.pg.loaded[l]
	if ld == nil || !slices.Equal(ld.keys, keys) {
		return nil
	}
	delete(t.pg.loaded, l)
	return ld
}

// IntegritySave implements integrity.FoldStore: its writes are deferred
// (later), so on PostgreSQL they travel with COMMIT.
func (t *tx) IntegritySave(ctx context.Context, guildID string, l integrity.Ladder, st integrity.State, flags []integrity.Flag, p integrity.Progress) error {
	if err := t.saveCounters(ctx, guildID, l, st, flags); err != nil {
		return wrap("integrity save", err, "")
	}
	err := t.later(ctx, `UPDATE integrity_progress SET seq = ?, folded = ? WHERE queue_id = ? AND season_id = ?`, p.Seq, p.Folded, l.QueueID, l.SeasonID)
	return wrap("integrity save", err, "")
}

// saveCounters upserts the counters of st and inserts the new flags.
// On PostgreSQL the counters go as two arrays in one statement whose text
// is the same for any count, so each connection prepares it once: an
// import's batch moves some 15,000 counters, a rated write a dozen.
func (t *tx) saveCounters(ctx context.Context, guildID string, l integrity.Ladder, st integrity.State, flags []integrity.Flag) error {
	keys := make([]string, 0, len(st))
	for k := range st {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	values := make([]string, len(keys))
	for i, k := range keys {
		v, err := integrity.EncodeCounter(st[k])
		if err != nil {
			return err
		}
		values[i] = string(v)
	}
	switch {
	case len(keys) == 0:
	case t.pg != nil:
		if err := t.later(ctx, countersUpsertPG, l.QueueID, l.SeasonID, guildID, keys, values); err != nil {
			return err
		}
	case t.dialect == Postgres:
		// Straight to the connection: the ORM would spread the arrays
		// into lists.
		if _, err := t.q(ctx).Statement.ConnPool.ExecContext(ctx, pgSQL(countersUpsertPG), l.QueueID, l.SeasonID, guildID, keys, values); err != nil {
			return err
		}
	default:
		// Straight to the connection, in statements of importInsertRows
		// rows: all but the last have the same text, parsed once.
		conn := t.q(ctx).Statement.ConnPool
		for start := 0; start < len(keys); start += importInsertRows {
			end := min(start+importInsertRows, len(keys))
			args := make([]any, 0, 5*(end-start))
			for i := start; i < end; i++ {
				args = append(args, l.QueueID, l.SeasonID, guildID, keys[i], values[i])
			}
			if _, err := conn.ExecContext(ctx, countersUpsertSQLite(end-start), args...); err != nil {
				return err
			}
		}
	}
	// The flags go in one statement a chunk. A flag already raised is
	// returned again by later matches still over its threshold (Fold):
	// the row of the first is the one kept.
	for chunk := range slices.Chunk(flags, 200) {
		var b strings.Builder
		args := make([]any, 0, 10*len(chunk))
		b.WriteString(`INSERT INTO integrity_flags (guild_id, queue_id, season_id, kind, subject, matches, evidence, score, seq, raised_at) VALUES `)
		for i, f := range chunk {
			r := flagRow(f)
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
			args = append(args, r.GuildID, r.QueueID, r.SeasonID, r.Kind, r.Subject, r.Matches, r.Evidence, r.Score, r.Seq, r.RaisedAt)
		}
		b.WriteString(` ON CONFLICT (guild_id, queue_id, season_id, kind, subject) DO NOTHING`)
		if err := t.later(ctx, b.String(), args...); err != nil {
			return err
		}
	}
	return nil
}

// IntegrityStale implements integrity.FoldStore, deferred (later).
func (t *tx) IntegrityStale(ctx context.Context, l integrity.Ladder, fromStart bool) error {
	var err error
	if fromStart {
		err = t.later(ctx, `INSERT INTO integrity_progress (queue_id, season_id, guild_id, seq, folded, live, clear, ended)
 SELECT ?, ?, guild_id, 0, 0, false, true, EXISTS (SELECT 1 FROM seasons WHERE id = ? AND ended_at IS NOT NULL) FROM queues WHERE id = ?
 ON CONFLICT (queue_id, season_id) DO UPDATE SET seq = 0, folded = 0, live = false, clear = true`, l.QueueID, l.SeasonID, l.SeasonID, l.QueueID)
	} else {
		err = t.later(ctx, `UPDATE integrity_progress SET live = false WHERE queue_id = ? AND season_id = ?`, l.QueueID, l.SeasonID)
	}
	return wrap("integrity stale", err, "")
}

// loadCounters reads the counters of keys, a zero counter for each that
// has none.
func loadCounters(ctx context.Context, t *tx, l integrity.Ladder, keys []string) (integrity.State, error) {
	rows, err := t.counterRows(ctx, l, keys)
	if err != nil {
		return nil, err
	}
	st := integrity.State{}
	return st, decodeCounters(st, rows, keys)
}

// IntegrityCounters implements integrity.Store.
func (db *DB) IntegrityCounters(ctx context.Context, guildID string, l integrity.Ladder) (integrity.State, error) {
	var rows []integrityCounterRow
	err := db.db.WithContext(ctx).Where("queue_id = ? AND season_id = ? AND guild_id = ?", l.QueueID, l.SeasonID, guildID).Find(&rows).Error
	if err != nil {
		return nil, wrap("integrity counters", err, "ladder not found")
	}
	st := integrity.State{}
	if err := decodeCounters(st, rows, nil); err != nil {
		return nil, err
	}
	return st, nil
}

// IntegrityCounterPage implements integrity.Store: a range of the
// primary key (queue, season, key) after afterKey, in the key's order.
func (db *DB) IntegrityCounterPage(ctx context.Context, guildID string, l integrity.Ladder, afterKey string, limit int) ([]integrity.StoredCounter, error) {
	var rows []integrityCounterRow
	err := db.db.WithContext(ctx).Raw(`SELECT key, value FROM integrity_counters WHERE queue_id = ? AND season_id = ? AND key > ?
 AND guild_id = ? ORDER BY key LIMIT ?`, l.QueueID, l.SeasonID, afterKey, guildID, limit).Scan(&rows).Error
	if err != nil {
		return nil, wrap("integrity counters", err, "ladder not found")
	}
	out := make([]integrity.StoredCounter, len(rows))
	for i, r := range rows {
		out[i] = integrity.StoredCounter{Key: r.Key, Value: []byte(r.Value)}
	}
	return out, nil
}

// IntegrityCounterCount implements integrity.Store: the counters of
// opponents ("o:…") and partners ("p:…") of the ladder.
func (db *DB) IntegrityCounterCount(ctx context.Context, guildID string, l integrity.Ladder) (int, error) {
	var n int64
	err := db.db.WithContext(ctx).Raw(`SELECT count(*) FROM integrity_counters WHERE queue_id = ? AND season_id = ?
 AND (key LIKE 'o:%' OR key LIKE 'p:%') AND guild_id = ?`, l.QueueID, l.SeasonID, guildID).Scan(&n).Error
	return int(n), wrap("integrity counters", err, "ladder not found")
}

// decodeCounters adds the counters of rows to st, then a zero counter for
// each of keys that has none.
func decodeCounters(st integrity.State, rows []integrityCounterRow, keys []string) error {
	for _, r := range rows {
		var c integrity.Counter
		if err := integrity.DecodeCounter([]byte(r.Value), &c); err != nil {
			return fmt.Errorf("storage: integrity counter %s: %w", r.Key, err)
		}
		st[r.Key] = &c
	}
	for _, k := range keys {
		if st[k] == nil {
			st[k] = &integrity.Counter{}
		}
	}
	return nil
}

// IntegritySeasonEnded implements integrity.SeasonStore.
func (t *tx) IntegritySeasonEnded(ctx context.Context, seasonID int64) ([]integrity.EndedLadder, error) {
	var rows []integrityProgressRow
	err := t.q(ctx).Raw(`UPDATE integrity_progress SET ended = true WHERE season_id = ?
 RETURNING queue_id, season_id, guild_id, seq, folded, live, clear, ended`, seasonID).Scan(&rows).Error
	if err != nil {
		return nil, wrap("integrity season end", err, "")
	}
	slices.SortFunc(rows, func(a, b integrityProgressRow) int { return cmp.Compare(a.QueueID, b.QueueID) })
	var out []integrity.EndedLadder
	for _, r := range rows {
		if r.Live {
			out = append(out, integrity.EndedLadder{GuildID: r.GuildID, Ladder: integrity.Ladder{QueueID: r.QueueID, SeasonID: r.SeasonID},
				Progress: r.progress()})
		}
	}
	return out, nil
}

// IntegrityPlayers implements integrity.SeasonStore: the ladder counter
// and the player counters ("u:…"), a range of the primary key.
func (t *tx) IntegrityPlayers(ctx context.Context, l integrity.Ladder) (integrity.State, error) {
	var rows []integrityCounterRow
	err := t.q(ctx).Raw(`SELECT key, value FROM integrity_counters WHERE queue_id = ? AND season_id = ?
 AND (key = 'l' OR (key >= 'u:' AND key < 'u;'))`, l.QueueID, l.SeasonID).Scan(&rows).Error
	if err != nil {
		return nil, wrap("integrity players", err, "")
	}
	st := integrity.State{}
	if err := decodeCounters(st, rows, nil); err != nil {
		return nil, err
	}
	return st, nil
}

// IntegrityProgress implements integrity.Store.
func (db *DB) IntegrityProgress(ctx context.Context, guildID string, l integrity.Ladder) (integrity.Progress, error) {
	var rows []integrityProgressRow
	err := db.db.WithContext(ctx).Where("queue_id = ? AND season_id = ? AND guild_id = ?", l.QueueID, l.SeasonID, guildID).Find(&rows).Error
	if err != nil {
		return integrity.Progress{}, wrap("integrity progress", err, "ladder not found")
	}
	if len(rows) == 0 {
		return integrity.Progress{}, ladder.Errorf(ladder.CodeNotFound, "queue %d season %d has no integrity progress", l.QueueID, l.SeasonID)
	}
	return rows[0].progress(), nil
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
		return integrity.Flag{}, wrap("integrity flag", err, "flag %d not found", id)
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
		var evidence any = f.Evidence // an object, or an older flag's text
		if f.Evidence.Key == "" {
			evidence = f.Evidence.Text
		}
		before, _ := json.Marshal(map[string]any{"kind": r.Kind, "subject": r.Subject, "evidence": evidence})
		a := auditRow{GuildID: guildID, ActorID: by, Action: "integrity.dismiss", Target: strconv.FormatInt(id, 10), Reason: reason,
			ReasonCode: new(string), Before: string(before), After: `{"dismissed":true}`, At: at}
		return g.Create(&a).Error
	})
	if err != nil {
		return integrity.Flag{}, wrap("dismiss flag", err, "flag %d not found", id)
	}
	return f, nil
}
