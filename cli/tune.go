package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/ladderbot/ladderbot/ladder/rating"
)

// tuneMaxPoints bounds a grid, so a typo cannot start a week-long search.
const tuneMaxPoints = 100_000

// tuneAxis is one parameter of the grid and the values it takes.
type tuneAxis struct {
	key    string
	values []float64
}

// tuneReport is the --json output of tune.
type tuneReport struct {
	Model       string             `json:"model"`
	Params      map[string]float64 `json:"params"`
	Points      int                `json:"points"`
	TuneMatches int                `json:"tune_matches"`
	TuneScored  int                `json:"tune_scored"`
	TuneLogLoss float64            `json:"tune_log_loss"`
	Eval        evalReport         `json:"eval"`
	// Skipped lists the rows --skip-invalid left out.
	Skipped []skippedRow `json:"skipped,omitempty"`
}

// runTune grid-searches a model's parameters on the warm-up part of a match
// CSV only, then scores the best point on the part after it (docs/spec.md 2.3).
func runTune(ctx context.Context, e invocation, args []string) error {
	fs := newFlagSet(e, "--data FILE --model M --grid k=a:b:step,... [--params k=v,...] [--warmup 0.8] [--burnin 0.5] [--skip-invalid] [--json]")
	data := fs.String("data", "", "match CSV with a header date,team1_p1,team1_p2,team2_p1,team2_p2,winner (docs/ratings.md); required")
	model := fs.String("model", rating.DefaultModel, "rating model: "+strings.Join(rating.ModelNames(), ", "))
	grid := fs.String("grid", "", "parameters to search, k=a:b:step or k=v, comma-separated; required")
	params := fs.String("params", "", "fixed parameters k=v,k=v over the model's defaults")
	warmup := fs.Float64("warmup", 0.8, "fraction of matches to tune on; the rest is only scored, in (0, 1)")
	burnin := fs.Float64("burnin", 0.5, "fraction of the tuning matches replayed but not scored while tuning, in [0, 1)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	skipInvalid := skipInvalidFlag(fs)
	if err := parseNoArgs(e, fs, args); err != nil {
		return err
	}
	switch {
	case *data == "":
		return usageError(e, fs, "--data is required")
	case *grid == "":
		return usageError(e, fs, "--grid is required")
	case !(*warmup > 0 && *warmup < 1):
		return usageError(e, fs, "--warmup must be in (0, 1), got %g", *warmup)
	case !(*burnin >= 0 && *burnin < 1):
		return usageError(e, fs, "--burnin must be in [0, 1), got %g", *burnin)
	}
	axes, err := tuneParseGrid(*grid)
	if err != nil {
		return fmt.Errorf("--grid: %w", err)
	}
	fixed, err := rating.ParseParams(*params)
	if err != nil {
		return fmt.Errorf("--params: %w", err)
	}
	points, err := tunePoints(*model, fixed, axes)
	if err != nil {
		return err
	}
	d, skipped, err := evalLoad(e, *data, *skipInvalid)
	if err != nil {
		return err
	}
	tuneEnd := rating.WarmupStart(d.Len(), *warmup)
	tuneStart := rating.WarmupStart(tuneEnd, *burnin)
	if tuneStart >= tuneEnd || tuneEnd >= d.Len() {
		return fmt.Errorf("%s too few to split with --warmup %g and --burnin %g", countVerb(d.Len(), "match"), *warmup, *burnin)
	}
	scores, err := tuneSearch(ctx, e, d, *model, points, tuneStart, tuneEnd)
	if err != nil {
		return err
	}
	best := 0
	for i, s := range scores {
		if s < scores[best] {
			best = i
		}
	}
	m, err := rating.NewModel(*model, points[best])
	if err != nil {
		return err
	}
	res, _ := d.Evaluate(m, *warmup)
	rep := tuneReport{Model: *model, Params: points[best], Points: len(points), TuneMatches: tuneEnd,
		TuneScored: tuneEnd - tuneStart, TuneLogLoss: scores[best],
		Eval: evalReport{Model: *model, Params: points[best], Matches: res.Matches, Scored: res.Scored,
			LogLoss: res.LogLoss, Brier: res.Brier, Accuracy: res.Accuracy, ECE: res.ECE},
		Skipped: skippedJSON(skipped)}
	if *asJSON {
		return json.NewEncoder(e.stdout).Encode(rep)
	}
	tunePrint(e, rep, axes, points, scores)
	return nil
}

// tuneParseGrid parses "k=a:b:step,k=v" into axes, in the given order.
func tuneParseGrid(s string) ([]tuneAxis, error) {
	var axes []tuneAxis
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		k, spec, ok := strings.Cut(part, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, fmt.Errorf("%q is not k=a:b:step or k=v", part)
		}
		if seen[k] {
			return nil, fmt.Errorf("parameter %s is given twice", k)
		}
		seen[k] = true
		fields := strings.Split(spec, ":")
		nums := make([]float64, len(fields))
		for i, f := range fields {
			x, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("%s: %q is not a finite number", k, f)
			}
			nums[i] = x
		}
		switch len(nums) {
		case 1:
			axes = append(axes, tuneAxis{k, nums})
		case 3:
			a, b, step := nums[0], nums[1], nums[2]
			if step <= 0 || b < a {
				return nil, fmt.Errorf("%s: want a ≤ b and step > 0 in a:b:step, got %s", k, spec)
			}
			n := math.Floor((b-a)/step+1e-9) + 1
			if n > tuneMaxPoints {
				return nil, fmt.Errorf("%s: %g values, more than %d", k, n, tuneMaxPoints)
			}
			vals := make([]float64, int(n))
			for i := range vals {
				// Round away the drift of repeated decimal steps.
				vals[i], _ = strconv.ParseFloat(strconv.FormatFloat(a+float64(i)*step, 'g', 12, 64), 64)
			}
			axes = append(axes, tuneAxis{k, vals})
		default:
			return nil, fmt.Errorf("%s: %q is not a:b:step or a single value", k, spec)
		}
	}
	return axes, nil
}

// tunePoints expands the grid over the fixed parameters, checking every
// point with the model's own validation.
func tunePoints(model string, fixed map[string]float64, axes []tuneAxis) ([]map[string]float64, error) {
	total := 1
	for _, a := range axes {
		if _, dup := fixed[a.key]; dup {
			return nil, fmt.Errorf("--grid and --params both set %s", a.key)
		}
		total *= len(a.values)
		if total > tuneMaxPoints {
			return nil, fmt.Errorf("--grid has more than %d points", tuneMaxPoints)
		}
	}
	points := make([]map[string]float64, 0, total)
	idx := make([]int, len(axes))
	for {
		p := make(map[string]float64, len(fixed)+len(axes))
		for k, v := range fixed {
			p[k] = v
		}
		for i, a := range axes {
			p[a.key] = a.values[idx[i]]
		}
		resolved, err := rating.ResolveParams(model, p)
		if err != nil {
			return nil, err
		}
		points = append(points, resolved)
		i := len(axes) - 1
		for ; i >= 0; i-- {
			idx[i]++
			if idx[i] < len(axes[i].values) {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			return points, nil
		}
	}
}

// tuneSearch scores every point on matches [start, end) after replaying
// [0, end), on as many goroutines as there are processors.
func tuneSearch(ctx context.Context, e invocation, d *rating.Dataset, model string, points []map[string]float64, start, end int) ([]float64, error) {
	scores := make([]float64, len(points))
	jobs := make(chan int)
	bar := progress(e, len(points), "tuning")
	var mu sync.Mutex
	var wg sync.WaitGroup
	var firstErr error
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			preds := make([]float64, end)
			for i := range jobs {
				m, err := rating.NewModel(model, points[i])
				if err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
					continue
				}
				d.Predict(m, end, preds)
				scores[i] = d.Score(preds, start, end).LogLoss
				if bar != nil {
					mu.Lock()
					_ = bar.Add(1)
					mu.Unlock()
				}
			}
		}()
	}
	for i := range points {
		if ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if bar != nil {
		_ = bar.Finish()
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("tune: %w", err)
	}
	return scores, firstErr
}

func tunePrint(e invocation, rep tuneReport, axes []tuneAxis, points []map[string]float64, scores []float64) {
	w := e.stdout
	fmt.Fprintf(w, "model       %s\n", rep.Model)
	fmt.Fprintf(w, "grid        %s over %s\n", count(rep.Points, "point"), tuneAxisNames(axes))
	fmt.Fprintf(w, "tuned on    matches 0 to %d, scored from %d (log loss %.4f)\n", rep.TuneMatches-1, rep.TuneMatches-rep.TuneScored, rep.TuneLogLoss)
	fmt.Fprintf(w, "best params %s\n", evalFormatParams(rep.Params))
	fmt.Fprintf(w, "\nscored part (matches %d to %d, never seen while tuning):\n", rep.Eval.Matches-rep.Eval.Scored, rep.Eval.Matches-1)
	fmt.Fprintf(w, "log loss    %.4f\nbrier       %.4f\naccuracy    %.4f\nece         %.4f\n", rep.Eval.LogLoss, rep.Eval.Brier, rep.Eval.Accuracy, rep.Eval.ECE)
	order := make([]int, len(points))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return scores[order[i]] < scores[order[j]] })
	fmt.Fprintln(w, "\nbest points on the tuning part:")
	for _, i := range order[:min(5, len(order))] {
		var parts []string
		for _, a := range axes {
			parts = append(parts, a.key+"="+strconv.FormatFloat(points[i][a.key], 'g', -1, 64))
		}
		fmt.Fprintf(w, "  %.5f  %s\n", scores[i], strings.Join(parts, ","))
	}
}

func tuneAxisNames(axes []tuneAxis) string {
	names := make([]string, len(axes))
	for i, a := range axes {
		names[i] = a.key
	}
	return strings.Join(names, ", ")
}
