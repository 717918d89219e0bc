package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/ladderbot/ladderbot/internal/chart"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

// evalReport is the --json output of eval (docs/spec.md 2.3).
type evalReport struct {
	Model    string             `json:"model"`
	Params   map[string]float64 `json:"params"`
	Matches  int                `json:"matches"`
	Scored   int                `json:"scored"`
	LogLoss  float64            `json:"log_loss"`
	Brier    float64            `json:"brier"`
	Accuracy float64            `json:"accuracy"`
	ECE      float64            `json:"ece"`
	// Skipped lists the rows --skip-invalid left out.
	Skipped []skippedRow `json:"skipped,omitempty"`
	// AutoTune describes the learning of --auto-tune.
	AutoTune *autoTuneReport `json:"auto_tune,omitempty"`
	// Newcomers splits the score by --newcomers.
	Newcomers *newcomerReport `json:"newcomers,omitempty"`
}

// newcomerReport is the --newcomers split of the scored matches: those with
// a player who had played fewer than Games matches before, and the others.
type newcomerReport struct {
	Games         int     `json:"games"`
	Matches       int     `json:"matches"`
	LogLoss       float64 `json:"log_loss"`
	Brier         float64 `json:"brier"`
	Others        int     `json:"others"`
	OthersLogLoss float64 `json:"others_log_loss"`
	OthersBrier   float64 `json:"others_brier"`
}

// autoTuneReport is what --auto-tune learnt: the constants in force at the
// end, the calibration map p' = σ(a·logit p + b), and every tuning round.
type autoTuneReport struct {
	Params       map[string]float64 `json:"params"`
	CalibrationA float64            `json:"calibration_a"`
	CalibrationB float64            `json:"calibration_b"`
	Rounds       []autoTuneRound    `json:"rounds"`
}

// autoTuneRound is one self-tuning round: after how many matches, the
// fitted constants, and the adoption rule's verdict on the recent part.
type autoTuneRound struct {
	At        int                `json:"at"`
	Candidate map[string]float64 `json:"candidate"`
	Gain      float64            `json:"gain"`
	SE        float64            `json:"se"`
	Adopted   bool               `json:"adopted"`
}

// runEval replays a match CSV with one model and scores its predictions on
// the part after the warm-up (docs/spec.md 2.3).
func runEval(ctx context.Context, e invocation, args []string) error {
	fs := newFlagSet(e, "--data FILE [--model M] [--params k=v,...] [--warmup 0.8] [--auto-tune [--retune-every N]] [--skip-invalid] [--predictions OUT.csv] [--plot FILE.png] [--json]")
	data := fs.String("data", "", "match CSV with a header date,team1_p1,team1_p2,team2_p1,team2_p2,winner (docs/ratings.md); required")
	model := fs.String("model", rating.DefaultModel, "rating model: "+strings.Join(rating.ModelNames(), ", "))
	params := fs.String("params", "", "model parameters as k=v,k=v over the model's defaults")
	warmup := fs.Float64("warmup", 0.8, "fraction of matches replayed but not scored, in [0, 1)")
	predictions := fs.String("predictions", "", "write seq,p_team1 for every match to this CSV")
	plot := fs.String("plot", "", "write a reliability diagram of the scored matches to this PNG")
	asJSON := fs.Bool("json", false, "print one JSON object instead of tables")
	autoTune := fs.Bool("auto-tune", false, "predict as a queue left to learn by itself: re-fit the model's constants on the warm-up so far, adopt them only when they win by two paired SE, and calibrate every prediction online (docs/ratings.md)")
	retune := fs.Int("retune-every", 0, "with --auto-tune, matches between tuning rounds; 0 is a tenth of the warm-up, at least 1000")
	newcomers := fs.Int("newcomers", 0, "also score separately the matches with a player who had played fewer than N matches before (placement), and the others; 0 is off")
	skipInvalid := skipInvalidFlag(fs)
	if err := parseNoArgs(e, fs, args); err != nil {
		return err
	}
	if *data == "" {
		return usageError(e, fs, "--data is required")
	}
	if *newcomers < 0 {
		return usageError(e, fs, "--newcomers must be a number of matches ≥ 0, got %d", *newcomers)
	}
	if !(*warmup >= 0 && *warmup < 1) {
		return usageError(e, fs, "--warmup must be in [0, 1), got %g", *warmup)
	}
	if *retune < 0 || (*retune > 0 && !*autoTune) {
		return usageError(e, fs, "--retune-every wants --auto-tune and a number of matches ≥ 0, got %d", *retune)
	}
	m, resolved, err := evalModel(*model, *params)
	if err != nil {
		return err
	}
	d, skipped, err := evalLoad(e, *data, *skipInvalid)
	if err != nil {
		return err
	}
	start := rating.WarmupStart(d.Len(), *warmup)
	if start >= d.Len() {
		return fmt.Errorf("%s has %s, none left to score after --warmup %g", *data, count(d.Len(), "match"), *warmup)
	}
	var res rating.EvalResult
	var preds []float64
	var auto *autoTuneReport
	if *autoTune {
		ar, err := d.AutoEvaluate(ctx, rating.AutoOptions{Model: *model, Params: resolved, Warmup: *warmup,
			Tune: true, Every: *retune, Calibrate: true})
		if err != nil {
			return err
		}
		res, preds, auto = ar.EvalResult, ar.Preds, autoReport(ar)
	} else {
		preds = make([]float64, d.Len())
		bar := progress(e, d.Len(), "replaying")
		d.PredictProgress(m, d.Len(), preds, 4096, func(done int) {
			if bar != nil {
				_ = bar.Set(done)
			}
		})
		if bar != nil {
			_ = bar.Finish()
		}
		res = d.Score(preds, start, d.Len())
	}
	if *predictions != "" {
		if err := writeAtomic(*predictions, func(w io.Writer) error { return evalWritePredictions(w, d, preds) }); err != nil {
			return fmt.Errorf("eval: write predictions: %w", err)
		}
	}
	if *plot != "" {
		if err := evalWriteReliability(*plot, *model, res); err != nil {
			return fmt.Errorf("eval: plot: %w", err)
		}
	}
	rep := evalReport{Model: *model, Params: resolved, Matches: res.Matches, Scored: res.Scored,
		LogLoss: res.LogLoss, Brier: res.Brier, Accuracy: res.Accuracy, ECE: res.ECE,
		Skipped: skippedJSON(skipped), AutoTune: auto}
	if *newcomers > 0 {
		nw, est := d.ScoreSplit(preds, d.Newcomers(*newcomers, d.Len()), start, d.Len())
		rep.Newcomers = &newcomerReport{Games: *newcomers, Matches: nw.Scored, LogLoss: nw.LogLoss, Brier: nw.Brier,
			Others: est.Scored, OthersLogLoss: est.LogLoss, OthersBrier: est.Brier}
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		return enc.Encode(rep)
	}
	evalPrint(e.stdout, rep, start, res)
	return nil
}

// autoReport summarises an auto evaluation for the report.
func autoReport(ar rating.AutoResult) *autoTuneReport {
	rep := &autoTuneReport{Params: ar.Params, CalibrationA: ar.Calibrator.W[0], CalibrationB: ar.Calibrator.W[1],
		Rounds: []autoTuneRound{}}
	for _, r := range ar.Rounds {
		rep.Rounds = append(rep.Rounds, autoTuneRound{At: r.At, Candidate: r.Candidate, Gain: r.Gain, SE: r.SE, Adopted: r.Adopt})
	}
	return rep
}

// evalModel builds the model and returns every parameter it uses.
func evalModel(name, params string) (rating.Model, map[string]float64, error) {
	p, err := rating.ParseParams(params)
	if err != nil {
		return nil, nil, fmt.Errorf("--params: %w", err)
	}
	resolved, err := rating.ResolveParams(name, p)
	if err != nil {
		return nil, nil, err
	}
	m, err := rating.NewModel(name, resolved)
	if err != nil {
		return nil, nil, err
	}
	return m, resolved, nil
}

// evalLoad reads and prepares a match CSV; a malformed row fails the
// whole file with its line number, unless skipInvalid leaves it out.
func evalLoad(e invocation, path string, skipInvalid bool) (*rating.Dataset, []rating.SkippedRow, error) {
	recs, skipped, err := readMatchFile(e, path, skipInvalid)
	if err != nil {
		return nil, nil, err
	}
	if len(recs) == 0 {
		return nil, nil, fmt.Errorf("%s: no matches", path)
	}
	d, err := rating.NewDataset(recs)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, skipped, nil
}

func evalWritePredictions(w io.Writer, d *rating.Dataset, preds []float64) error {
	buf := make([]byte, 0, 64*len(preds)+16)
	buf = append(buf, "seq,p_team1\n"...)
	for i, r := range d.Records {
		buf = strconv.AppendInt(buf, int64(r.Seq), 10)
		buf = append(buf, ',')
		buf = strconv.AppendFloat(buf, preds[i], 'g', -1, 64)
		buf = append(buf, '\n')
	}
	_, err := w.Write(buf)
	return err
}

func evalWriteReliability(path, model string, res rating.EvalResult) error {
	var meanP, wins []float64
	var counts []int
	for _, b := range res.Bins {
		meanP, wins, counts = append(meanP, b.MeanP), append(wins, b.MeanWins), append(counts, b.Count)
	}
	title := fmt.Sprintf("%s: %d scored matches, ECE %.4f", model, res.Scored, res.ECE)
	return writeAtomic(path, func(w io.Writer) error { return chart.Reliability(w, title, meanP, wins, counts) })
}

func evalFormatParams(p map[string]float64) string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + strconv.FormatFloat(p[k], 'g', -1, 64)
	}
	return strings.Join(parts, ",")
}

func evalPrint(w io.Writer, rep evalReport, start int, res rating.EvalResult) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "model\t%s\n", rep.Model)
	fmt.Fprintf(tw, "params\t%s\n", evalFormatParams(rep.Params))
	fmt.Fprintf(tw, "matches\t%d\n", rep.Matches)
	fmt.Fprintf(tw, "scored\t%d (matches %d to %d)\n", rep.Scored, start, rep.Matches-1)
	fmt.Fprintf(tw, "log loss\t%.4f\n", rep.LogLoss)
	fmt.Fprintf(tw, "brier\t%.4f\n", rep.Brier)
	fmt.Fprintf(tw, "accuracy\t%.4f\n", rep.Accuracy)
	fmt.Fprintf(tw, "ece\t%.4f\n", rep.ECE)
	if n := rep.Newcomers; n != nil {
		split := func(label string, count int, ll, brier float64) {
			if count == 0 {
				fmt.Fprintf(tw, "%s\tno scored matches\n", label)
				return
			}
			fmt.Fprintf(tw, "%s\t%d matches: log loss %.4f, brier %.4f\n", label, count, ll, brier)
		}
		split(fmt.Sprintf("with a newcomer (< %d before)", n.Games), n.Matches, n.LogLoss, n.Brier)
		split("without a newcomer", n.Others, n.OthersLogLoss, n.OthersBrier)
	}
	if a := rep.AutoTune; a != nil {
		fmt.Fprintf(tw, "auto-tuned params\t%s\n", evalFormatParams(a.Params))
		sign, b := "+", a.CalibrationB
		if b < 0 {
			sign, b = "−", -b
		}
		fmt.Fprintf(tw, "calibration\tp' = σ(%.4f·logit p %s %.4f)\n", a.CalibrationA, sign, b)
	}
	tw.Flush()
	if a := rep.AutoTune; a != nil && len(a.Rounds) > 0 {
		fmt.Fprintln(w, "\ntuning rounds (gain: log loss per match on the recent part, adopted beyond 2 SE):")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "after\tgain\tSE\tadopted\tfitted")
		for _, r := range a.Rounds {
			fmt.Fprintf(tw, "%d\t%+.5f\t%.5f\t%t\t%s\n", r.At, r.Gain, r.SE, r.Adopted, evalFormatParams(r.Candidate))
		}
		tw.Flush()
	}
	fmt.Fprintln(w, "\ncalibration of the scored matches:")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "p_team1\tmatches\tmean p\tteam 1 won\t")
	for _, b := range res.Bins {
		if b.Count == 0 {
			fmt.Fprintf(tw, "%.1f–%.1f\t0\t-\t-\t\n", b.Lo, b.Hi)
			continue
		}
		fmt.Fprintf(tw, "%.1f–%.1f\t%d\t%.3f\t%.3f\t\n", b.Lo, b.Hi, b.Count, b.MeanP, b.MeanWins)
	}
	tw.Flush()
}
