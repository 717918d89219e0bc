package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/ladderbot/ladderbot/ladder"
)

// refuseLiveTarget fails when path is the live SQLite database this
// process has open, or one of the files SQLite keeps beside it (its
// write-ahead log, shared-memory index, rollback journal). Replacing any
// of them under an open database corrupts it: the next reader finds a
// "database disk image is malformed". Paths are compared after resolving
// symbolic links, and files by device and inode, so a symlink or a hard
// link to the live file is refused too.
func (db *DB) refuseLiveTarget(ctx context.Context, path string) error {
	if db.dialect != SQLite {
		return nil
	}
	var seq int
	var name, live string
	if err := db.sql.QueryRowContext(ctx, "SELECT seq, name, file FROM pragma_database_list WHERE name = 'main'").Scan(&seq, &name, &live); err != nil {
		return fmt.Errorf("storage: backup: which file is live: %w", err)
	}
	if live == "" {
		return nil // an in-memory database has no file to overwrite
	}
	target := resolvePath(path)
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		f := live + suffix
		if resolvePath(f) == target || sameFile(f, path) {
			what := "the live database"
			if suffix != "" {
				what = "a file of the live database (" + suffix[1:] + ")"
			}
			return ladder.Errorf(ladder.CodeInvalid, "--out %s is %s %s; writing the backup there would corrupt it: choose another file", path, what, live)
		}
	}
	return nil
}

// resolvePath returns path made absolute with every symbolic link of it
// resolved; for a file that does not exist yet, its folder's links.
func resolvePath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(dir, filepath.Base(abs))
	}
	return abs
}

// sameFile reports whether a and b both exist and are one file (the same
// device and inode), as hard links are.
func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	if err != nil {
		return false
	}
	return os.SameFile(fa, fb)
}

// checkSnapshot runs SQLite's integrity check on the snapshot at path
// before it is renamed into place, so a backup that reports success is a
// readable database.
func checkSnapshot(ctx context.Context, q *sql.DB) error {
	rows, err := q.QueryContext(ctx, "PRAGMA integrity_check")
	if err != nil {
		return fmt.Errorf("storage: backup: integrity check: %w", err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return fmt.Errorf("storage: backup: integrity check: %w", err)
		}
		if s != "ok" {
			problems = append(problems, s)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("storage: backup: integrity check: %w", err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("storage: backup: the snapshot failed SQLite's integrity check: %s", strings.Join(problems, "; "))
	}
	return nil
}

// errBadBackup marks a backup refused by checkBackup.
var errBadBackup = errors.New("the backup holds rows the ladder could never have written")

// checkBackup refuses a backup that the live paths could never have
// written, before a row of it reaches the target: every text value is
// valid UTF-8 without NUL (PostgreSQL cannot store one), IDs and player
// names pass the rules live input passes (ladder.CheckID, ladder.CheckText),
// every rated match has the match_players rows of its teams, and the
// ladder's own verify finds the stored ratings equal to a replay of the
// log. The message names the table, the row and the reason.
func checkBackup(ctx context.Context, src *DB) error {
	for _, table := range backupTables {
		if err := checkTableText(ctx, src.sql, table); err != nil {
			return err
		}
	}
	if err := checkMatchPlayers(ctx, src.sql); err != nil {
		return err
	}
	rep, err := ladder.NewService(src, nil).Verify(ctx, "")
	if err != nil {
		return fmt.Errorf("storage: restore: refused: %w: %w", errBadBackup, err)
	}
	if len(rep.Diffs) > 0 {
		d := rep.Diffs[0]
		row := fmt.Sprintf("guild %s, queue %d, season %d", d.GuildID, d.QueueID, d.SeasonID)
		if d.UserID != "" {
			row += ", player " + d.UserID
		}
		more := ""
		if len(rep.Diffs) > 1 {
			more = fmt.Sprintf(" (and %d more differences)", len(rep.Diffs)-1)
		}
		return fmt.Errorf("storage: restore: refused: %w: table ratings, row %s: %s, as verify finds it%s", errBadBackup, row, d.Problem, more)
	}
	return nil
}

// idColumns are text columns that hold Discord or ladder identifiers and
// pass ladder.CheckID wherever they come in live; empty means "none" in
// some of them (a match not yet reported), which is allowed.
var idColumns = []string{"guild_id", "user_id"}

// checkTableText reads every text column of table and applies the rules
// above; the first bad value is reported with its row's rowid.
func checkTableText(ctx context.Context, q *sql.DB, table string) error {
	cols, err := sqliteColumns(ctx, q, table)
	if err != nil {
		return err
	}
	var text []string
	for _, c := range cols {
		if c.kind == kindText {
			text = append(text, c.name)
		}
	}
	if len(text) == 0 {
		return nil
	}
	// CAST AS BLOB hands the bytes over as stored, so invalid UTF-8 and
	// NULs are seen rather than cut or replaced by the driver.
	sel := make([]string, len(text))
	for i, c := range text {
		sel[i] = "CAST(" + c + " AS BLOB)"
	}
	rows, err := q.QueryContext(ctx, "SELECT rowid, "+strings.Join(sel, ", ")+" FROM "+table)
	if err != nil {
		// WITHOUT ROWID tables have no rowid; read them by position.
		rows, err = q.QueryContext(ctx, "SELECT 0, "+strings.Join(sel, ", ")+" FROM "+table)
		if err != nil {
			return fmt.Errorf("storage: restore: read %s: %w", table, err)
		}
	}
	defer rows.Close()
	vals := make([][]byte, len(text))
	dest := make([]any, len(text)+1)
	var rowid int64
	dest[0] = &rowid
	for i := range vals {
		dest[i+1] = &vals[i]
	}
	n := 0
	for rows.Next() {
		n++
		if err := rows.Scan(dest...); err != nil {
			return fmt.Errorf("storage: restore: read %s: %w", table, err)
		}
		for i, v := range vals {
			if v == nil {
				continue
			}
			if err := checkValue(table, text[i], string(v)); err != nil {
				id := rowid
				if id == 0 {
					id = int64(n)
				}
				return fmt.Errorf("storage: restore: refused: %w: table %s, row %d, column %s: %v", errBadBackup, table, id, text[i], err)
			}
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("storage: restore: read %s: %w", table, err)
	}
	return nil
}

// checkValue is the rule of one text value of a backup.
func checkValue(table, column, v string) error {
	switch {
	case slices.Contains(idColumns, column) && v != "":
		return ladder.CheckID(column, v)
	case table == "players" && column == "name":
		return ladder.CheckText("player name", v)
	}
	if !utf8.ValidString(v) {
		return fmt.Errorf("not valid UTF-8")
	}
	if i := strings.IndexByte(v, 0); i >= 0 {
		return fmt.Errorf("contains NUL at offset %d", i)
	}
	return nil
}

// checkMatchPlayers refuses a rated (confirmed or resolved) match whose
// match_players rows are not exactly the players of its two teams: the
// live paths write both in one transaction, and the ladder's reads of a
// player's matches go through match_players.
func checkMatchPlayers(ctx context.Context, q *sql.DB) error {
	rows, err := q.QueryContext(ctx, `SELECT m.id, m.team1, m.team2,
		coalesce((SELECT group_concat(mp.team || ':' || mp.user_id, ',') FROM match_players mp WHERE mp.match_id = m.id), '')
		FROM matches m WHERE m.state IN ('confirmed', 'resolved') ORDER BY m.id`)
	if err != nil {
		return fmt.Errorf("storage: restore: read matches: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var t1, t2, mp string
		if err := rows.Scan(&id, &t1, &t2, &mp); err != nil {
			return fmt.Errorf("storage: restore: read matches: %w", err)
		}
		var want []string
		for i, team := range []string{t1, t2} {
			for _, u := range splitTeam(team) {
				want = append(want, fmt.Sprintf("%d:%s", i+1, u))
			}
		}
		got := splitTeam(mp)
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(want, got) {
			return fmt.Errorf("storage: restore: refused: %w: table match_players, match %d: the rated match's players are %d rows (%s), its teams name %d (%s)",
				errBadBackup, id, len(got), strings.Join(got, " "), len(want), strings.Join(want, " "))
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("storage: restore: read matches: %w", err)
	}
	return nil
}
