package commands

import (
	"context"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/ladder"
)

// TestModTune walks the self-tuning commands: /config queue set self_tune:on
// shows on the queue, /mod tune preview lists current → proposed constants
// with the gain ± SE and changes nothing, and /mod tune apply on a log the
// rule does not trust refuses with the numbers.
func TestModTune(t *testing.T) {
	f := newFixture(t)
	f.ok(admin("config show", nil))
	set := f.ok(admin("config queue set", map[string]any{"queue": "2v2", "self_tune": true}))
	if !strings.Contains(set.Content, "self-tuning") {
		t.Errorf("Got(queue set self_tune) = %q, want it to say self-tuning", set.Content)
	}
	qs, err := f.svc.Queues(context.Background(), guild)
	if err != nil || !qs[0].SelfTune {
		t.Fatalf("Got(Queues) = %+v, %v, want self_tune on", qs, err)
	}
	p := []string{user(1), user(2), user(3), user(4)}
	for i := 0; i < 4; i++ {
		if _, err := f.svc.RecordResult(context.Background(), ladder.ResultInput{GuildID: guild, Team1: p[:2], Team2: p[2:], Winner: 1 + i%2}); err != nil {
			t.Fatalf("RecordResult() = %v", err)
		}
	}
	pre := f.ok(admin("mod tune preview", nil))
	for _, want := range []string{"Preview", "`rd0`", "→", "±", "keeps"} {
		if !strings.Contains(pre.Content, want) {
			t.Errorf("Got(tune preview) = %q, want it to contain %q", pre.Content, want)
		}
	}
	if _, err := f.call(admin("mod tune apply", nil)); ladder.ErrorCode(err) != ladder.CodeConflict {
		t.Errorf("Got(tune apply on 4 alternating results) error = %v, want conflict", err)
	}
	if _, err := f.call(cmd(user(1), "mod tune preview", nil)); ladder.ErrorCode(err) != ladder.CodeForbidden {
		t.Errorf("Got(tune preview by a player) error = %v, want forbidden", err)
	}
}
