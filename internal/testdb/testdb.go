// Package testdb gives tests fresh, empty, real databases: an SQLite file
// always, and a PostgreSQL schema of TEST_DATABASE_URL when it is set. Every
// package's suite runs on both through ForEach (STYLE.md: one suite, two
// real databases, no mocks). It also counts the tests skipped for want of
// PostgreSQL, Chromium or the dev data, so each package's TestMain (Main)
// can say what did not run and how to run it, and digests a database
// (Snapshot) for tests that show a refused action changed nothing. Only
// tests import it.
package testdb

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
)

// The backend names, which tests use in their subtest names
// (TestStore/sqlite/..., TestStore/postgres/...).
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// Backends lists every backend; DSN skips PostgreSQL when it is not
// configured. Tests iterate them with ForEach.
func Backends() []string { return []string{SQLite, Postgres} }

// DSN returns the DATABASE_URL of a fresh, empty database of backend, removed
// when t ends. PostgreSQL gets a new schema of TEST_DATABASE_URL named in the
// DSN's search_path, so several processes of one test share it and no two
// tests ever meet.
func DSN(t testing.TB, backend string) string {
	t.Helper()
	switch backend {
	case SQLite:
		return "sqlite:" + filepath.Join(t.TempDir(), "ladder.db")
	case Postgres:
		return freshSchema(t, PostgresURL(t))
	default:
		t.Fatalf("testdb: unknown backend %q", backend)
		return ""
	}
}

// PostgresURL returns TEST_DATABASE_URL after checking that its database name
// contains "test". Without it the test is skipped with the reason, except
// under CI (CI=true), where the PostgreSQL suite must never be skipped.
func PostgresURL(t testing.TB) string {
	t.Helper()
	base := os.Getenv("TEST_DATABASE_URL")
	if base == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("TEST_DATABASE_URL is not set under CI; the PostgreSQL suite must run (see .ci/run)")
		}
		Skip(t, NoPostgres)
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("TEST_DATABASE_URL: %v", err)
	}
	if !strings.Contains(strings.ToLower(strings.TrimPrefix(u.Path, "/")), "test") {
		t.Fatalf("TEST_DATABASE_URL names database %q, whose name lacks \"test\"; refusing to use it", u.Path)
	}
	return base
}

// WithSchema returns base with its search_path set to schema.
func WithSchema(base, schema string) string {
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// Exec runs statements on the TEST_DATABASE_URL database itself, outside any
// test schema (creating and dropping schemas, benchmark fixtures).
func Exec(base string, statements ...string) error {
	db, err := sql.Open("pgx", base)
	if err != nil {
		return fmt.Errorf("testdb: connect: %w", err)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, s := range statements {
		if _, err := db.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("testdb: %s: %w", s, err)
		}
	}
	return nil
}

func freshSchema(t testing.TB, base string) string {
	t.Helper()
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		t.Fatalf("testdb: schema name: %v", err)
	}
	schema := "t_" + hex.EncodeToString(b)
	if err := Exec(base, "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("%v", err)
	}
	t.Cleanup(func() {
		if err := Exec(base, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("%v", err)
		}
	})
	return WithSchema(base, schema)
}
