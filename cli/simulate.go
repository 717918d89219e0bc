package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"text/tabwriter"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"github.com/ladderbot/ladderbot/sim"
)

// runSimulate runs a whole season offline through the real service and
// storage (docs/spec.md 8) and prints the final leaderboard or, with --json, the
// metrics. Every flag is checked before a database is opened, so a typo
// never leaves a migrated --db file behind.
func runSimulate(ctx context.Context, e invocation, args []string) error {
	d := sim.Defaults()
	fs := newFlagSet(e, "[flags]")
	players := fs.Int("players", d.Players, "population size")
	days := fs.Int("days", d.Days, "simulated days")
	teamSize := fs.Int("team-size", d.TeamSize, fmt.Sprintf("players per team (1 to %d)", rating.MaxTeamSize))
	model := fs.String("model", d.Model, "rating model: "+strings.Join(rating.ModelNames(), ", "))
	params := fs.String("params", "", "model parameters k=v,k=v over the model's defaults, e.g. placement_games=10 (seed 002's calibration matches)")
	seed := fs.Uint64("seed", d.Seed, "random seed; the same seed gives the same season")
	qStart := fs.Float64("q-start", d.QStart, "minimum match quality while the anchor has just joined")
	qFloor := fs.Float64("q-floor", d.QFloor, "minimum match quality after the last bucket; 0 matches immediately")
	skillSD := fs.Float64("skill-sd", d.SkillSD, "spread of hidden true skill around 1500 (Elo scale)")
	active := fs.Float64("active", d.ActiveProb, "chance that a player plays on a given day")
	games := fs.Float64("games", d.GamesPerSession, "mean matches per evening session")
	noShow := fs.Float64("no-show", d.NoShow, "chance that a player misses a formed match's ready check (0 to below 1)")
	pickMode := fs.String("pick-mode", "balanced", "how teams are made: balanced, or captains (the two best rated draft, each picking the best rated left)")
	parties := fs.Float64("parties", d.Parties, "share of players who queue as premade pairs (0 to 1; teams of 2 or more)")
	synergy := fs.Float64("party-synergy", 100, "with --parties, how much stronger (Elo points per player) a pair plays on one team")
	partyMax := fs.Float64("party-max-weight", 0, "the queue's party rating: weight of a party's best player (0-10; 0 and 0 off)")
	partyMed := fs.Float64("party-median-weight", 0, "the queue's party rating: weight of its median player (0-10)")
	ordDev := fs.Float64("ordinal-deviations", 3, "the queue's party rating: RDs taken off (0-10)")
	cheaters := fs.String("cheaters", "", "inject cheaters kind=N,… (kinds win-trade: rings of 2×team-size accounts, smurf, boost) and score the integrity flags")
	latePlayers := fs.Int("late-players", 0, "ordinary players who arrive a third into the season, when the cheaters do: new accounts the integrity flags must leave alone")
	dsn := fs.String("db", "", "keep the season in this database (sqlite:PATH or postgres://…) to serve it; default a temporary database removed at the end: in memory, or a SQLite file for a season of more than 60,000 player-days (players × days)")
	asJSON := fs.Bool("json", false, "print the metrics as JSON instead of the leaderboard")
	plotDir := fs.String("plot", "", "write PNG charts (rating trajectories, waits, calibration) into this directory")
	bestOf := fs.Int("best-of", 1, "play each match as a best-of-N series (1, 3 or 5), rated once; above 1, the same season in single games is played too, to compare")
	logLevel := fs.String("log-level", "", "log level of the storage: debug, info, warn or error (default: LOG_LEVEL)")
	if err := parseNoArgs(e, fs, args); err != nil {
		return err
	}
	// A season is one batch of short-lived allocations (rows read and
	// dropped per statement) over a small live heap: collecting at 4× the
	// live heap instead of 2× spends less CPU on the collector, for a peak
	// of about 100 MB instead of 70 MB. GOGC, when set, still decides.
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(400))
	}
	// The queue the season plays on, checked by the rules /config applies.
	q := ladder.NewQueue(sim.GuildID, "simulate", *teamSize)
	q.Model, q.QStart, q.QFloor = *model, *qStart, *qFloor
	p, err := rating.ParseParams(*params)
	if err == nil {
		_, err = rating.ResolveParams(*model, p)
	}
	if err != nil {
		return usageError(e, fs, "--params: %v", err)
	}
	q.Params = p
	q.PartyMaxWeight, q.PartyMedianWeight, q.OrdinalDeviations = *partyMax, *partyMed, *ordDev
	if err := q.Validate(); err != nil {
		return usageError(e, fs, "%s", sentence(e.name, err))
	}
	if *bestOf != 1 && *bestOf != 3 && *bestOf != 5 {
		return usageError(e, fs, "--best-of must be 1, 3 or 5, not %d", *bestOf)
	}
	cheat, err := sim.ParseCheaters(*cheaters)
	if err != nil {
		return usageError(e, fs, "--cheaters: %v", err)
	}
	if *dsn != "" {
		if err := validateDatabaseURL("--db", *dsn); err != nil {
			return usageError(e, fs, "%v", err)
		}
	}
	if *logLevel != "" {
		if _, err := parseLogLevel(*logLevel); err != nil {
			return usageError(e, fs, "--log-level %q: want debug, info, warn or error", *logLevel)
		}
		e.cfg.LogLevel = *logLevel
	}
	logger, err := newLogger(e.cfg, e.stderr)
	if err != nil {
		return err
	}
	cfg := sim.Config{Players: *players, Days: *days, TeamSize: *teamSize, Model: *model, Params: p, Seed: *seed,
		QStart: *qStart, QFloor: *qFloor, DSN: *dsn, SkillSD: *skillSD, ActiveProb: *active, GamesPerSession: *games, NoShow: *noShow, PickMode: ladder.PickMode(*pickMode), Log: logger,
		Cheaters: cheat, LatePlayers: *latePlayers, Parties: *parties, PartySynergy: *synergy, PartyMaxWeight: *partyMax, PartyMedianWeight: *partyMed, OrdinalDeviations: *ordDev,
		BestOf: *bestOf, Exact: true}
	var base *sim.Baseline
	if *bestOf > 1 {
		// The same season in single games, on a scratch database, for the
		// comparison: same seed, same players, same evenings.
		one := cfg
		one.BestOf, one.DSN = 1, ""
		if bar := progress(e, one.Days, "simulating days, best of 1"); bar != nil {
			one.Progress = func(day, _ int) { _ = bar.Set(day) }
			defer bar.Finish()
		}
		r1, err := sim.Run(ctx, one)
		if err != nil {
			return err
		}
		base = &sim.Baseline{Matches: r1.Matches, Brier: r1.Brier, Spearman: r1.Spearman}
	}
	if bar := progress(e, cfg.Days, fmt.Sprintf("simulating days, best of %d", *bestOf)); bar != nil {
		cfg.Progress = func(day, _ int) { _ = bar.Set(day) }
		defer bar.Finish()
	}
	res, err := sim.Run(ctx, cfg)
	if err != nil {
		return err
	}
	res.BestOf1 = base
	if *plotDir != "" {
		if err := sim.Plot(*plotDir, res); err != nil {
			return err
		}
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return err
		}
		// stdout is the JSON object alone; where to look goes beside it.
		printWhereToLook(e.stderr, *dsn, e.cfg.HTTPAddr)
		return nil
	}
	printSimulation(e.stdout, res)
	printWhereToLook(e.stdout, *dsn, e.cfg.HTTPAddr)
	return nil
}

// printWhereToLook names the guild the season was written to and, when the
// database outlives the run (--db), the command that serves it and the page
// to open on addr (HTTP_ADDR, where serve listens). A password in dsn is
// masked: the operator has it, the terminal's scrollback need not.
func printWhereToLook(w io.Writer, dsn, addr string) {
	if dsn == "" {
		fmt.Fprintf(w, "\nThe season of guild %s ran on a temporary database, now removed. To look at it on the web page,\n"+
			"run again with --db sqlite:sim.db, then serve that file.\n", sim.GuildID)
		return
	}
	dsn = redactURL(dsn)
	fmt.Fprintf(w, "\nWrote guild %s to %s. To look at it, run\n\n  DATABASE_URL=%s ladderbot serve\n\n"+
		"and open http://%s/guilds/%s\n", sim.GuildID, dsn, shellQuote(dsn), addr, sim.GuildID)
}

// shellQuote quotes s for a POSIX shell when it holds anything but plain
// URL and path characters.
func shellQuote(s string) string {
	safe := func(r rune) bool {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("@%+=:,./-_", r)
	}
	for _, r := range s {
		if !safe(r) {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}

func printSimulation(w io.Writer, r *sim.Result) {
	skill := map[string]float64{}
	for _, p := range r.Players {
		skill[p.UserID] = p.Skill
	}
	fmt.Fprintf(w, "Final leaderboard (%d listed of %s; provisional and stale players are not listed)\n\n", len(r.Leaderboard), count(len(r.Players), "player"))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "rank\tplayer\trating\t± RD\tGXE\tdivision\tW-L\ttrue skill\t")
	for _, s := range r.Leaderboard {
		fmt.Fprintf(tw, "%d\t%s\t%.1f\t%.1f\t%.1f\t%s\t%d-%d\t%.0f\t\n", s.Rank, s.Name, s.Rating, s.RD, s.GXE, s.Division, s.Wins, s.Losses, skill[s.UserID])
	}
	tw.Flush()
	fmt.Fprintf(w, "\n%s; wait p50 %.0f s, p95 %.0f s; mean quality %.3f; mean |P−0.5| %.3f; Brier %.4f; Spearman vs true skill %.3f; %s expired; %s cancelled by a missed ready check; ratings verified: %v\n",
		count(r.Matches, "match"), r.WaitP50, r.WaitP95, r.MeanQuality, r.MeanAbsPMinusHalf, r.Brier, r.Spearman, count(r.Expired, "ticket"), count(r.ReadyFailed, "match"), r.Verified)
	if b := r.BestOf1; b != nil {
		fmt.Fprintf(w, "best of %d, one rated result per series: Spearman vs true skill %.3f over %s; the same season in single games: %.3f over %s\n",
			r.BestOf, r.Spearman, fmt.Sprintf("%d series", r.Matches), b.Spearman, count(b.Matches, "match"))
	}
	printPlacement(w, r.Placement)
	if in := r.Integrity; in.Cheaters > 0 || in.Flags > 0 {
		fmt.Fprintf(w, "integrity: %d of %s flagged (recall %.2f); %s, %d naming no cheater\n",
			in.Found, count(in.Cheaters, "injected cheater"), r.IntegrityRecall, count(in.Flags, "flag"), in.FalseFlags)
	}
	if ps := r.Parties; ps.Pairs > 0 {
		fmt.Fprintf(w, "parties: %s; %s with more pairs on one team: that team won %.3f, the model predicted %.3f, true skill %.3f; true |P−0.5| %.3f (other matches %.3f)\n",
			count(ps.Pairs, "premade pair"), count(ps.Matches, "match"), ps.WinShare, ps.Predicted, ps.True, ps.TrueGap, ps.TrueGapOthers)
	}
}

// printPlacement prints how far newcomers' levels were from their true
// skill after 1, 2, 3… matches and the true-skill gap of the matches.
func printPlacement(w io.Writer, pl sim.Placement) {
	if len(pl.Error) == 0 {
		return
	}
	fmt.Fprintf(w, "placement: mean |level − true skill| (Elo points; line fitted on %s with 30+ games) after", count(pl.Settled, "player"))
	for i, g := range sim.PlacementGames {
		fmt.Fprintf(w, " %d: %.0f;", g, pl.Error[i])
	}
	fmt.Fprintf(w, " mean true |P−0.5| %.3f (with newcomers %.3f, without %.3f)\n", pl.TrueGap, pl.TrueGapWithNewcomers, pl.TrueGapEstablished)
}
