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
	if out := stdout.String(); !strings.Contains(out, "guild 100000000000000000 ran on a temporary database") {
		t.Errorf("Got(stdout) = %q, want it to say the season's database is gone and how to keep one", out)
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
		{[]string{"simulate", "--params", "placement_games=2.5"}, 2, "whole number"},
		{[]string{"simulate", "--params", "nope=1"}, 2, "no parameter \"nope\""},
		{[]string{"simulate", "--parties", "2"}, 1, "party share must be from 0 to 1"},
		{[]string{"simulate", "--party-max-weight", "11"}, 2, "party weights"},
		{[]string{"simulate", "--cheaters", "aimbot=1"}, 2, "unknown kind \"aimbot\""},
		{[]string{"simulate", "--cheaters", "smurf"}, 2, "is not kind=N"},
		{[]string{"simulate", "--cheaters", "smurf=-1"}, 2, "want 0 to 50"},
		{[]string{"simulate", "--late-players", "-1"}, 1, "late players must be from 0 to 100000"},
		{[]string{"simulate", "--late-players", "many"}, 2, "invalid value"},
		// A zero asked for is checked, not taken as "the default": each
		// of these ran the default season before.
		{[]string{"simulate", "--days", "0"}, 1, "days must be from 1 to 3650, not 0"},
		{[]string{"simulate", "--games", "0"}, 1, "games per session must be from 1 to 100, not 0"},
		{[]string{"simulate", "--active", "0"}, 1, "active probability must be in (0, 1], not 0"},
		{[]string{"simulate", "--skill-sd", "0"}, 1, "skill spread must be above 0 and below 5000, not 0"},
		{[]string{"simulate", "--players", "0"}, 1, "players must be from 4 (two teams) to 100000, not 0"},
		{[]string{"simulate", "--team-size", "0"}, 2, "team size"},
		{[]string{"simulate", "--q-start", "0"}, 2, "q_floor ≤ q_start"},
	}
	for _, tc := range tests {
		stdout.Reset()
		stderr.Reset()
		if code := Main(tc.args, []string{"LOG_LEVEL=warn"}, &stdout, &stderr); code != tc.code || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("Got(Main(%q)) = %d, %q, want %d and %q", tc.args, code, stderr.String(), tc.code, tc.want)
		}
	}
}

// TestSimulateSaysWhereToLook keeps a season with --db: simulate names the
// guild and the serve command with that database and the page's address,
// and export of that guild from that database finds the season's matches.
func TestSimulateSaysWhereToLook(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sim.db")
	env := []string{"LOG_LEVEL=warn", "HTTP_ADDR=127.0.0.1:9191"}
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"simulate", "--players", "20", "--days", "2", "--db", "sqlite:" + path}, env, &stdout, &stderr); code != 0 {
		t.Fatalf("Got(exit) = %d, want 0 (stderr %q)", code, stderr.String())
	}
	const guild = "100000000000000000"
	for _, want := range []string{
		"Wrote guild " + guild + " to sqlite:" + path,
		"DATABASE_URL=sqlite:" + path + " ladderbot serve",
		"http://127.0.0.1:9191/guilds/" + guild,
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("Got(stdout) = %q, want %q", stdout.String(), want)
		}
	}
	stdout.Reset()
	stderr.Reset()
	if code := Main([]string{"export", "--guild", guild}, []string{"DATABASE_URL=sqlite:" + path, "LOG_LEVEL=warn"}, &stdout, &stderr); code != 0 {
		t.Fatalf("Got(export --guild %s) = %d, want 0 (stderr %q)", guild, code, stderr.String())
	}
	if rows := strings.Count(stdout.String(), "\n"); rows < 2 {
		t.Errorf("Got(export of the named guild) = %q, want the season's matches", stdout.String())
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"sqlite:sim.db":                 "sqlite:sim.db",
		"sqlite:/tmp/my sims/a.db":      "'sqlite:/tmp/my sims/a.db'",
		"postgres://u@h/db?sslmode=off": "'postgres://u@h/db?sslmode=off'",
		"sqlite:it's.db":                `'sqlite:it'\''s.db'`,
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("Got(shellQuote(%q)) = %q, want %q", in, got, want)
		}
	}
}
