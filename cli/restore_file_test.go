package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRestoreBadFileCreatesNothing restores from files that are no backup
// (missing, a folder, empty, not SQLite, a truncated backup) into a SQLite
// path that does not exist yet: each exits 1 with "ladderbot restore:"
// naming the file, and the target database is not created.
func TestRestoreBadFileCreatesNothing(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.db")
	src := "DATABASE_URL=sqlite:" + filepath.Join(dir, "ladder.db")
	run := func(env string, args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := Main(args, []string{env, "LOG_LEVEL=error"}, &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	if code, _, stderr := run(src, "token", "create", "--guild", "123456789012345678"); code != 0 {
		t.Fatalf("token create = %d, %q", code, stderr)
	}
	if code, _, stderr := run(src, "backup", "--out", good); code != 0 {
		t.Fatalf("backup = %d, %q", code, stderr)
	}
	whole, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"empty.db":     {},
		"text.db":      []byte("date,team1_p1,team2_p1,winner\n"),
		"truncated.db": whole[:len(whole)/3],
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "folder.db"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"missing.db", "folder.db", "empty.db", "text.db", "truncated.db"} {
		target := filepath.Join(dir, "new-"+name)
		from := filepath.Join(dir, name)
		code, stdout, stderr := run("DATABASE_URL=sqlite:"+target, "restore", "--from", from)
		if code != 1 || !strings.HasPrefix(stderr, "ladderbot restore: ") || !strings.Contains(stderr, from) {
			t.Errorf("ladderbot restore --from %s = %d, %q, %q; want 1 and \"ladderbot restore: …%s…\"", name, code, stdout, stderr, from)
		}
		if _, err := os.Stat(target); err == nil {
			t.Errorf("ladderbot restore --from %s created the target %s", name, target)
		}
	}
	target := filepath.Join(dir, "new.db")
	if code, stdout, stderr := run("DATABASE_URL=sqlite:"+target, "restore", "--from", good); code != 0 || !strings.Contains(stdout, "restored") {
		t.Errorf("ladderbot restore --from a good backup = %d, %q, %q; want 0", code, stdout, stderr)
	}
}
