package testdb

import (
	"bytes"
	"testing"
)

func TestTallyReport(t *testing.T) {
	chromium := Reason{Why: "without Chromium", Enable: "install it"}
	var c tally
	var buf bytes.Buffer
	c.report(&buf, "web")
	if buf.Len() != 0 {
		t.Errorf("Got(report of no skips) = %q, want nothing", buf.String())
	}
	c.add(NoPostgres)
	c.add(chromium)
	c.add(NoPostgres)
	c.report(&buf, "web")
	want := "web: 1 test skipped without Chromium; install it\n" +
		`web: 2 tests skipped without TEST_DATABASE_URL; set it to a PostgreSQL database whose name contains "test" to run them` + "\n"
	if buf.String() != want {
		t.Errorf("Got(report) = %q, want %q", buf.String(), want)
	}
}

// TestForEachNames checks the subtests are named by backend, in order, and
// that PostgreSQL reaches fn only when it is configured.
func TestForEachNames(t *testing.T) {
	var got []string
	ForEach(t, func(t *testing.T, backend string) {
		got = append(got, t.Name())
		if backend == Postgres && PostgresURL(t) == "" {
			t.Errorf("Got(PostgresURL in fn) empty, want the configured URL")
		}
	})
	if len(got) == 0 || got[0] != "TestForEachNames/sqlite" {
		t.Errorf("Got(subtests) = %v, want TestForEachNames/sqlite first", got)
	}
	if len(got) == 2 && got[1] != "TestForEachNames/postgres" {
		t.Errorf("Got(second subtest) = %q, want TestForEachNames/postgres", got[1])
	}
}
