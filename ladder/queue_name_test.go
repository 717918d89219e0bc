package ladder_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestLegacyQueueNameKept: a queue named "." by a release before the rule
// that refuses it keeps its name when its settings change; before, every
// change was refused with "queue name cannot be", and no command renames a
// queue, so the queue was frozen. A new queue or a new name still follows
// the rule.
func TestLegacyQueueNameKept(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		ctx := context.Background()
		svcs, dbs := twoProcesses(t, backend)
		svc := svcs[0]
		if _, err := svc.EnsureGuild(ctx, guild); err != nil {
			t.Fatal(err)
		}
		qs, err := svc.Queues(ctx, guild)
		if err != nil {
			t.Fatal(err)
		}
		// What an older release could store.
		if err := dbs[0].Gorm().Exec("UPDATE queues SET name = '.' WHERE id = ?", qs[0].ID).Error; err != nil {
			t.Fatal(err)
		}
		q := qs[0]
		q.Name, q.QStart = ".", 0.7
		got, err := svc.UpdateQueue(ctx, mod, q)
		if err != nil || got.QStart != 0.7 || got.Name != "." {
			t.Fatalf("Got(UpdateQueue(legacy name, q_start 0.7)) = %+v, %v; want the setting saved under the same name", got, err)
		}
		for _, c := range []struct {
			what string
			do   func() error
		}{
			{"a new queue named ..", func() error {
				nq := q
				nq.ID, nq.Name = 0, ".."
				_, err := svc.CreateQueue(ctx, mod, nq)
				return err
			}},
			{"a rename to ..", func() error {
				rq := got
				rq.Name = ".."
				_, err := svc.UpdateQueue(ctx, mod, rq)
				return err
			}},
		} {
			if err := c.do(); ladder.ErrorCode(err) != ladder.CodeInvalid || !strings.Contains(err.Error(), `queue name cannot be "." or ".."`) {
				t.Errorf("Got(%s) = %v, want the name refused", c.what, err)
			}
		}
		// A bad setting is still refused under the legacy name.
		bad := got
		bad.QStart = 2
		if _, err := svc.UpdateQueue(ctx, mod, bad); ladder.ErrorCode(err) != ladder.CodeInvalid {
			t.Errorf("Got(UpdateQueue(q_start 2)) = %v, want invalid", err)
		}
	})
}
