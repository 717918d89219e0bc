package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

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

// openExisting is openDB for a command that reads a ladder already there
// (backup, export, verify, token list and revoke). A SQLite DATABASE_URL
// whose file does not exist is refused instead of being created empty: the
// default, sqlite:ladder.db, is relative to the working directory, so a
// backup run by cron from another folder used to write a backup of a new,
// empty ladder and exit 0, and verify to replay nothing and report no
// difference.
func openExisting(ctx context.Context, e invocation) (*storage.DB, error) {
	if strings.HasPrefix(e.cfg.DatabaseURL, "sqlite:") {
		if _, err := storage.InspectSchema(ctx, e.cfg.DatabaseURL); errors.Is(err, storage.ErrNoDatabase) {
			return nil, noLadder(e, err)
		}
	}
	return openDB(ctx, e)
}

// noLadder says that DATABASE_URL names no ladder, and what to do.
func noLadder(e invocation, err error) error {
	where := ""
	if p, ok := strings.CutPrefix(e.cfg.DatabaseURL, "sqlite:"); ok && !filepath.IsAbs(p) {
		where = "; a relative path is read from the working directory"
	}
	return fmt.Errorf("DATABASE_URL=%s names no ladder (%s%s): set DATABASE_URL to the ladder's database",
		redactURL(e.cfg.DatabaseURL), strings.TrimPrefix(err.Error(), "storage: "), where)
}
