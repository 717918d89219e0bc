package cli

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/ladder/rating"
)

// TestEvalAutoTune: --auto-tune reports what rating.AutoEvaluate computes,
// the rounds and the calibration, and writes the calibrated predictions.
func TestEvalAutoTune(t *testing.T) {
	pred := filepath.Join(t.TempDir(), "p.csv")
	code, stdout, stderr := runCmd(t, "eval", "--data", smallCSV, "--model", "elo", "--auto-tune", "--retune-every", "100", "--json", "--predictions", pred)
	if code != 0 {
		t.Fatalf("Got(exit) = %d, want 0 (stderr %q)", code, stderr)
	}
	var got struct {
		LogLoss  float64 `json:"log_loss"`
		ECE      float64 `json:"ece"`
		AutoTune *struct {
			Params map[string]float64 `json:"params"`
			A      float64            `json:"calibration_a"`
			Rounds []struct {
				At      int  `json:"at"`
				Adopted bool `json:"adopted"`
			} `json:"rounds"`
		} `json:"auto_tune"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil || got.AutoTune == nil {
		t.Fatalf("Got(stdout) = %q, want JSON with auto_tune: %v", stdout, err)
	}
	f, _ := os.Open(smallCSV)
	defer f.Close()
	recs, _ := rating.ReadMatchCSV(f)
	d, _ := rating.NewDataset(recs)
	want, err := d.AutoEvaluate(context.Background(), rating.AutoOptions{Model: "elo", Warmup: 0.8, Tune: true, Every: 100, Calibrate: true})
	if err != nil {
		t.Fatal(err)
	}
	if got.LogLoss != want.LogLoss || got.ECE != want.ECE || got.AutoTune.A != want.Calibrator.W[0] {
		t.Errorf("Got(log loss, ece, a) = %v, %v, %v, want %v, %v, %v", got.LogLoss, got.ECE, got.AutoTune.A, want.LogLoss, want.ECE, want.Calibrator.W[0])
	}
	if len(got.AutoTune.Rounds) != 3 || got.AutoTune.Rounds[2].At != 300 || got.AutoTune.Params["k"] != want.Params["k"] {
		t.Errorf("Got(rounds, params) = %+v, %v, want rounds after 100, 200, 300 and k %v", got.AutoTune.Rounds, got.AutoTune.Params, want.Params["k"])
	}
	b, _ := os.ReadFile(pred)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 401 || lines[400] != "399,"+formatFloat(want.Preds[399]) {
		t.Errorf("Got(last prediction) = %q, want the calibrated %v", lines[len(lines)-1], want.Preds[399])
	}
	if math.IsNaN(got.LogLoss) {
		t.Errorf("Got(log loss) = NaN")
	}
}

func TestEvalAutoTuneErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--retune-every", "100"},
		{"--auto-tune", "--retune-every", "-1"},
	} {
		code, _, stderr := runCmd(t, append([]string{"eval", "--data", smallCSV}, args...)...)
		if code != 2 || !strings.Contains(stderr, "--retune-every wants --auto-tune") {
			t.Errorf("Got(eval %v) = %d, %q, want 2 and a usage error", args, code, stderr)
		}
	}
}
