package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/ladderbot/ladderbot/storage"
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
	if err := checkOutPath("--out", *out); err != nil {
		return err
	}
	if err := checkBackupSource(ctx, e); err != nil {
		return err
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

// checkBackupSource refuses to back up what is not a ladder this binary
// can copy whole, before the database is opened, since opening it would
// create a missing SQLite file and migrate an older schema. A backup that
// migrates the live database defeats the backup taken before an upgrade:
// the bot still running the old binary would meet the new schema, and the
// file could no longer be restored by the old binary to roll back. A
// PostgreSQL ladder of a newer schema would be copied into this binary's
// schema, silently leaving out what the newer migrations added.
func checkBackupSource(ctx context.Context, e invocation) error {
	s, err := storage.InspectSchema(ctx, e.cfg.DatabaseURL)
	switch {
	case errors.Is(err, storage.ErrNoDatabase):
		return noLadder(e, err)
	case err != nil:
		return err
	case s.Version == 0:
		return fmt.Errorf("DATABASE_URL=%s holds no ladder (no ladderbot schema): set DATABASE_URL to the ladder's database", redactURL(e.cfg.DatabaseURL))
	case s.Version < s.Latest:
		return fmt.Errorf("the database is at schema version %d, older than this ladderbot's %d, and backup does not migrate it: "+
			"back it up with the ladderbot that runs it, or run ladderbot migrate first", s.Version, s.Latest)
	case s.Version > s.Latest && s.Dialect == storage.Postgres:
		return fmt.Errorf("the database is at schema version %d, newer than this ladderbot's %d, whose copy would leave out what the newer migrations added: "+
			"back it up with the ladderbot that migrated it", s.Version, s.Latest)
	}
	return nil
}
