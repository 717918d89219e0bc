package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSQLitePathsWithURICharacters runs migrate, token create, backup and
// restore on SQLite paths holding the characters a SQLite URI reads as
// query, fragment and escape ("?", "#", "%"), and a space: each command
// uses the file its path names, and no other.
func TestSQLitePathsWithURICharacters(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "50%20 off")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	live := filepath.Join(dir, "ladder#2.db")
	backup := filepath.Join(dir, "backup?v=1.db")
	restored := filepath.Join(dir, "restored%41.db")
	run := func(path string, args ...string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := Main(args, []string{"DATABASE_URL=sqlite:" + path, "LOG_LEVEL=error"}, &stdout, &stderr); code != 0 {
			t.Fatalf("ladderbot %s with DATABASE_URL=sqlite:%s = %d, %q, %q; want 0", strings.Join(args, " "), path, code, stdout.String(), stderr.String())
		}
	}
	run(live, "token", "create", "--guild", "123456789012345678", "--name", "one")
	run(live, "backup", "--out", backup)
	run(restored, "restore", "--from", backup)
	var stdout, stderr bytes.Buffer
	Main([]string{"token", "list", "--guild", "123456789012345678"}, []string{"DATABASE_URL=sqlite:" + restored}, &stdout, &stderr)
	if !strings.Contains(stdout.String(), "one") {
		t.Errorf("Got(token list of the restored database) = %q, %q; want the token \"one\"", stdout.String(), stderr.String())
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	for _, want := range []string{"ladder#2.db", "backup?v=1.db", "restored%41.db"} {
		found := false
		for _, n := range names {
			found = found || n == want
		}
		if !found {
			t.Errorf("Got(files) = %q, want %q among them", names, want)
		}
	}
	for _, n := range names {
		if n == "ladder" || n == "restoredA.db" {
			t.Errorf("Got(files) = %q: %q is not a file any command was given", names, n)
		}
	}
}
