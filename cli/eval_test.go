package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/ladder/rating"
)

const (
	smallCSV = "../ladder/rating/testdata/small_2v2.csv"
	badCSV   = "../ladder/rating/testdata/bad_winner.csv"
)

func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(args, nil, &out, &errb)
	return code, out.String(), errb.String()
}

// smallResult evaluates the small test history in-process for comparison.
func smallResult(t *testing.T, model string, params map[string]float64, warmup float64) (rating.EvalResult, []float64) {
	t.Helper()
	f, err := os.Open(smallCSV)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := rating.ReadMatchCSV(f)
	if err != nil {
		t.Fatal(err)
	}
	m, err := rating.NewModel(model, params)
	if err != nil {
		t.Fatal(err)
	}
	d, err := rating.NewDataset(recs)
	if err != nil {
		t.Fatal(err)
	}
	return d.Evaluate(m, warmup)
}

func TestEvalJSON(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		model  string
		params map[string]float64
		warmup float64
	}{
		{"defaults", nil, "team-glicko", nil, 0.8},
		{"elo with params and warmup", []string{"--model", "elo", "--params", "k=24", "--warmup", "0.5"}, "elo", map[string]float64{"k": 24}, 0.5},
		{"openskill from the start", []string{"--model", "openskill", "--warmup", "0"}, "openskill", nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCmd(t, append([]string{"eval", "--data", smallCSV, "--json"}, tt.args...)...)
			if code != 0 {
				t.Fatalf("Got(exit) = %d, want 0 (stderr %q)", code, stderr)
			}
			var got map[string]any
			if err := json.Unmarshal([]byte(stdout), &got); err != nil {
				t.Fatalf("Got(stdout) = %q, want one JSON object: %v", stdout, err)
			}
			for _, k := range []string{"model", "params", "matches", "scored", "log_loss", "brier", "accuracy", "ece"} {
				if _, ok := got[k]; !ok {
					t.Errorf("Got(keys) = %v, want %q", got, k)
				}
			}
			if len(got) != 8 {
				t.Errorf("Got(%d keys), want exactly the 8 of docs/spec.md 2.3: %v", len(got), got)
			}
			want, _ := smallResult(t, tt.model, tt.params, tt.warmup)
			if got["model"] != tt.model || got["matches"] != 400.0 || got["scored"] != float64(want.Scored) {
				t.Errorf("Got(model, matches, scored) = %v, %v, %v, want %s, 400, %d", got["model"], got["matches"], got["scored"], tt.model, want.Scored)
			}
			for k, w := range map[string]float64{"log_loss": want.LogLoss, "brier": want.Brier, "accuracy": want.Accuracy, "ece": want.ECE} {
				if g, _ := got[k].(float64); math.Abs(g-w) > 1e-12 {
					t.Errorf("Got(%s) = %v, want %v", k, g, w)
				}
			}
			params, _ := got["params"].(map[string]any)
			defs, _ := rating.ModelParams(tt.model)
			if len(params) != len(defs) {
				t.Errorf("Got(params) = %v, want all %d parameters of %s", params, len(defs), tt.model)
			}
			for k, v := range tt.params {
				if params[k] != v {
					t.Errorf("Got(params[%s]) = %v, want %v", k, params[k], v)
				}
			}
		})
	}
}

func TestEvalTablePredictionsPlot(t *testing.T) {
	dir := t.TempDir()
	pred, plot := filepath.Join(dir, "p.csv"), filepath.Join(dir, "r.png")
	code, stdout, stderr := runCmd(t, "eval", "--data", smallCSV, "--model", "trueskill", "--predictions", pred, "--plot", plot)
	if code != 0 {
		t.Fatalf("Got(exit) = %d, want 0 (stderr %q)", code, stderr)
	}
	for _, want := range []string{"model     trueskill", "scored    80 (matches 320 to 399)", "log loss", "calibration", "0.0–0.1", "0.9–1.0"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("Got(stdout) = %q, want it to contain %q", stdout, want)
		}
	}
	if strings.Contains(stderr, "replaying") {
		t.Errorf("Got(stderr) = %q, want no progress bar off a terminal", stderr)
	}
	b, err := os.ReadFile(pred)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	_, preds := smallResult(t, "trueskill", nil, 0.8)
	if len(lines) != 401 || lines[0] != "seq,p_team1" || lines[1] != "0,0.5" {
		t.Errorf("Got(predictions) = %d lines starting %q, want 401 starting seq,p_team1 / 0,0.5", len(lines), lines[:2])
	}
	if want := "399," + strings.TrimSpace(formatFloat(preds[399])); lines[400] != want {
		t.Errorf("Got(last prediction) = %q, want %q", lines[400], want)
	}
	png, err := os.ReadFile(plot)
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("Got(plot) = %d bytes, %v, want a PNG", len(png), err)
	}
}

func formatFloat(x float64) string {
	b, _ := json.Marshal(x)
	return string(b)
}

func TestEvalErrors(t *testing.T) {
	dir := t.TempDir()
	pred := filepath.Join(dir, "p.csv")
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStderr string
	}{
		{"malformed row", []string{"--data", badCSV, "--predictions", pred}, 1, "line 7: winner \"7\""},
		{"missing data", nil, 2, "--data is required"},
		{"missing file", []string{"--data", filepath.Join(dir, "none.csv")}, 1, "no such file"},
		{"unknown model", []string{"--data", smallCSV, "--model", "chess"}, 1, `unknown rating model "chess"`},
		{"unknown param", []string{"--data", smallCSV, "--params", "kk=3"}, 1, `no parameter "kk"`},
		{"bad params", []string{"--data", smallCSV, "--params", "k"}, 1, "not key=value"},
		{"warmup 1", []string{"--data", smallCSV, "--warmup", "1"}, 2, "--warmup must be in [0, 1)"},
		{"stray argument", []string{"--data", smallCSV, "extra"}, 2, `unexpected argument "extra"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCmd(t, append([]string{"eval"}, tt.args...)...)
			if code != tt.wantCode || !strings.Contains(stderr, tt.wantStderr) {
				t.Errorf("Got(exit, stderr) = %d, %q, want %d and %q", code, stderr, tt.wantCode, tt.wantStderr)
			}
			if stdout != "" {
				t.Errorf("Got(stdout) = %q, want nothing scored", stdout)
			}
			if !strings.HasPrefix(stderr, "ladderbot eval: ") {
				t.Errorf("Got(stderr) = %q, want an error line starting with \"ladderbot eval: \"", stderr)
			}
		})
	}
	if _, err := os.Stat(pred); !os.IsNotExist(err) {
		t.Errorf("Got(predictions file after a malformed row) = %v, want none written", err)
	}
}

func TestEvalIsTerminal(t *testing.T) {
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	file, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	for name, w := range map[string]io.Writer{"buffer": &bytes.Buffer{}, "dev null": devnull, "file": file} {
		if isTerminal(w) {
			t.Errorf("Got(isTerminal(%s)) = true, want false", name)
		}
	}
}

// TestEvalNewcomers checks --newcomers against the split computed here:
// every scored match counted once, on the side its players' history puts it.
func TestEvalNewcomers(t *testing.T) {
	code, out, errOut := runCmd(t, "eval", "--data", smallCSV, "--warmup", "0.05", "--newcomers", "10", "--json")
	if code != 0 {
		t.Fatalf("Got(exit) = %d, want 0 (stderr %q)", code, errOut)
	}
	var rep evalReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	n := rep.Newcomers
	if n == nil || n.Games != 10 || n.Matches+n.Others != rep.Scored || n.Matches == 0 || n.Others == 0 {
		t.Fatalf("Got(newcomers) = %+v of %d scored, want both parts, summing to the scored", n, rep.Scored)
	}
	f, err := os.Open(smallCSV)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := rating.ReadMatchCSV(f)
	if err != nil {
		t.Fatal(err)
	}
	played := map[string]int{}
	want := 0
	for i, r := range recs {
		isNew := false
		for _, p := range append(append([]string(nil), r.Team1...), r.Team2...) {
			if played[p] < 10 {
				isNew = true
			}
			played[p]++
		}
		if isNew && i >= rating.WarmupStart(len(recs), 0.05) {
			want++
		}
	}
	if n.Matches != want {
		t.Errorf("Got(matches with a newcomer) = %d, want %d", n.Matches, want)
	}
	if code, _, errOut := runCmd(t, "eval", "--data", smallCSV, "--newcomers", "-1"); code != 2 || !strings.Contains(errOut, "--newcomers") {
		t.Errorf("Got(eval --newcomers -1) = %d, %q, want 2 and a usage error", code, errOut)
	}
}
