package storage_test

import (
	"io/fs"
	"strconv"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/migrations"
)

// latestMigration is the highest goose version embedded for SQLite, which
// both dialects share, so the migration test need not change with each
// new file.
func latestMigration(t *testing.T) int64 {
	t.Helper()
	names, err := fs.Glob(migrations.SQLite, "sqlite/*.sql")
	if err != nil || len(names) == 0 {
		t.Fatalf("Glob(migrations) = %v, %v", names, err)
	}
	var v int64
	for _, n := range names {
		base := strings.TrimPrefix(n, "sqlite/")
		num, err := strconv.ParseInt(base[:strings.IndexByte(base, '_')], 10, 64)
		if err != nil {
			t.Fatalf("migration %s has no version: %v", n, err)
		}
		v = max(v, num)
	}
	return v
}
