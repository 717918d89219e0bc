package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/storage"
)

// hostileFile is a 2v2 match CSV of 700 rows with bad rows at known lines;
// it returns the file and, for each bad line, a piece of its reason.
func hostileFile() (string, map[int]string) {
	const head = "date,team1_p1,team1_p2,team2_p1,team2_p2,winner\n"
	bad := map[int]string{
		3:   "2025-06-01,a,b,c,1",                               // a field short
		10:  "2025-06-01,a\xffx,b,c,d,1",                        // invalid UTF-8
		20:  "2025-06-01,a,b,a,d,1",                             // a on both teams
		30:  "9999-12-31,a,b,c,d,1",                             // the future
		40:  "2025-06-01,a,b,c,d,3",                             // no such winner
		50:  "1900-01-01,a,b,c,d,1",                             // before 1970
		600: "2025-06-01,a,b,c,d," + strings.Repeat("9", 1<<20), // a megabyte cell
		601: "2025-06-01,a,b,c,d,1,extra",                       // a field too many
	}
	reasons := map[int]string{3: "5 fields", 10: "not valid UTF-8", 20: `"a" appears twice`, 30: "in the future",
		40: `winner "3"`, 50: "before 1970", 600: "(1048576 bytes)", 601: "7 fields"}
	var b strings.Builder
	b.WriteString(head)
	start := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	ids := []string{"a", "b", "c", "d", "e", "f"}
	for line := 2; line <= 701; line++ {
		if row, ok := bad[line]; ok {
			b.WriteString(row + "\n")
			continue
		}
		i := line
		fmt.Fprintf(&b, "%s,%s,%s,%s,%s,%d\n", start.Add(time.Duration(i)*time.Minute).Format(time.RFC3339),
			ids[i%6], ids[(i+1)%6], ids[(i+2)%6], ids[(i+3)%6], 1+i%2)
	}
	return b.String(), reasons
}

// importEnv is a test's CLI on a fresh database of backend: run runs
// `ladderbot ARGS` in-process and returns its exit code, stdout and
// stderr; write puts a file in the test's directory; snapshot reads every
// table, to show what a command changed.
func importEnv(t *testing.T, backend string) (run func(args ...string) (int, string, string), write func(name, content string) string, snapshot func() testdb.Snapshot) {
	dir := t.TempDir()
	dsn := testdb.DSN(t, backend)
	env := []string{"DATABASE_URL=" + dsn, "LOG_LEVEL=error"}
	run = func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := Main(args, env, &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	write = func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	snapshot = func() testdb.Snapshot {
		db, err := storage.Open(context.Background(), dsn, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		s, err := testdb.TakeSnapshot(context.Background(), db.SQL(), db.Dialect())
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	return run, write, snapshot
}

// TestImportHostileFiles runs `ladderbot import` on hostile files on both
// backends: without --skip-invalid the whole file is checked,
// every bad row is listed on its own `ladderbot import:` line with its file
// line and reason, and nothing is written; with it the good rows are
// imported and the bad ones listed as skipped; a file with broken columns
// is refused by its header.
func TestImportHostileFiles(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		run, write, snapshot := importEnv(t, backend)
		const g = "123456789012345678"
		seed := write("seed.csv", "date,team1_p1,team1_p2,team2_p1,team2_p2,winner\n2025-01-01,a,b,c,d,1\n")
		if code, out, errOut := run("import", "--guild", g, "--data", seed); code != 0 {
			t.Fatalf("ladderbot import seed = %d, %q, %q", code, out, errOut)
		}
		content, reasons := hostileFile()
		hostile := write("hostile.csv", content)
		columns := write("columns.csv", "date,team1_p1,team1_p2,team2_p1,team2_p2\n2025-06-01,a,b,c,d\n")
		for _, tc := range []struct {
			name, guild, file string
			want              []string
		}{
			{"hostile rows into an existing guild", g, hostile, []string{"8 of 700 rows are invalid, so nothing was imported"}},
			{"hostile rows into a new guild", "223456789012345678", hostile, []string{"8 of 700 rows are invalid"}},
			{"wrong columns", g, columns, []string{"line 1: header lacks winner"}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				before := snapshot()
				code, out, errOut := run("import", "--guild", tc.guild, "--data", tc.file)
				if code != 1 || out != "" {
					t.Errorf("Got(ladderbot import) = %d, stdout %q, want 1 and no output", code, out)
				}
				for _, w := range tc.want {
					if !strings.Contains(errOut, w) {
						t.Errorf("Got(stderr) = %.2000q, want it to contain %q", errOut, w)
					}
				}
				lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
				for _, l := range lines {
					if !strings.HasPrefix(l, "ladderbot import: ") || len(l) > 2000 {
						t.Errorf("Got(stderr line) %.200q (%d bytes), want it to start with \"ladderbot import: \" and be short", l, len(l))
					}
				}
				if tc.file == hostile {
					for line, why := range reasons {
						want := fmt.Sprintf("invalid line %d: ", line)
						found := false
						for _, l := range lines {
							found = found || (strings.Contains(l, want) && strings.Contains(l, why))
						}
						if !found {
							t.Errorf("Got(stderr) without %q … %q:\n%.3000s", want, why, errOut)
						}
					}
				}
				if diff := before.Diff(snapshot()); len(diff) > 0 {
					t.Errorf("refused import changed the database: %v", diff)
				}
			})
		}
		t.Run("skip invalid", func(t *testing.T) {
			code, out, errOut := run("import", "--guild", g, "--data", hostile, "--skip-invalid")
			if code != 0 || !strings.Contains(out, "imported 692 matches, skipped 0") {
				t.Fatalf("Got(ladderbot import --skip-invalid) = %d, %q, %q; want 0 and 692 imported", code, out, errOut)
			}
			for line := range reasons {
				if !strings.Contains(errOut, fmt.Sprintf("skipped line %d: ", line)) {
					t.Errorf("Got(stderr) = %.2000q, want skipped line %d", errOut, line)
				}
			}
			if !strings.Contains(errOut, "skipped 8 invalid rows, importing 692 matches") {
				t.Errorf("Got(stderr) = %.2000q, want the skipped count", errOut)
			}
			if code, out, _ := run("verify", "--guild", g); code != 0 || !strings.Contains(out, "693 matches") {
				t.Errorf("Got(ladderbot verify) = %d, %q; want 0 and 693 matches", code, out)
			}
			code, out, _ = run("import", "--guild", g, "--data", hostile, "--skip-invalid")
			if code != 0 || !strings.Contains(out, "imported 0 matches, skipped 692") {
				t.Errorf("Got(second ladderbot import --skip-invalid) = %d, %q; want 692 skipped", code, out)
			}
		})
	})
}
