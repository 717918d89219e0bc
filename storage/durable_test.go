package storage_test

import (
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestSQLiteDurable checks that every pooled SQLite connection commits with
// synchronous=FULL (2): NORMAL (1) in WAL mode can lose acknowledged results
// on an OS crash or power loss.
func TestSQLiteDurable(t *testing.T) {
	db := open(t, testdb.SQLite)
	// Several connections at once, so a pragma applied to only the first
	// one would show.
	sqlDB, err := db.Gorm().DB()
	if err != nil {
		t.Fatal(err)
	}
	sqlDB.SetMaxOpenConns(4)
	tx1, err := sqlDB.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx1.Rollback()
	var got int
	if err := sqlDB.QueryRow("PRAGMA synchronous").Scan(&got); err != nil {
		t.Fatal(err)
	}
	if got != 2 {
		t.Errorf("Got(PRAGMA synchronous) = %d, want 2 (FULL)", got)
	}
	var sync1 int
	if err := tx1.QueryRow("PRAGMA synchronous").Scan(&sync1); err != nil {
		t.Fatal(err)
	}
	if sync1 != 2 {
		t.Errorf("Got(PRAGMA synchronous) in a transaction = %d, want 2 (FULL)", sync1)
	}
}
