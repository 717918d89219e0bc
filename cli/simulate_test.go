package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSimulateCommand(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"simulate", "--players", "40", "--days", "3", "--seed", "2", "--json", "--plot", dir}
	if code := Main(args, []string{"LOG_LEVEL=warn"}, &stdout, &stderr); code != 0 {
		t.Fatalf("Got(exit) = %d, want 0 (stderr %q)", code, stderr.String())
	}
	var got map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("Got(json error) = %v, want the metrics object", err)
	}
	for _, k := range []string{"matches", "wait_p50_s", "wait_p95_s", "mean_quality", "mean_abs_p_minus_half", "brier", "spearman_true_skill"} {
		if _, ok := got[k].(float64); !ok {
			t.Errorf("Got(%q) = %v, want a number", k, got[k])
		}
	}
	if got["verified"] != true {
		t.Errorf("Got(verified) = %v, want true", got["verified"])
	}
	for _, f := range []string{"trajectories.png", "final.png", "waits.png", "calibration.png"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("Got(%s) = %v, want a chart", f, err)
		}
	}
}

func TestSimulateCommandLeaderboardAndErrors(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"simulate", "--players", "40", "--days", "3"}, []string{"LOG_LEVEL=warn"}, &stdout, &stderr); code != 0 {
		t.Fatalf("Got(exit) = %d, want 0 (stderr %q)", code, stderr.String())
	}
	if out := stdout.String(); !strings.Contains(out, "Final leaderboard") || !strings.Contains(out, "true skill") {
		t.Errorf("Got(stdout) = %q, want the final leaderboard", out)
	}
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"simulate", "--players", "2"}, 1, "players must be from 4"},
		// Flag values the queue refuses are usage errors, found before any database opens.
		{[]string{"simulate", "--model", "chess"}, 2, "chess"},
		{[]string{"simulate", "--team-size", "9"}, 2, "team size"},
		{[]string{"simulate", "--q-floor", "0.9"}, 2, "q_floor"},
		{[]string{"simulate", "extra"}, 2, "unexpected argument"},
	}
	for _, tc := range tests {
		stdout.Reset()
		stderr.Reset()
		if code := Main(tc.args, []string{"LOG_LEVEL=warn"}, &stdout, &stderr); code != tc.code || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("Got(Main(%q)) = %d, %q, want %d and %q", tc.args, code, stderr.String(), tc.code, tc.want)
		}
	}
}
