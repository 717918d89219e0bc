package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/ladderbot/ladderbot/sim"
	"github.com/schollz/progressbar/v3"
)

// runSimulate runs a whole season offline through the real service and
// storage (SPEC 8) and prints the final leaderboard or, with --json, the metrics.
func runSimulate(ctx context.Context, e cli, args []string) error {
	d := sim.Defaults()
	fs := newFlagSet(e, "simulate", "[flags]")
	players := fs.Int("players", d.Players, "population size")
	days := fs.Int("days", d.Days, "simulated days")
	teamSize := fs.Int("team-size", d.TeamSize, "players per team (1 to 8)")
	model := fs.String("model", d.Model, "rating model: team-glicko, elo, synelo, glicko, openskill, trueskill")
	seed := fs.Uint64("seed", d.Seed, "random seed; the same seed gives the same season")
	qStart := fs.Float64("q-start", d.QStart, "minimum match quality while the anchor has just joined")
	qFloor := fs.Float64("q-floor", d.QFloor, "minimum match quality after the last bucket; 0 matches immediately")
	skillSD := fs.Float64("skill-sd", d.SkillSD, "spread of hidden true skill around 1500 (Elo scale)")
	active := fs.Float64("active", d.ActiveProb, "chance that a player plays on a given day")
	games := fs.Float64("games", d.GamesPerSession, "mean matches per evening session")
	dsn := fs.String("db", "", "database URL (sqlite:PATH or postgres://…); default a temporary SQLite file")
	asJSON := fs.Bool("json", false, "print the metrics as JSON instead of the leaderboard")
	plotDir := fs.String("plot", "", "write PNG charts (rating trajectories, waits, calibration) into this directory")
	fs.StringVar(&e.cfg.LogLevel, "log-level", e.cfg.LogLevel, "log level of the storage")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "ladderbot simulate: unexpected argument %q\n", fs.Arg(0))
		return errUsage
	}
	cfg := sim.Config{Players: *players, Days: *days, TeamSize: *teamSize, Model: *model, Seed: *seed,
		QStart: *qStart, QFloor: *qFloor, DSN: *dsn, SkillSD: *skillSD, ActiveProb: *active, GamesPerSession: *games, Log: e.log}
	if f, ok := e.stderr.(*os.File); ok && isTerminal(f) {
		bar := progressbar.NewOptions(cfg.Days, progressbar.OptionSetWriter(e.stderr), progressbar.OptionSetDescription("simulating days"),
			progressbar.OptionClearOnFinish())
		cfg.Progress = func(day, _ int) { bar.Set(day) }
		defer bar.Finish()
	}
	res, err := sim.Run(ctx, cfg)
	if err != nil {
		return err
	}
	if *plotDir != "" {
		if err := sim.Plot(*plotDir, res); err != nil {
			return err
		}
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	printSimulation(e.stdout, res)
	return nil
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func printSimulation(w io.Writer, r *sim.Result) {
	skill := map[string]float64{}
	for _, p := range r.Players {
		skill[p.UserID] = p.Skill
	}
	fmt.Fprintf(w, "Final leaderboard (%d listed of %d players; provisional and stale players are not listed)\n\n", len(r.Leaderboard), len(r.Players))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "rank\tplayer\trating\t± RD\tGXE\tdivision\tW-L\ttrue skill\t")
	for _, s := range r.Leaderboard {
		fmt.Fprintf(tw, "%d\t%s\t%.1f\t%.1f\t%.1f\t%s\t%d-%d\t%.0f\t\n", s.Rank, s.Name, s.Rating, s.RD, s.GXE, s.Division, s.Wins, s.Losses, skill[s.UserID])
	}
	tw.Flush()
	fmt.Fprintf(w, "\n%d matches; wait p50 %.0f s, p95 %.0f s; mean quality %.3f; mean |P−0.5| %.3f; Brier %.4f; Spearman vs true skill %.3f; %d tickets expired; ratings verified: %v\n",
		r.Matches, r.WaitP50, r.WaitP95, r.MeanQuality, r.MeanAbsPMinusHalf, r.Brier, r.Spearman, r.Expired, r.Verified)
}
