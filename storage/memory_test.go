package storage_test

import (
	"context"
	"errors"
	"testing"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// TestOpenMemory checks the simulator's in-memory database: migrated, one
// database shared by every connection of its pool, a failed transaction
// rolled back, and a database of its own for each open.
func TestOpenMemory(t *testing.T) {
	ctx := context.Background()
	db, err := storage.OpenMemory(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	other, err := storage.OpenMemory(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	sqlDB, err := db.Gorm().DB()
	if err != nil {
		t.Fatal(err)
	}
	var mode string
	if err := sqlDB.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil {
		t.Fatal(err)
	}
	if mode != "memory" {
		t.Errorf("Got(PRAGMA journal_mode) = %q, want memory (memdb keeps no file)", mode)
	}
	// Two connections at once: what one commits the other reads.
	c1, err := sqlDB.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c1.Close()
	c2, err := sqlDB.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if _, err := c1.ExecContext(ctx, "INSERT INTO guilds (id) VALUES ('1')"); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := c2.QueryRowContext(ctx, "SELECT count(*) FROM guilds WHERE id = '1'").Scan(&n); err != nil || n != 1 {
		t.Errorf("Got(guild seen by another connection) = %d, %v, want 1, nil", n, err)
	}
	c1.Close()
	c2.Close()
	// A transaction that fails leaves nothing behind.
	boom := errors.New("boom")
	if err := db.InTx(ctx, func(lt ladder.Tx) error {
		if _, err := lt.Guild(ctx, "1"); err != nil {
			return err
		}
		if err := lt.UpsertPlayers(ctx, []ladder.Player{{GuildID: "1", UserID: "2", Name: "two"}}); err != nil {
			return err
		}
		return boom
	}); !errors.Is(err, boom) {
		t.Fatalf("InTx(upsert, fail) = %v, want boom", err)
	}
	if err := sqlDB.QueryRow("SELECT count(*) FROM players").Scan(&n); err != nil || n != 0 {
		t.Errorf("Got(players after a failed transaction) = %d, %v, want 0, nil", n, err)
	}
	// Each open is a database of its own.
	otherDB, err := other.Gorm().DB()
	if err != nil {
		t.Fatal(err)
	}
	if err := otherDB.QueryRow("SELECT count(*) FROM guilds").Scan(&n); err != nil || n != 0 {
		t.Errorf("Got(guilds of another open) = %d, %v, want 0, nil", n, err)
	}
}
