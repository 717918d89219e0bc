package cli

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

const twiceCSV = "../ladder/rating/testdata/player_twice.csv"

// TestSkipInvalid: eval, tune and import stop at the first row that breaks
// a rule, naming its line; with --skip-invalid they list every such row by
// line on stderr and go on with the rest.
func TestSkipInvalid(t *testing.T) {
	dir := t.TempDir()
	env := []string{"DATABASE_URL=sqlite:" + filepath.Join(dir, "ladder.db"), "LOG_LEVEL=error"}
	run := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := Main(args, env, &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	if code, _, stderr := run("migrate"); code != 0 {
		t.Fatalf("Got(migrate) = %d, %q, want 0", code, stderr)
	}
	skippedLines := []string{
		`ladderbot %s: ` + twiceCSV + `: skipped line 4: player "p14" appears twice in the match`,
		`ladderbot %s: ` + twiceCSV + `: skipped line 6: player "p20" appears twice in the match`,
		// eval and tune say they read the rest; import, which checks the
		// whole file first, that it is importing them.
		`ladderbot %s: ` + twiceCSV + `: skipped 2 invalid rows, %s 5 matches`,
	}
	tests := []struct {
		name string
		args []string
		out  string
	}{
		{"eval", []string{"eval", "--data", twiceCSV, "--warmup", "0.4"}, "matches   5"},
		{"tune", []string{"tune", "--data", twiceCSV, "--model", "elo", "--grid", "k=16:32:16", "--warmup", "0.6"}, "best params"},
		{"import", []string{"import", "--guild", "123456789012345678", "--data", twiceCSV}, "imported 5 matches"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(tt.args...)
			if code != 1 || !strings.Contains(stderr, "ladderbot "+tt.name+": ") || !strings.Contains(stderr, "line 4") {
				t.Errorf("Got(without --skip-invalid) = %d, %q, want exit 1 naming line 4", code, stderr)
			}
			if stdout != "" {
				t.Errorf("Got(stdout without --skip-invalid) = %q, want nothing", stdout)
			}
			code, stdout, stderr = run(append(tt.args, "--skip-invalid")...)
			if code != 0 || !strings.Contains(stdout, tt.out) {
				t.Fatalf("Got(--skip-invalid) = %d, stdout %q, stderr %q; want 0 and %q", code, stdout, stderr, tt.out)
			}
			for _, l := range skippedLines {
				verb := map[bool]string{true: "importing", false: "read"}[tt.name == "import"]
				if want := strings.Replace(strings.Replace(l, "%s", tt.name, 1), "%s", verb, 1); !strings.Contains(stderr, want+"\n") {
					t.Errorf("Got(stderr) = %q, want the line %q", stderr, want)
				}
			}
		})
	}
	code, stdout, _ := run("eval", "--data", twiceCSV, "--warmup", "0.4", "--skip-invalid", "--json")
	var rep struct {
		Matches int
		Skipped []struct {
			Line   int
			Reason string
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); code != 0 || err != nil {
		t.Fatalf("Got(eval --json) = %d, %q, %v; want one JSON object", code, stdout, err)
	}
	if rep.Matches != 5 || len(rep.Skipped) != 2 || rep.Skipped[0].Line != 4 || rep.Skipped[1].Line != 6 {
		t.Errorf("Got(matches, skipped) = %d, %+v, want 5 and lines 4, 6", rep.Matches, rep.Skipped)
	}
}
