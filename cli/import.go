package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// runImport loads a match CSV (docs/spec.md 2.3) as confirmed matches of a guild's
// queue and rates them (docs/spec.md 8). Importing the same file again records nothing twice.
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
	svc := ladder.NewService(db, nil)
	rep, err := svc.ImportMatches(ctx, *guild, *queue, recs, func(done int) {
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
	u, err := svc.Unlisted(ctx, *guild, *queue, 0)
	if err != nil {
		return err
	}
	importSummary(e.stdout, u)
	return nil
}

// importSummary tells the operator what the board will show of an import:
// the board lists only some players (docs/spec.md 4), and an imported history is
// usually old enough that the stale rule hides everyone at the next `run`,
// which used to surprise operators with an empty board.
func importSummary(w io.Writer, u ladder.Unlisted) {
	fmt.Fprintf(w, "%s in the ladder, %d listed on the board now\n", count(u.Players, "player"), u.Listed)
	fmt.Fprintf(w, "provisional: %d (%d with fewer than %d games, %d with RD above %d)\n",
		u.Placement+u.HighRD, u.Placement, u.PlacementGames, u.HighRD, ladder.ProvisionalRD)
	fmt.Fprintf(w, "inactive: %d flagged now; the stale rule will hide %d more whose last match is over %d days old\n",
		u.Stale, u.StaleDue, u.StaleDays)
	if u.StaleDue > 0 {
		fmt.Fprintf(w, "warning: `ladderbot run` marks %d of the %d listed players inactive when it starts, leaving %d on the board; "+
			"raise stale days first (/config stale_days) to keep an old history listed\n", u.StaleDue, u.Listed, u.Listed-u.StaleDue)
	}
}
