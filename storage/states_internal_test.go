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
// the ladder's own rule and against the partial index matches_log on both
// backends: a statement that writes ratedIn out must name exactly the
// states that index was built on, or SQLite would not read it.
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
	index := "CREATE INDEX matches_log ON matches (queue_id, season_id, seq) WHERE state IN (" + sqlStrings(ratedStates) + ");"
	for name, fsys := range map[string]fs.FS{"postgres": migrations.Postgres, "sqlite": migrations.SQLite} {
		found := false
		err := fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".sql") {
				return err
			}
			b, err := fs.ReadFile(fsys, path)
			if err != nil {
				return err
			}
			if strings.Contains(string(b), "INDEX matches_log ") {
				found = found || strings.Contains(string(b), index)
				if !strings.Contains(string(b), index) {
					t.Errorf("%s %s: matches_log is not %q", name, path, index)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !found {
			t.Errorf("%s: no migration creates matches_log as %q", name, index)
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
