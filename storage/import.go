package storage

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/ladderbot/ladderbot/ladder"
)

// An import writes a batch of rated matches at once (ladder.ImportStore):
// the rows one SaveRated would write per match, for hundreds of matches,
// through the transaction's own connection. On PostgreSQL the rows go
// through COPY, on SQLite through multi-row INSERTs; either way a batch is
// a handful of statements instead of a few per match.

// importReservePG takes n match IDs and n positions of the rating log, in
// that order of rows. It runs after the batch's rating rows are locked, as
// NextSeq does for one match, so that the order of seqs is the order of
// updates.
const importReservePG = `SELECT nextval(pg_get_serial_sequence('matches', 'id')), nextval('rating_seq') FROM generate_series(1, ?)`

// importReserveSQLite takes n positions of the rating log (NextSeq for n
// matches) and returns the last one; the first is last-n+1.
const importReserveSQLite = `UPDATE rating_seq SET value = value + ? WHERE id = 1 RETURNING value`

// importMaxIDSQLite is the highest match ID; an immediate transaction holds
// the database's write lock, so the IDs above it are this batch's to take.
const importMaxIDSQLite = `SELECT coalesce(max(id), 0) FROM matches`

// The columns an import writes, in the order of the values of importRows.
var (
	importMatchColumns  = strings.Split(strings.ReplaceAll(matchColumns, "\n", ""), ", ")
	importPlayerColumns = []string{"match_id", "guild_id", "user_id", "team", "seat", "active"}
	importChangeColumns = []string{"seq", "queue_id", "season_id", "match_id", "user_id", "team", "kind",
		"before_rating", "before_dev", "before_games", "before_last_at", "before_recent",
		"after_rating", "after_dev", "after_games", "after_last_at", "after_recent",
		"wins", "losses", "draws", "streak", "best_streak", "at"}
	importKeyColumns = []string{"guild_id", "key", "match_id", "created_at"}
)

// importTable is the rows of one table that an import batch writes.
type importTable struct {
	name    string
	columns []string
	rows    [][]any
}

// UsedKeys implements ladder.ImportStore.
func (t *tx) UsedKeys(ctx context.Context, guildID string, keys []string) (map[string]bool, error) {
	used := make(map[string]bool)
	// A batch's keys in one statement, well below both databases' limits
	// of bound parameters.
	const chunk = 5000
	for start := 0; start < len(keys); start += chunk {
		var got []string
		err := t.q(ctx).Model(&idempotencyRow{}).Where("guild_id = ? AND key IN ?", guildID, keys[start:min(start+chunk, len(keys))]).
			Pluck("key", &got).Error
		if err != nil {
			return nil, wrap("used keys", err, "")
		}
		for _, k := range got {
			used[k] = true
		}
	}
	return used, nil
}

// SaveImported implements ladder.ImportStore.
func (t *tx) SaveImported(ctx context.Context, ws []ladder.RatedWrite) error {
	if len(ws) == 0 {
		return nil
	}
	for _, w := range ws {
		if w.Match.ID != 0 || w.Event != "" {
			return fmt.Errorf("storage: save imported: match %d with event %q: only new matches without events are written in bulk", w.Match.ID, w.Event)
		}
	}
	ids, seqs, err := t.reserveImport(ctx, len(ws))
	if err != nil {
		return wrap("save imported", err, "")
	}
	tables := importRows(ws, ids, seqs, t.dialect == Postgres)
	if t.dialect == Postgres {
		err = t.copyImport(ctx, tables)
	} else {
		err = t.insertImport(ctx, tables)
	}
	if err != nil {
		return wrap("save imported", err, "an imported match is there already")
	}
	saved := make([]ladder.Match, len(ws))
	for i, w := range ws {
		if w.Calibrator != nil {
			c := *w.Calibrator
			c.Seq = seqs[i]
			if err := t.SaveCalibrator(ctx, c); err != nil {
				return err
			}
		}
		saved[i] = w.Match
		saved[i].ID, saved[i].Seq = ids[i], seqs[i]
	}
	return t.rated(ctx, ws, saved)
}

// reserveImport returns n new match IDs and n new positions of the rating
// log, both ascending.
func (t *tx) reserveImport(ctx context.Context, n int) (ids, seqs []int64, err error) {
	ids, seqs = make([]int64, 0, n), make([]int64, 0, n)
	if t.dialect == Postgres {
		rows, err := t.q(ctx).Raw(importReservePG, n).Rows()
		if err != nil {
			return nil, nil, err
		}
		defer rows.Close()
		for rows.Next() {
			var id, seq int64
			if err := rows.Scan(&id, &seq); err != nil {
				return nil, nil, err
			}
			ids, seqs = append(ids, id), append(seqs, seq)
		}
		if err := rows.Err(); err != nil {
			return nil, nil, err
		}
		// Another session may take values between these; each list stays
		// ascending once sorted, and the matches take them in order.
		slices.Sort(ids)
		slices.Sort(seqs)
		return ids, seqs, nil
	}
	var last, maxID int64
	if err := t.q(ctx).Raw(importReserveSQLite, n).Scan(&last).Error; err != nil {
		return nil, nil, err
	}
	if err := t.q(ctx).Raw(importMaxIDSQLite).Scan(&maxID).Error; err != nil {
		return nil, nil, err
	}
	for i := range int64(n) {
		ids, seqs = append(ids, maxID+1+i), append(seqs, last-int64(n)+1+i)
	}
	return ids, seqs, nil
}

// importRows lays out the rows of ws, the i-th match taking ids[i] and
// seqs[i], as SaveRated writes them: the log rows of a match in user order
// on PostgreSQL (saveRatedPG), in the order of its changes on SQLite
// (InsertChanges).
func importRows(ws []ladder.RatedWrite, ids, seqs []int64, byUser bool) []importTable {
	ms := importTable{name: "matches", columns: importMatchColumns}
	ps := importTable{name: "match_players", columns: importPlayerColumns}
	cs := importTable{name: "rating_changes", columns: importChangeColumns}
	ks := importTable{name: "idempotency_keys", columns: importKeyColumns}
	for i, w := range ws {
		m := w.Match
		m.ID, m.Seq = ids[i], seqs[i]
		r := toMatchRow(m)
		ms.rows = append(ms.rows, []any{r.ID, r.GuildID, r.QueueID, r.SeasonID, r.Team1, r.Team2, r.State, r.Winner, r.Seq,
			r.PTeam1, r.PRaw, r.Quality, r.CreatedAt, r.PlayedAt, r.ReportedBy, r.ReportedWinner, r.Deadline, r.DisputedBy,
			r.DisputeReason, r.DisputeReasonCode, r.Evidence, r.RatedAt, r.ResolvedBy, r.Source, r.ChannelID, r.Map, r.Score})
		for team, us := range m.Teams {
			for seat, u := range us {
				ps.rows = append(ps.rows, []any{m.ID, m.GuildID, u, team + 1, seat, m.State.Active()})
			}
		}
		changes := slices.Clone(w.Changes)
		if byUser {
			slices.SortFunc(changes, func(a, b ladder.RatingChange) int { return strings.Compare(a.UserID, b.UserID) })
		}
		for _, c := range changes {
			c.MatchID, c.Seq = m.ID, m.Seq
			cr := toChangeRow(c)
			cs.rows = append(cs.rows, []any{cr.Seq, cr.QueueID, cr.SeasonID, m.ID, cr.UserID, cr.Team, cr.Kind,
				cr.BeforeRating, cr.BeforeDev, cr.BeforeGames, cr.BeforeLastAt, cr.BeforeRecent,
				cr.AfterRating, cr.AfterDev, cr.AfterGames, cr.AfterLastAt, cr.AfterRecent,
				cr.Wins, cr.Losses, cr.Draws, cr.Streak, cr.BestStreak, cr.At})
		}
		if w.IdempotencyKey != "" {
			ks.rows = append(ks.rows, []any{m.GuildID, w.IdempotencyKey, m.ID, w.At.UTC()})
		}
	}
	// Parents first: the players, log rows and keys refer to the matches.
	return []importTable{ms, ps, cs, ks}
}

// copyImport writes the tables with COPY on the transaction's connection,
// after BEGIN: pgx's CopyFrom on the connection gorm runs the transaction
// on, never a second one.
func (t *tx) copyImport(ctx context.Context, tables []importTable) error {
	if t.pg == nil {
		return errors.New("a bulk write needs a transaction")
	}
	if err := t.pg.begin(ctx); err != nil {
		return err
	}
	return t.pg.conn.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return errors.New("storage: PostgreSQL connection is not pgx")
		}
		for _, tb := range tables {
			if len(tb.rows) == 0 {
				continue
			}
			if _, err := sc.Conn().CopyFrom(ctx, pgx.Identifier{tb.name}, tb.columns, pgx.CopyFromRows(tb.rows)); err != nil {
				return translate(fmt.Errorf("copy %s: %w", tb.name, err))
			}
		}
		return nil
	})
}

// sqliteMaxArgs bounds the arguments of one SQLite statement, below
// SQLite's limit of 32,766 host parameters.
const sqliteMaxArgs = 30000

// importInsertRows is how many rows one INSERT of an import carries: all
// statements but a table's last have the same text, so the connection's
// statement cache parses each once.
const importInsertRows = 500

// insertImport writes the tables with multi-row INSERTs of
// importInsertRows rows (fewer when a row has many columns) in the
// transaction.
func (t *tx) insertImport(ctx context.Context, tables []importTable) error {
	conn := t.q(ctx).Statement.ConnPool
	for _, tb := range tables {
		per := min(importInsertRows, sqliteMaxArgs/len(tb.columns))
		for start := 0; start < len(tb.rows); start += per {
			chunk := tb.rows[start:min(start+per, len(tb.rows))]
			args := make([]any, 0, len(chunk)*len(tb.columns))
			for _, r := range chunk {
				args = append(args, r...)
			}
			if _, err := conn.ExecContext(ctx, insertRowsSQL(tb.name, tb.columns, len(chunk)), args...); err != nil {
				return fmt.Errorf("insert %s: %w", tb.name, err)
			}
		}
	}
	return nil
}

// insertRowsSQL is `INSERT INTO name (columns) VALUES (?, …), …` for n rows.
func insertRowsSQL(name string, columns []string, n int) string {
	row := "(" + strings.Repeat("?, ", len(columns)-1) + "?)"
	var b strings.Builder
	b.WriteString("INSERT INTO " + name + " (" + strings.Join(columns, ", ") + ") VALUES ")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(row)
	}
	return b.String()
}
