package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestMigrateLogsOneLine: a fresh database's migrations are one INFO line
// with their count, not a line each; LOG_LEVEL=debug shows each.
func TestMigrateLogsOneLine(t *testing.T) {
	for _, c := range []struct {
		level     string
		wantEach  bool
		wantTotal bool
	}{
		{"info", false, true},
		{"debug", true, true},
	} {
		t.Run(c.level, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			env := []string{"DATABASE_URL=sqlite:" + filepath.Join(t.TempDir(), "ladder.db"), "LOG_LEVEL=" + c.level}
			if code := Main([]string{"migrate"}, env, &stdout, &stderr); code != 0 {
				t.Fatalf("Got(migrate) = %d, %q, want 0", code, stderr.String())
			}
			log := stderr.String()
			each := strings.Count(log, "applied migration")
			total := strings.Count(log, "migrations applied")
			if (each > 1) != c.wantEach || (total == 1) != c.wantTotal {
				t.Errorf("Got(log at %s) = %d per-migration lines, %d summary lines, want each %v and one summary:\n%s", c.level, each, total, c.wantEach, log)
			}
		})
	}
}
