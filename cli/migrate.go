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
	return nil
}
