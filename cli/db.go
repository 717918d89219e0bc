package cli

import (
	"context"

	"github.com/ladderbot/ladderbot/derived"
	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/storage"
)

// openDB opens the configured database with the rows derived from the
// rated log wired into its rated write (package derived): every command
// that may rate, correct or import a match keeps them exact.
func openDB(ctx context.Context, e invocation) (*storage.DB, error) {
	db, err := storage.Open(ctx, e.cfg.DatabaseURL, e.log)
	if err != nil {
		return nil, err
	}
	derived.Wire(db, integrity.New(db, nil))
	return db, nil
}
