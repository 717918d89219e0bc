package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestBackupRestoreCommands moves an imported SQLite ladder through
// `ladderbot backup` and `ladderbot restore` into an empty database of
// each backend: restore reports the rows and a clean verify, a second
// restore into the same database is refused, and missing flags are usage
// errors.
func TestBackupRestoreCommands(t *testing.T) {
	dir := t.TempDir()
	src := "DATABASE_URL=sqlite:" + filepath.Join(dir, "ladder.db")
	in := "date,team1_p1,team1_p2,team2_p1,team2_p2,winner\n" +
		"2024-01-01,a,b,c,d,1\n2024-01-02,a,c,b,d,2\n2024-01-03,a,d,b,c,0\n2024-01-04,b,c,a,d,1\n"
	data := filepath.Join(dir, "in.csv")
	if err := os.WriteFile(data, []byte(in), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(env string, args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := Main(args, []string{env, "LOG_LEVEL=error"}, &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	if code, out, errOut := run(src, "import", "--guild", "123456789012345678", "--data", data); code != 0 {
		t.Fatalf("ladderbot import = %d, %q, %q", code, out, errOut)
	}
	// The live database itself, or a link to it, is never a target: the
	// rename would put a new file under the open database and corrupt it.
	live := filepath.Join(dir, "ladder.db")
	link := filepath.Join(dir, "link.db")
	if err := os.Symlink(live, link); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{live, link} {
		code, out, errOut := run(src, "backup", "--out", target)
		if code != 1 || !strings.HasPrefix(errOut, "ladderbot backup: ") || !strings.Contains(errOut, "live database") {
			t.Errorf("ladderbot backup --out %s = %d, %q, %q; want 1 and \"ladderbot backup: … live database\"", target, code, out, errOut)
		}
		if code, out, errOut := run(src, "verify"); code != 0 || !strings.Contains(out, "4 matches") {
			t.Fatalf("ladderbot verify after backup --out %s = %d, %q, %q; want 0 and the 4 matches", target, code, out, errOut)
		}
	}
	file := filepath.Join(dir, "backup.db")
	code, out, errOut := run(src, "backup", "--out", file)
	if code != 0 || !strings.Contains(out, "backed up") || !strings.Contains(out, file) {
		t.Fatalf("ladderbot backup = %d, %q, %q; want 0 and \"backed up … %s\"", code, out, errOut, file)
	}
	for _, backend := range testdb.Backends() {
		t.Run(backend, func(t *testing.T) {
			dst := "DATABASE_URL=" + testdb.DSN(t, backend)
			code, out, errOut := run(dst, "restore", "--from", file)
			if code != 0 || !strings.Contains(out, "restored") || !strings.Contains(out, "4 matches, 4 players: 0 differences") {
				t.Fatalf("ladderbot restore = %d, %q, %q; want 0, restored rows and a clean verify", code, out, errOut)
			}
			code, out, errOut = run(dst, "restore", "--from", file)
			if code != 1 || !strings.HasPrefix(errOut, "ladderbot restore: ") || !strings.Contains(errOut, "not empty") {
				t.Errorf("second ladderbot restore = %d, %q, %q; want 1 and \"ladderbot restore: … not empty\"", code, out, errOut)
			}
			if code, out, _ := run(dst, "verify"); code != 0 || !strings.Contains(out, "4 matches") {
				t.Errorf("ladderbot verify after a refused restore = %d, %q; want 0 and the 4 restored matches", code, out)
			}
		})
	}
	for _, args := range [][]string{{"backup"}, {"restore"}, {"backup", "--out", file, "extra"}} {
		if code, _, _ := run(src, args...); code != 2 {
			t.Errorf("ladderbot %s = %d, want 2 (usage)", strings.Join(args, " "), code)
		}
	}
}
