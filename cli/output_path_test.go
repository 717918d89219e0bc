package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutPathRefusedFirst gives backup and export an --out that is a
// folder, or a file in a folder that does not exist: each exits 1 with
// "ladderbot CMD: --out PATH" saying which, and writes nothing.
func TestOutPathRefusedFirst(t *testing.T) {
	dir := t.TempDir()
	env := []string{"DATABASE_URL=sqlite:" + filepath.Join(dir, "ladder.db"), "LOG_LEVEL=error"}
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"token", "create", "--guild", "123456789012345678"}, env, &stdout, &stderr); code != 0 {
		t.Fatalf("token create = %d, %q", code, stderr.String())
	}
	folder := filepath.Join(dir, "backups")
	if err := os.Mkdir(folder, 0o700); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "nowhere", "out")
	for _, c := range []struct {
		out, want string
	}{
		{folder, "is a folder"},
		{missing, "folder " + filepath.Dir(missing) + " does not exist"},
	} {
		for _, args := range [][]string{
			{"backup", "--out", c.out},
			{"export", "--guild", "123456789012345678", "--out", c.out},
		} {
			stdout.Reset()
			stderr.Reset()
			code := Main(args, env, &stdout, &stderr)
			prefix := "ladderbot " + args[0] + ": --out " + c.out
			if code != 1 || !strings.HasPrefix(stderr.String(), prefix) || !strings.Contains(stderr.String(), c.want) {
				t.Errorf("ladderbot %s = %d, %q; want 1 and %q … %q", strings.Join(args, " "), code, stderr.String(), prefix, c.want)
			}
		}
	}
	if entries, _ := os.ReadDir(folder); len(entries) > 0 {
		t.Errorf("Got(files in %s) = %d, want none", folder, len(entries))
	}
}
