package commands

import (
	"context"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/ladder"
)

// TestConfigSides: /config queue sides shows a queue's setting (symmetric
// by default), a moderator turns it on and off, a member is refused and an
// unknown queue is not found, changing nothing.
func TestConfigSides(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if _, err := f.svc.EnsureGuild(ctx, guild); err != nil {
		t.Fatal(err)
	}
	show := f.ok(admin("config queue sides", map[string]any{"queue": "2v2"}))
	if !show.Ephemeral || !strings.Contains(show.Content, "symmetric") {
		t.Errorf("Got(/config queue sides) = %+v, want the symmetric default, privately", show)
	}
	on := f.ok(admin("config queue sides", map[string]any{"queue": "2v2", "sided": true}))
	if !strings.Contains(on.Content, "is sided") || !strings.Contains(on.Content, "refolded") {
		t.Errorf("Got(/config queue sides sided:true) = %q, want the queue sided and the calibration refolded", on.Content)
	}
	if sided, err := f.svc.QueueSided(ctx, guild, "2v2"); err != nil || !sided {
		t.Errorf("QueueSided() = %v, %v; want true", sided, err)
	}
	if _, err := f.call(cmd(user(1), "config queue sides", map[string]any{"queue": "2v2", "sided": false})); ladder.ErrorCode(err) != ladder.CodeForbidden {
		t.Errorf("Got(member /config queue sides) error = %v, want forbidden", err)
	}
	if _, err := f.call(admin("config queue sides", map[string]any{"queue": "nope", "sided": false})); ladder.ErrorCode(err) != ladder.CodeNotFound {
		t.Errorf("Got(/config queue sides of an unknown queue) error = %v, want not found", err)
	}
	if sided, _ := f.svc.QueueSided(ctx, guild, "2v2"); !sided {
		t.Errorf("Got(sides after refusals) = false, want still true")
	}
	f.ok(admin("config queue sides", map[string]any{"queue": "2v2", "sided": false}))
	if sided, _ := f.svc.QueueSided(ctx, guild, "2v2"); sided {
		t.Errorf("Got(sides after sided:false) = true, want false")
	}
}
