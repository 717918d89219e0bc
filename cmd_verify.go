package main

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
// the result with the stored ratings (SPEC 5, 8); any difference exits 1.
func runVerify(ctx context.Context, e cli, args []string) error {
	fs := newFlagSet(e, "verify", "[--guild ID]")
	guild := fs.String("guild", "", "verify one guild only (Discord guild ID); default every guild")
	if err := parseNoArgs(e, fs, args); err != nil {
		return err
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
	fmt.Fprintf(e.stdout, "replayed %d ladders, %d matches, %d players: %d differences\n", rep.Ladders, rep.Matches, rep.Players, len(rep.Diffs))
	if len(rep.Diffs) > 0 {
		return errDifferences
	}
	return nil
}
