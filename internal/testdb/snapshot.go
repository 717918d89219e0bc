package testdb

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
)

// Snapshot is a digest of every table of a ladderbot database: its row
// count and a hash of its rows. Hostile-input tests take one before and
// after a refused action to show that nothing changed.
type Snapshot map[string]string

// TakeSnapshot digests every table of db (dialect "postgres" or "sqlite",
// as storage.DB.Dialect reports) except goose's version table, job_runs,
// the scheduler's bookkeeping, which changes on its own every minute, and
// rate_buckets, the API's rate accounting, which every authenticated
// request charges, refused or not; on PostgreSQL, the tables of the
// current schema.
func TakeSnapshot(ctx context.Context, db *sql.DB, dialect string) (Snapshot, error) {
	q := "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
	if dialect == "postgres" {
		q = "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
	}
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("testdb: snapshot: list tables: %w", err)
	}
	var tables []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			rows.Close()
			return nil, fmt.Errorf("testdb: snapshot: %w", err)
		}
		if t != "goose_db_version" && t != "job_runs" && t != "rate_buckets" {
			tables = append(tables, t)
		}
	}
	rows.Close()
	slices.Sort(tables)
	s := Snapshot{}
	for _, t := range tables {
		d, err := digestTable(ctx, db, t)
		if err != nil {
			return nil, err
		}
		s[t] = d
	}
	return s, nil
}

func digestTable(ctx context.Context, db *sql.DB, table string) (string, error) {
	rows, err := db.QueryContext(ctx, "SELECT * FROM "+table)
	if err != nil {
		return "", fmt.Errorf("testdb: snapshot %s: %w", table, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return "", fmt.Errorf("testdb: snapshot %s: %w", table, err)
	}
	var lines []string
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return "", fmt.Errorf("testdb: snapshot %s: %w", table, err)
		}
		var b strings.Builder
		for i, v := range vals {
			if bs, ok := v.([]byte); ok {
				v = string(bs)
			}
			fmt.Fprintf(&b, "%s=%v;", cols[i], v)
		}
		lines = append(lines, b.String())
	}
	if err := rows.Err(); err != nil {
		return "", fmt.Errorf("testdb: snapshot %s: %w", table, err)
	}
	slices.Sort(lines) // row order is not part of the state
	h := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return fmt.Sprintf("%d rows %s", len(lines), hex.EncodeToString(h[:8])), nil
}

// Diff lists the tables whose digest differs between s and after.
func (s Snapshot) Diff(after Snapshot) []string {
	var out []string
	for t, d := range s {
		if after[t] != d {
			out = append(out, fmt.Sprintf("%s: %s → %s", t, d, after[t]))
		}
	}
	for t, d := range after {
		if _, ok := s[t]; !ok {
			out = append(out, fmt.Sprintf("%s: new table → %s", t, d))
		}
	}
	slices.Sort(out)
	return out
}
