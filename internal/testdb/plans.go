package testdb

import (
	"context"
	"database/sql"
	"sync"
	"testing"

	"gorm.io/gorm"
)

// Statement is a statement the ORM sent: its text with placeholders and
// its bound arguments.
type Statement struct {
	SQL  string
	Vars []any
}

// CaptureStatements records every statement the ORM runs on g from now
// on (its query, row, raw, update and delete callbacks), as sent, so that
// a test can ask the database for the plan of the very statement a method
// sends. The returned function lists them so far.
func CaptureStatements(t testing.TB, g *gorm.DB) func() []Statement {
	t.Helper()
	var (
		mu   sync.Mutex
		sent []Statement
	)
	rec := func(d *gorm.DB) {
		mu.Lock()
		defer mu.Unlock()
		sent = append(sent, Statement{d.Statement.SQL.String(), append([]any(nil), d.Statement.Vars...)})
	}
	cb := g.Callback()
	for _, err := range []error{
		cb.Query().After("gorm:query").Register("testdb:capture", rec),
		cb.Row().After("gorm:row").Register("testdb:capture", rec),
		cb.Raw().After("gorm:raw").Register("testdb:capture", rec),
		cb.Update().After("gorm:update").Register("testdb:capture", rec),
		cb.Delete().After("gorm:delete").Register("testdb:capture", rec),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return func() []Statement {
		mu.Lock()
		defer mu.Unlock()
		return append([]Statement(nil), sent...)
	}
}

// SQLitePlan returns the details of SQLite's EXPLAIN QUERY PLAN of query
// with args, one line each.
func SQLitePlan(t testing.TB, db *sql.DB, query string, args ...any) []string {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		t.Fatalf("EXPLAIN QUERY PLAN %s = %v", query, err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return plan
}
