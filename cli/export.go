package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

// runExport writes a guild's rated matches as match CSV (docs/spec.md 2.3, 8) to
// stdout or --out, in replay order.
func runExport(ctx context.Context, e invocation, args []string) error {
	fs := newFlagSet(e, "--guild ID [--queue NAME] [--season N] [--out FILE.csv]")
	guild := fs.String("guild", "", "Discord guild ID; required")
	queue := fs.String("queue", "", "queue name; default the guild's default queue")
	season := fs.Int("season", 0, "one season's matches; default every season")
	out := fs.String("out", "", "write to this file instead of stdout")
	if err := parseNoArgs(e, fs, args); err != nil {
		return err
	}
	if err := checkGuild(e, fs, *guild); err != nil {
		return err
	}
	seasonGiven := false
	fs.Visit(func(f *flag.Flag) { seasonGiven = seasonGiven || f.Name == "season" })
	if *season < 0 || (seasonGiven && *season == 0) {
		// Seasons count from 1; 0 is only the flag's "every season".
		return usageError(e, fs, "--season must be a positive number")
	}
	if *out != "" {
		if err := checkOutPath("--out", *out); err != nil {
			return err
		}
	}
	db, err := openExisting(ctx, e)
	if err != nil {
		return err
	}
	defer db.Close()
	svc := ladder.NewService(db, nil)
	recs, err := svc.ExportMatches(ctx, *guild, *queue, *season)
	if err != nil {
		return err
	}
	if len(recs) == 0 && *queue == "" {
		if err := hintOtherQueues(ctx, e, svc, *guild, *season); err != nil {
			return err
		}
	}
	if *out == "" {
		return rating.WriteMatchCSV(e.stdout, recs)
	}
	return writeAtomic(*out, func(w io.Writer) error { return rating.WriteMatchCSV(w, recs) })
}

// hintOtherQueues tells on stderr which queues do hold matches when the
// default queue holds none, so that an operator who imported a history of
// singles (which went to a queue of its own size) and exports it without
// --queue learns why the file has only its header. The CSV is unchanged.
func hintOtherQueues(ctx context.Context, e invocation, svc *ladder.Service, guild string, season int) error {
	queues, err := svc.Queues(ctx, guild)
	if err != nil {
		return err
	}
	var held []string
	for _, q := range queues {
		recs, err := svc.ExportMatches(ctx, guild, q.Name, season)
		if err != nil {
			return err
		}
		if len(recs) > 0 {
			held = append(held, fmt.Sprintf("%s (%s, --queue %s)", q.Name, count(len(recs), "match"), q.Name))
		}
	}
	if len(held) > 0 {
		fmt.Fprintf(e.stderr, "ladderbot %s: the default queue has no matches to export; matches are in %s\n",
			e.name, strings.Join(held, ", "))
	}
	return nil
}
