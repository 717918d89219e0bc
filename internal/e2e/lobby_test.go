package e2e

import (
	"context"
	"testing"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/rooms"
	"github.com/ladderbot/ladderbot/storage"
)

// noReadyCheck turns the default queue's ready check off in guildID: the
// load and hostile scenarios play matches straight from the announcement,
// as before ready checks existed; the ready check has its own end-to-end
// tests in package bot.
func noReadyCheck(t testing.TB, svc *ladder.Service, guildID string) {
	t.Helper()
	ctx := context.Background()
	if _, err := svc.EnsureGuild(ctx, guildID); err != nil {
		t.Fatalf("EnsureGuild(%s) = %v", guildID, err)
	}
	q, l, err := svc.Lobby(ctx, guildID, "")
	if err != nil {
		t.Fatalf("Lobby(%s) = %v", guildID, err)
	}
	l.ReadyWindow = 0
	if _, err := svc.UpdateLobby(ctx, ladder.System, guildID, l); err != nil {
		t.Fatalf("UpdateLobby(%s, %s) = %v", guildID, q.Name, err)
	}
}

// noRooms plays the default queue's matches in its channel (room:none):
// the load and hostile scenarios follow the announcement in the queue's
// channel, as before match rooms; rooms have their own end-to-end tests
// in package bot.
func noRooms(t testing.TB, db *storage.DB, svc *ladder.Service, guildID string) {
	t.Helper()
	ctx := context.Background()
	q, _, err := svc.Lobby(ctx, guildID, "")
	if err != nil {
		t.Fatalf("Lobby(%s) = %v", guildID, err)
	}
	s := rooms.DefaultSettings(q.ID)
	s.Mode = rooms.ModeNone
	if err := db.SaveRoomSettings(ctx, s, nil); err != nil {
		t.Fatalf("SaveRoomSettings(%s) = %v", guildID, err)
	}
}
