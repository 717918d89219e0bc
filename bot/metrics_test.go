package bot

import (
	"context"
	"errors"
	"testing"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestInteractionLabels names each kind of finished interaction by its
// command and outcome as the metrics count them.
func TestInteractionLabels(t *testing.T) {
	h := func(context.Context, commands.Request) (commands.Reply, error) { return commands.Reply{}, nil }
	cases := []struct {
		name        string
		rt          route
		err         error
		cmd, result string
	}{
		{"ok", route{name: "queue join", handle: h}, nil, "queue join", "ok"},
		{"duplicate", route{name: "queue join" + duplicateSuffix, handle: h}, nil, "queue join", "duplicate"},
		{"invalid", route{name: "report", handle: h}, ladder.Errorf(ladder.CodeInvalid, "no"), "report", "invalid"},
		{"forbidden", route{name: "button:confirm", handle: h}, ladder.Errorf(ladder.CodeForbidden, "no"), "button:confirm", "forbidden"},
		{"internal", route{name: "report", handle: h}, errors.New("bot: answer: boom"), "report", "error"},
		{"unavailable", route{name: "queue join", handle: h}, ladder.Errorf(ladder.CodeUnavailable, "slow"), "queue join", "unavailable"},
		{"unknown command", route{name: "made-up"}, ladder.Errorf(ladder.CodeNotFound, "unknown"), "unknown", "not_found"},
		{"unreadable", route{}, ladder.Errorf(ladder.CodeInvalid, "bad"), "unknown", "invalid"},
		{"unknown button", route{name: "button:unknown"}, ladder.Errorf(ladder.CodeInvalid, "stale"), "button:unknown", "invalid"},
		{"no autocomplete", route{name: "autocomplete:report"}, ladder.Errorf(ladder.CodeInvalid, "none"), "autocomplete:report", "invalid"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cmd, outcome := interactionLabels(tc.rt, tc.err)
			if cmd != tc.cmd || outcome != tc.result {
				t.Errorf("Got(interactionLabels) = %q, %q, want %q, %q", cmd, outcome, tc.cmd, tc.result)
			}
		})
	}
}
