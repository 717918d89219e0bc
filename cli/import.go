package cli

import (
	"context"
	"fmt"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// runImport loads a match CSV (SPEC 2.3) as confirmed matches of a guild's
// queue and rates them (SPEC 8). Importing the same file again records nothing twice.
func runImport(ctx context.Context, e invocation, args []string) error {
	fs := newFlagSet(e, "--guild ID --data FILE.csv [--queue NAME] [--skip-invalid]")
	guild := fs.String("guild", "", "Discord guild ID; required")
	data := fs.String("data", "", "match CSV with a header date,team1_p1,team1_p2,team2_p1,team2_p2,winner (docs/ratings.md); required")
	queue := fs.String("queue", "", "queue name; default the guild's default queue")
	skipInvalid := skipInvalidFlag(fs)
	if err := parseNoArgs(e, fs, args); err != nil {
		return err
	}
	if err := checkGuild(e, fs, *guild); err != nil {
		return err
	}
	if *data == "" {
		return usageError(e, fs, "--data is required")
	}
	recs, _, err := readMatchFile(e, *data, *skipInvalid)
	if err != nil {
		return err
	}
	db, err := storage.Open(ctx, e.cfg.DatabaseURL, e.log)
	if err != nil {
		return err
	}
	defer db.Close()
	bar := progress(e, len(recs), "importing")
	rep, err := ladder.NewService(db, nil).ImportMatches(ctx, *guild, *queue, recs, func(done int) {
		if bar != nil {
			bar.Set(done)
		}
	})
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "imported %s, skipped %d imported before\n", count(rep.Imported, "match"), rep.Skipped)
	return nil
}
