package cli

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/migrations"
	"github.com/ladderbot/ladderbot/storage"
)

// TestImportExportVerify runs migrate, import, verify and export in-process
// on an embedded database: a CSV goes in, is rated, verifies clean and comes
// back out with the same matches; a second import records nothing.
func TestImportExportVerify(t *testing.T) {
	dir := t.TempDir()
	env := []string{"DATABASE_URL=sqlite:" + filepath.Join(dir, "ladder.db"), "LOG_LEVEL=error"}
	in := "date,team1_p1,team1_p2,team2_p1,team2_p2,winner\n" +
		"2024-01-01,a,b,c,d,1\n2024-01-02,a,c,b,d,2\n2024-01-03,a,d,b,c,0\n2024-01-04,b,c,a,d,1\n"
	data := filepath.Join(dir, "in.csv")
	if err := os.WriteFile(data, []byte(in), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := Main(args, env, &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	steps := []struct {
		args     []string
		wantCode int
		wantOut  string
	}{
		{[]string{"migrate"}, 0, fmt.Sprintf("schema at version %d", latestMigration(t))},
		{[]string{"import", "--guild", "123456789012345678", "--data", data}, 0, "imported 4 matches, skipped 0"},
		{[]string{"import", "--guild", "123456789012345678", "--data", data}, 0, "imported 0 matches, skipped 4"},
		{[]string{"verify"}, 0, "4 matches, 4 players: 0 differences"},
		{[]string{"verify", "--guild", "123456789012345678"}, 0, "0 differences"},
		{[]string{"export", "--guild", "123456789012345678"}, 0, "seq,date,team1_p1,team1_p2,team2_p1,team2_p2,winner\n0,2024-01-01,a,b,c,d,1\n1,2024-01-02,a,c,b,d,2\n2,2024-01-03,a,d,b,c,0\n3,2024-01-04,b,c,a,d,1\n"},
		{[]string{"import", "--data", data}, 2, ""},
		{[]string{"export", "--guild", "999"}, 1, ""},
	}
	for _, s := range steps {
		code, out, errOut := run(s.args...)
		if code != s.wantCode || !strings.Contains(out, s.wantOut) {
			t.Errorf("ladderbot %s = %d, stdout %q, stderr %q; want %d and stdout containing %q", strings.Join(s.args, " "), code, out, errOut, s.wantCode, s.wantOut)
		}
	}
	// A stored rating edited behind the log's back fails verify.
	db, err := storage.Open(context.Background(), strings.TrimPrefix(env[0], "DATABASE_URL="), nil)
	if err != nil {
		t.Fatal(err)
	}
	db.Gorm().Exec("UPDATE ratings SET dev = dev + 1 WHERE user_id = 'c'")
	db.Close()
	if code, out, _ := run("verify"); code != 1 || !strings.Contains(out, "DIFF") || !strings.Contains(out, "player c") {
		t.Errorf("ladderbot verify after tampering = %d, %q; want 1 and a DIFF line for player c", code, out)
	}
}

// TestImportSummary checks the lines import ends with, on a history whose
// players are all past placement and last played in 2024: listed now, and
// every one of them due to be hidden by the stale rule at `run`, which the
// summary must warn about. The names of the CSV come back in the export.
func TestImportSummary(t *testing.T) {
	dir := t.TempDir()
	env := []string{"DATABASE_URL=sqlite:" + filepath.Join(dir, "ladder.db"), "LOG_LEVEL=error"}
	var in strings.Builder
	in.WriteString("date,team1_p1,team1_p1_name,team1_p2,team2_p1,team2_p2,winner\n")
	players := []string{"a", "b", "c", "d"}
	for i := range 30 {
		p := func(k int) string { return players[(i+k)%4] }
		fmt.Fprintf(&in, "2024-01-%02d,%s,Player %s,%s,%s,%s,%d\n", 1+i%28, p(0), strings.ToUpper(p(0)), p(1), p(2), p(3), 1+i%2)
	}
	in.WriteString("2024-02-01,e,,f,g,h,1\n")
	data := filepath.Join(dir, "in.csv")
	if err := os.WriteFile(data, []byte(in.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"import", "--guild", "123456789012345678", "--data", data}, env, &stdout, &stderr); code != 0 {
		t.Fatalf("ladderbot import = %d, stderr %q", code, stderr.String())
	}
	want := "imported 31 matches, skipped 0 imported before\n" +
		"8 players in the ladder, 4 listed on the board now\n" +
		"provisional: 4 (4 with fewer than 5 games, 0 with RD above 100)\n" +
		"inactive: 0 flagged now; the stale rule will hide 4 more whose last match is over 30 days old\n" +
		"warning: `ladderbot run` marks 4 of the 4 listed players inactive when it starts, leaving 0 on the board; " +
		"raise it first with /config thresholds stale_days to keep an old history listed\n"
	if stdout.String() != want {
		t.Errorf("Got(ladderbot import stdout) = %q, want %q", stdout.String(), want)
	}
	stdout.Reset()
	if code := Main([]string{"export", "--guild", "123456789012345678"}, env, &stdout, &stderr); code != 0 {
		t.Fatalf("ladderbot export = %d, stderr %q", code, stderr.String())
	}
	if head := "seq,date,team1_p1,team1_p1_name,team1_p2,team1_p2_name,team2_p1,team2_p1_name,team2_p2,team2_p2_name,winner\n" +
		"0,2024-01-01,a,Player A,b,Player B,c,Player C,d,Player D,1\n"; !strings.HasPrefix(stdout.String(), head) {
		t.Errorf("Got(ladderbot export) = %q, want prefix %q", stdout.String()[:min(300, stdout.Len())], head)
	}
}

// latestMigration is the number of migrations embedded, the version a
// fresh database migrates to.
func latestMigration(t *testing.T) int {
	t.Helper()
	files, err := fs.Glob(migrations.SQLite, "sqlite/*.sql")
	if err != nil || len(files) == 0 {
		t.Fatalf("Got(embedded migrations) = %v, %v, want some", files, err)
	}
	// Versions may leave gaps (issues take number ranges), so the version
	// is the highest file number, not the count.
	latest := 0
	for _, f := range files {
		n, err := strconv.Atoi(strings.SplitN(filepath.Base(f), "_", 2)[0])
		if err != nil {
			t.Fatalf("Got(migration file %q) not numbered: %v", f, err)
		}
		latest = max(latest, n)
	}
	return latest
}
