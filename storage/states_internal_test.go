package storage

import (
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/migrations"
)

// TestRatedStatesAgree checks the storage's two forms of "rated" against
// the ladder's own rule, and the states written out for the partial
// indexes matches_log and matches_state against those indexes on both
// backends.
func TestRatedStatesAgree(t *testing.T) {
	all := []ladder.MatchState{ladder.StateOpen, ladder.StateReported, ladder.StateConfirmed, ladder.StateDisputed,
		ladder.StateResolved, ladder.StateCancelled, ladder.StateVoided}
	for _, s := range all {
		if !s.Valid() {
			t.Fatalf("%q is not a valid state", s)
		}
		if got := slices.Contains(ratedStates, string(s)); got != s.Rated() {
			t.Errorf("ratedStates holds %q: %v, but Rated() is %v", s, got, s.Rated())
		}
	}
	if want := "m.state IN (" + sqlStrings(ratedStates) + ")"; ratedIn != want {
		t.Errorf("ratedIn = %q, want %q", ratedIn, want)
	}
	for _, pending := range pendingStates {
		if s := ladder.MatchState(pending); !s.Valid() || s.Rated() || s == ladder.StateCancelled || s == ladder.StateVoided {
			t.Errorf("pendingStates holds %q, which is not a state still in play or awaiting a moderator", s)
		}
	}
	// Each statement that writes these tests out must name what the
	// partial index was built on, or SQLite would not read it.
	for name, index := range map[string]string{
		"matches_log":   "CREATE INDEX matches_log ON matches (queue_id, season_id, seq) WHERE state IN (" + sqlStrings(ratedStates) + ");",
		"matches_state": "CREATE INDEX matches_state ON matches (guild_id, state, id DESC) WHERE " + pendingTest + ";",
	} {
		for backend, fsys := range map[string]fs.FS{"postgres": migrations.Postgres, "sqlite": migrations.SQLite} {
			found := false
			err := fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() || !strings.HasSuffix(path, ".sql") {
					return err
				}
				b, err := fs.ReadFile(fsys, path)
				if err != nil {
					return err
				}
				if strings.Contains(string(b), "INDEX "+name+" ") {
					found = found || strings.Contains(string(b), index)
					if !strings.Contains(string(b), index) {
						t.Errorf("%s %s: %s is not %q", backend, path, name, index)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if !found {
				t.Errorf("%s: no migration creates %s as %q", backend, name, index)
			}
		}
	}
}

// TestSQLStringsQuotes checks that a quote inside a value is doubled, so a
// value cannot end its literal.
func TestSQLStringsQuotes(t *testing.T) {
	if got, want := sqlStrings([]string{"a'b", "", "c"}), `'a''b', '', 'c'`; got != want {
		t.Errorf("sqlStrings = %s, want %s", got, want)
	}
	if got := sqlStrings(nil); got != "" {
		t.Errorf("sqlStrings(nil) = %q, want empty", got)
	}
}
