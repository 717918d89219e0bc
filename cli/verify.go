package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// errDifferences makes verify exit 1 after printing what differs.
var errDifferences = errors.New("stored ratings differ from the replay of the match log")

// runVerify replays every ladder (of one guild with --guild) and compares
// the result with the stored ratings (docs/spec.md 5, 8); any difference exits 1.
func runVerify(ctx context.Context, e invocation, args []string) error {
	fs := newFlagSet(e, "[--guild ID]")
	guild := fs.String("guild", "", "verify one guild only (Discord guild ID); default every guild")
	if err := parseNoArgs(e, fs, args); err != nil {
		return err
	}
	if *guild != "" {
		if err := checkGuild(e, fs, *guild); err != nil {
			return err
		}
	}
	db, err := storage.Open(ctx, e.cfg.DatabaseURL, e.log)
	if err != nil {
		return err
	}
	defer db.Close()
	rep, err := ladder.NewService(db, nil).Verify(ctx, *guild)
	if err != nil {
		return err
	}
	for _, d := range rep.Diffs {
		fmt.Fprintf(e.stdout, "DIFF guild %s queue %d season %d player %s: %s\n", d.GuildID, d.QueueID, d.SeasonID, d.UserID, d.Problem)
	}
	fmt.Fprintf(e.stdout, "replayed %s, %s, %s: %s\n", count(rep.Ladders, "ladder"), count(rep.Matches, "match"),
		count(rep.Players, "player"), count(len(rep.Diffs), "difference"))
	if len(rep.Diffs) > 0 {
		return errDifferences
	}
	return nil
}
