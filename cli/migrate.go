package cli

import (
	"context"
	"fmt"

	"github.com/ladderbot/ladderbot/storage"
)

// runMigrate applies pending migrations to DATABASE_URL and exits. Every
// other subcommand that opens the database migrates too; this one lets an
// operator do it ahead of a deploy.
func runMigrate(ctx context.Context, e invocation, args []string) error {
	fs := newFlagSet(e, "")
	if err := parseNoArgs(e, fs, args); err != nil {
		return err
	}
	v, err := storage.Migrate(ctx, e.cfg.DatabaseURL, e.log)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "schema at version %d\n", v)
	// A newer schema than this binary's was migrated by a newer ladderbot:
	// nothing was applied, and the operator who meant to upgrade holds an
	// older binary than the database's, which they must hear.
	s, err := storage.InspectSchema(ctx, e.cfg.DatabaseURL)
	if err != nil {
		return err
	}
	if v > s.Latest {
		return fmt.Errorf("the database's schema (version %d) is newer than this ladderbot's (%d): a newer ladderbot migrated it; "+
			"run that one (migrations only move forward)", v, s.Latest)
	}
	return nil
}
