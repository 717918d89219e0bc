package cli

import (
	"context"
	"fmt"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// runRestore loads a backup into the empty database at DATABASE_URL,
// either backend, and verifies the result (docs/spec.md 10): a restored ladder
// whose stored ratings differ from the replay of its log exits 1, as
// verify does. A database that holds anything is refused unchanged.
func runRestore(ctx context.Context, e invocation, args []string) error {
	fs := newFlagSet(e, "--from FILE")
	from := fs.String("from", "", "the backup file written by ladderbot backup")
	if err := parseNoArgs(e, fs, args); err != nil {
		return err
	}
	if *from == "" {
		return usageError(e, fs, "--from FILE is required")
	}
	// The file first: opening the target creates a SQLite database that
	// does not exist yet, which a mistyped --from must not leave behind.
	if err := storage.CheckBackupFile(ctx, *from); err != nil {
		return err
	}
	db, err := openDB(ctx, e)
	if err != nil {
		return err
	}
	defer db.Close()
	st, err := db.Restore(ctx, *from)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "restored %s of %s (schema version %d) into %s\n",
		count(int(st.Total()), "row"), count(len(st.Rows), "table"), st.Version, db.Dialect())
	rep, err := ladder.NewService(db, nil).Verify(ctx, "")
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	for _, d := range rep.Diffs {
		fmt.Fprintf(e.stdout, "DIFF guild %s queue %d season %d player %s: %s\n", d.GuildID, d.QueueID, d.SeasonID, d.UserID, d.Problem)
	}
	fmt.Fprintf(e.stdout, "verify: replayed %s, %s, %s: %s\n", count(rep.Ladders, "ladder"), count(rep.Matches, "match"),
		count(rep.Players, "player"), count(len(rep.Diffs), "difference"))
	if len(rep.Diffs) > 0 {
		return errDifferences
	}
	return nil
}
