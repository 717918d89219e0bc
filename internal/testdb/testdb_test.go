package testdb

import (
	"database/sql"
	"strings"
	"testing"
)

func TestWithSchema(t *testing.T) {
	got := WithSchema("postgres://u@h:5432/test?sslmode=disable", "t_1")
	if !strings.Contains(got, "search_path=t_1") || !strings.Contains(got, "sslmode=disable") {
		t.Errorf("WithSchema() = %q, want both search_path=t_1 and sslmode=disable", got)
	}
}

func TestPostgresSchemaIsFreshAndDropped(t *testing.T) {
	var dsn string
	t.Run("use", func(t *testing.T) {
		dsn = DSN(t, Postgres)
		db, err := sql.Open("pgx", dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.Exec("CREATE TABLE probe (id int)"); err != nil {
			t.Fatalf("CREATE TABLE in fresh schema = %v, want nil", err)
		}
	})
	if dsn == "" {
		t.Skip("PostgreSQL not configured")
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	schema := dsn[strings.Index(dsn, "search_path=")+len("search_path="):]
	if err := db.QueryRow("SELECT count(*) FROM information_schema.schemata WHERE schema_name = $1", schema).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("schema %s after the test: %d rows, want 0 (dropped)", schema, n)
	}
}
