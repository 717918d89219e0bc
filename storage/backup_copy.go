package storage

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// copyBatch is how many rows one INSERT into SQLite carries: the widest
// table (23 columns) stays far below SQLite's 32,766 parameters.
const copyBatch = 100

// column is one column of a table and how its values travel between the
// backends.
type column struct {
	name string
	kind colKind
}

type colKind int

const (
	kindText colKind = iota
	kindInt
	kindFloat
	kindBool
	kindTime
	kindBytes
)

// sqliteColumns reads a table's columns from the SQLite schema, whose
// declared types say what each value is (the drivers hand back JSON as
// bytes on PostgreSQL and booleans as integers on SQLite otherwise).
func sqliteColumns(ctx context.Context, q *sql.DB, table string) ([]column, error) {
	rows, err := q.QueryContext(ctx, "SELECT name, upper(type) FROM pragma_table_info(?) ORDER BY cid", table)
	if err != nil {
		return nil, fmt.Errorf("storage: columns of %s: %w", table, err)
	}
	defer rows.Close()
	var cols []column
	for rows.Next() {
		var name, typ string
		if err := rows.Scan(&name, &typ); err != nil {
			return nil, fmt.Errorf("storage: columns of %s: %w", table, err)
		}
		k := kindText
		switch {
		case strings.Contains(typ, "BOOL"):
			k = kindBool
		case strings.Contains(typ, "TIMESTAMP"):
			k = kindTime
		case strings.Contains(typ, "INT"):
			k = kindInt
		case strings.Contains(typ, "REAL"):
			k = kindFloat
		case strings.Contains(typ, "BLOB"):
			k = kindBytes
		}
		cols = append(cols, column{name, k})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: columns of %s: %w", table, err)
	}
	if len(cols) == 0 {
		return nil, fmt.Errorf("storage: table %s is missing", table)
	}
	return cols, nil
}

// copyTable copies every row of table from src to dst, batch rows per
// INSERT (with $n placeholders when dst is PostgreSQL), converting each
// value to the type its column declares. Rows go in the order of their
// columns, so copies of equal tables are equal files.
func copyTable(ctx context.Context, src, dst *sql.Tx, table string, cols []column, batch int, pg bool) error {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.name
	}
	list := strings.Join(names, ", ")
	rows, err := src.QueryContext(ctx, "SELECT "+list+" FROM "+table+" ORDER BY "+list)
	if err != nil {
		return fmt.Errorf("storage: copy %s: %w", table, unavailable(err))
	}
	defer rows.Close()
	one := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + ")"
	var (
		args []any
		n    int
	)
	flush := func() error {
		if n == 0 {
			return nil
		}
		q := "INSERT INTO " + table + " (" + list + ") VALUES " + strings.TrimSuffix(strings.Repeat(one+", ", n), ", ")
		if pg {
			q = numbered(q)
		}
		if _, err := dst.ExecContext(ctx, q, args...); err != nil {
			return fmt.Errorf("storage: copy %s: %w", table, unavailable(err))
		}
		args, n = args[:0], 0
		return nil
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return fmt.Errorf("storage: copy %s: %w", table, unavailable(err))
		}
		for i, c := range cols {
			v, err := convert(vals[i], c.kind)
			if err != nil {
				return fmt.Errorf("storage: copy %s.%s: %w", table, c.name, err)
			}
			args = append(args, v)
		}
		if n++; n == batch {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("storage: copy %s: %w", table, unavailable(err))
	}
	return flush()
}

// numbered rewrites ? placeholders as PostgreSQL's $1, $2, …; the copy's
// statements carry no literals that could hold a '?'.
func numbered(q string) string {
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// convert turns a value as either driver scans it into the Go type of
// its column's kind, so it is stored alike on both backends: PostgreSQL's
// jsonb arrives as bytes and goes into a TEXT column as text; SQLite's
// REAL may hold an integer; times are written in UTC, as the ladder
// writes them.
func convert(v any, k colKind) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch k {
	case kindBool:
		switch x := v.(type) {
		case bool:
			return x, nil
		case int64:
			return x != 0, nil
		}
	case kindTime:
		if x, ok := v.(time.Time); ok {
			return x.UTC(), nil
		}
	case kindInt:
		if x, ok := v.(int64); ok {
			return x, nil
		}
	case kindFloat:
		switch x := v.(type) {
		case float64:
			return x, nil
		case int64:
			return float64(x), nil
		}
	case kindBytes:
		if x, ok := v.([]byte); ok {
			return append([]byte{}, x...), nil
		}
	case kindText:
		switch x := v.(type) {
		case string:
			return x, nil
		case []byte:
			return string(x), nil
		}
	}
	return nil, fmt.Errorf("unexpected %T value %v", v, v)
}
