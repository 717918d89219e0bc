package cli

import (
	"encoding/json"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestTuneJSON(t *testing.T) {
	code, stdout, stderr := runCmd(t, "tune", "--data", smallCSV, "--model", "elo", "--grid", "k=8:40:8", "--json")
	if code != 0 {
		t.Fatalf("Got(exit) = %d, want 0 (stderr %q)", code, stderr)
	}
	var got tuneReport
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("Got(stdout) = %q, want JSON: %v", stdout, err)
	}
	// Recompute every grid point by hand on the tuning part: matches 0..319,
	// scored from 160 (burn-in 0.5).
	f, _ := os.Open(smallCSV)
	recs, _ := rating.ReadMatchCSV(f)
	f.Close()
	d, err := rating.NewDataset(recs)
	if err != nil {
		t.Fatal(err)
	}
	preds := make([]float64, 320)
	bestK, best := 0.0, math.Inf(1)
	for _, k := range []float64{8, 16, 24, 32, 40} {
		m, _ := rating.NewModel("elo", map[string]float64{"k": k})
		d.Predict(m, 320, preds)
		if s := d.Score(preds, 160, 320).LogLoss; s < best {
			bestK, best = k, s
		}
	}
	if got.Params["k"] != bestK || math.Abs(got.TuneLogLoss-best) > 1e-12 || got.Points != 5 || got.TuneMatches != 320 || got.TuneScored != 160 {
		t.Errorf("Got(tune) = %+v, want k=%g with tuning log loss %v over 5 points", got, bestK, best)
	}
	m, _ := rating.NewModel("elo", map[string]float64{"k": bestK})
	want, _ := d.Evaluate(m, 0.8)
	if got.Eval.Scored != 80 || math.Abs(got.Eval.LogLoss-want.LogLoss) > 1e-12 {
		t.Errorf("Got(eval of best) = %+v, want scored 80, log loss %v", got.Eval, want.LogLoss)
	}
}

func TestTuneText(t *testing.T) {
	code, stdout, stderr := runCmd(t, "tune", "--data", smallCSV, "--model", "team-glicko", "--grid", "scale=1:2:0.5,boost=0", "--params", "c=2")
	if code != 0 {
		t.Fatalf("Got(exit) = %d, want 0 (stderr %q)", code, stderr)
	}
	for _, want := range []string{"grid        3 points over scale, boost", "best params boost=0,c=2,", "scored part (matches 320 to 399", "best points on the tuning part"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("Got(stdout) = %q, want it to contain %q", stdout, want)
		}
	}
}

func TestTuneErrors(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStderr string
	}{
		{"no grid", []string{"--data", smallCSV}, 2, "--grid is required"},
		{"no data", []string{"--grid", "k=1"}, 2, "--data is required"},
		{"bad range", []string{"--data", smallCSV, "--model", "elo", "--grid", "k=40:8:8"}, 1, "want a ≤ b and step > 0"},
		{"unknown key", []string{"--data", smallCSV, "--model", "elo", "--grid", "q=1:2:1"}, 1, `no parameter "q"`},
		{"grid and params", []string{"--data", smallCSV, "--model", "elo", "--grid", "k=1:2:1", "--params", "k=3"}, 1, "both set k"},
		{"too many points", []string{"--data", smallCSV, "--model", "team-glicko", "--grid", "c=0:1000:0.01,scale=1:100:1"}, 1, "more than 100000"},
		{"malformed csv", []string{"--data", badCSV, "--model", "elo", "--grid", "k=10:20:10"}, 1, "line 7"},
		{"warmup", []string{"--data", smallCSV, "--grid", "c=1", "--warmup", "0"}, 2, "--warmup must be in (0, 1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCmd(t, append([]string{"tune"}, tt.args...)...)
			if code != tt.wantCode || !strings.Contains(stderr, tt.wantStderr) || stdout != "" {
				t.Errorf("Got(exit, stdout, stderr) = %d, %q, %q, want %d, nothing, %q", code, stdout, stderr, tt.wantCode, tt.wantStderr)
			}
		})
	}
}

func TestTuneParseGrid(t *testing.T) {
	got, err := tuneParseGrid("k=0.1:0.3:0.1, c=5,scale=1:1.9:0.5")
	want := []tuneAxis{{"k", []float64{0.1, 0.2, 0.3}}, {"c", []float64{5}}, {"scale", []float64{1, 1.5}}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Got(tuneParseGrid) = %v, %v, want %v", got, err, want)
	}
	for _, bad := range []string{"", "k", "k=1:2", "k=a:b:c", "k=1:2:0", "k=1,k=2", "k=NaN"} {
		if _, err := tuneParseGrid(bad); err == nil {
			t.Errorf("Got(tuneParseGrid(%q)) = nil error, want one", bad)
		}
	}
}
