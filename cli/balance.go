package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/matchmaking"
)

// balanceJSON is one split as `ladderbot balance --json` prints it (docs/spec.md 8):
// a, b and sit_out are 0-based indexes into the ratings given.
type balanceJSON struct {
	TeamSize int     `json:"team_size"`
	Gap      float64 `json:"gap"`
	A        []int   `json:"a"`
	B        []int   `json:"b"`
	SitOut   []int   `json:"sit_out"`
	SumA     float64 `json:"sum_a"`
	SumB     float64 `json:"sum_b"`
	Exact    bool    `json:"exact"`
}

// runBalance prints the optimal split of a lobby's ratings (docs/spec.md 3 and 8).
func runBalance(ctx context.Context, e invocation, args []string) error {
	fs := newFlagSet(e, "[--json] [--size K | --all-sizes] R1 R2 … RN")
	asJSON := fs.Bool("json", false, "print JSON: gap, a, b, sit_out (0-based indexes), team_size, sum_a, sum_b, exact")
	size := fs.Int("size", 0, "players per team (default ⌊N/2⌋; the rest sit out)")
	all := fs.Bool("all-sizes", false, "print the best split for every team size from 2 to ⌊N/2⌋")
	if err := parseFlags(e, fs, numbersLast(fs, args)); err != nil {
		return err
	}
	if fs.NArg() < 2 {
		return usageError(e, fs, "give at least two ratings")
	}
	sizeGiven := false
	fs.Visit(func(f *flag.Flag) { sizeGiven = sizeGiven || f.Name == "size" })
	if *all && sizeGiven {
		return usageError(e, fs, "--size and --all-sizes exclude each other")
	}
	if sizeGiven && *size == 0 {
		// 0 is only the flag's way of saying "not given"; a size given
		// is the size meant, and none is 0.
		return fmt.Errorf("team size must be from 1 to %d for %d players, not 0", fs.NArg()/2, fs.NArg())
	}
	ratings := make([]float64, fs.NArg())
	for i, a := range fs.Args() {
		r, err := strconv.ParseFloat(strings.TrimSpace(a), 64)
		if err != nil {
			return fmt.Errorf("rating %d (%q) is not a number", i+1, a)
		}
		ratings[i] = r
	}
	var splits []matchmaking.Split
	var err error
	if *all {
		splits, err = matchmaking.BalanceAllSizes(ratings)
	} else {
		var s matchmaking.Split
		s, err = matchmaking.BalanceLobby(ratings, *size)
		splits = []matchmaking.Split{s}
	}
	if err != nil {
		return fmt.Errorf("%s", ladder.ErrorMessage(err))
	}
	if *asJSON {
		return printBalanceJSON(e.stdout, splits, *all)
	}
	for i, s := range splits {
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		printBalance(e.stdout, ratings, s)
	}
	return nil
}

// numbersLast moves the arguments that are numbers — a negative rating
// such as -2.5 included (an OpenSkill ordinal can be one) — behind "--",
// where the flag package reads them as values instead of unknown flags.
// A flag's own value stays with it ("--size 3"), and flags may come after
// the ratings.
func numbersLast(fs *flag.FlagSet, args []string) []string {
	var flags, values []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			values = append(values, args[i+1:]...)
			break
		}
		if _, err := strconv.ParseFloat(a, 64); err == nil || !strings.HasPrefix(a, "-") {
			values = append(values, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		if f := fs.Lookup(name); f != nil && !isBoolFlag(f) && i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	return append(append(flags, "--"), values...)
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

func printBalanceJSON(w io.Writer, splits []matchmaking.Split, list bool) error {
	out := make([]balanceJSON, len(splits))
	for i, s := range splits {
		out[i] = balanceJSON{TeamSize: len(s.A), Gap: s.Gap, A: s.A, B: s.B, SitOut: s.SitOut, SumA: s.SumA, SumB: s.SumB, Exact: s.Exact}
	}
	enc := json.NewEncoder(w)
	if list {
		return enc.Encode(out)
	}
	return enc.Encode(out[0])
}

// printBalance writes a split for people: players by their 1-based position
// on the command line, with their ratings.
func printBalance(w io.Writer, ratings []float64, s matchmaking.Split) {
	team := func(idx []int) string {
		parts := make([]string, len(idx))
		for i, j := range idx {
			parts[i] = fmt.Sprintf("#%d (%s)", j+1, strconv.FormatFloat(ratings[j], 'f', -1, 64))
		}
		return strings.Join(parts, ", ")
	}
	how := "optimal"
	if !s.Exact {
		how = "best found by the bounded search, not proven optimal"
	}
	fmt.Fprintf(w, "%dv%d, gap %s (%s)\n", len(s.A), len(s.B), strconv.FormatFloat(s.Gap, 'f', -1, 64), how)
	fmt.Fprintf(w, "Team A, sum %s: %s\n", strconv.FormatFloat(s.SumA, 'f', -1, 64), team(s.A))
	fmt.Fprintf(w, "Team B, sum %s: %s\n", strconv.FormatFloat(s.SumB, 'f', -1, 64), team(s.B))
	if len(s.SitOut) > 0 {
		fmt.Fprintf(w, "Sits out: %s\n", team(s.SitOut))
	}
}
