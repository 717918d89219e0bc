package cli

import (
	"context"
	"fmt"
)

// runBackup writes a consistent snapshot of the whole ladder, from either
// backend, to a SQLite database file (docs/spec.md 10) while the bot keeps
// running; restore reads it back into either backend.
func runBackup(ctx context.Context, e invocation, args []string) error {
	fs := newFlagSet(e, "--out FILE")
	out := fs.String("out", "", "the SQLite file to write (replaced once the snapshot is complete)")
	if err := parseNoArgs(e, fs, args); err != nil {
		return err
	}
	if *out == "" {
		return usageError(e, fs, "--out FILE is required")
	}
	db, err := openDB(ctx, e)
	if err != nil {
		return err
	}
	defer db.Close()
	st, err := db.Backup(ctx, *out)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "backed up %s of %s (schema version %d, %s) to %s\n",
		count(int(st.Total()), "row"), count(len(st.Rows), "table"), st.Version, db.Dialect(), *out)
	return nil
}
