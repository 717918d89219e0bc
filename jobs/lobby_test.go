package jobs_test

import (
	"context"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// setReadyWindow sets the default queue's ready window in the test guild.
func setReadyWindow(t *testing.T, svc *ladder.Service, d time.Duration) {
	t.Helper()
	ctx := context.Background()
	_, l, err := svc.Lobby(ctx, guild, "")
	if err != nil {
		t.Fatalf("Lobby() = %v", err)
	}
	l.ReadyWindow = d
	if _, err := svc.UpdateLobby(ctx, moderator, guild, l); err != nil {
		t.Fatalf("UpdateLobby() = %v", err)
	}
}
