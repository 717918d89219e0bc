package bot

import (
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestQueueAutocompleteFreshServer: on a server where nobody has used the
// bot, the queue option's autocomplete offers the default queue that
// /queue join would use.
func TestQueueAutocompleteFreshServer(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, freshDSN(t, backend))
		for _, typed := range []string{"", "2v"} {
			p, err := e.fake.Autocomplete(at(alice), "queue join", map[string]any{"queue": typed}, "queue")
			if err != nil {
				t.Fatal(err)
			}
			r := e.result(p)
			if len(r.Choices) != 1 || r.Choices[0].Value != "2v2" {
				t.Errorf("typed %q: Got(choices) = %+v, want the default queue 2v2", typed, r.Choices)
			}
		}
		wantText(t, "join the offered queue", e.slash(alice, "queue join", map[string]any{"queue": "2v2"}), "You joined queue")
	})
}
