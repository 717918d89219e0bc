package cli

import (
	"context"
	"io"

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
	if *season < 0 {
		return usageError(e, fs, "--season must be a positive number")
	}
	db, err := openDB(ctx, e)
	if err != nil {
		return err
	}
	defer db.Close()
	recs, err := ladder.NewService(db, nil).ExportMatches(ctx, *guild, *queue, *season)
	if err != nil {
		return err
	}
	if *out == "" {
		return rating.WriteMatchCSV(e.stdout, recs)
	}
	return writeAtomic(*out, func(w io.Writer) error { return rating.WriteMatchCSV(w, recs) })
}
