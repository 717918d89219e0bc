package storage_test

import (
	"context"
	"fmt"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// FuzzImportCSV imports arbitrary CSV text (docs/spec.md 2.3) into a fresh guild
// of one embedded SQLite database, as `ladderbot import` does: a file is
// refused with a clear error and nothing stored, or imported so that the
// stored ratings equal the replay of the log (Verify), and importing the
// same file again records nothing twice.
func FuzzImportCSV(f *testing.F) {
	ctx := context.Background()
	db, err := storage.Open(ctx, "sqlite:"+filepath.Join(f.TempDir(), "ladder.db"), nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { db.Close() })
	svc := ladder.NewService(db, nil)
	f.Add("date,team1_p1,team1_p2,team2_p1,team2_p2,winner\n2024-03-01,a,b,c,d,1\n2024-03-02,a,c,b,d,0\n")
	f.Add("seq,date,team1_p1,team1_p2,team2_p1,team2_p2,winner\n1,2024-03-01T10:00:00Z,a,b,c,d,2\n0,2024-03-01,a,b,c,d,1\n")
	f.Add("date,team1_p1,team1_p2,team2_p1,team2_p2,winner\n2024-03-01,a,a,c,d,1\n")
	f.Add("date,team1_p1,team2_p1,winner\n2024-03-01,x,y,1\n")
	f.Add("date,team1_p1,team1_p2,team2_p1,team2_p2,winner\n9999-12-31,a,b,c,d,1\n0001-01-01,a,b,c,d,2\n")
	n := 0
	f.Fuzz(func(t *testing.T, in string) {
		recs, err := rating.ReadMatchCSV(strings.NewReader(in))
		if err != nil {
			return // FuzzReadMatchCSV covers the reader
		}
		n++
		guild := fmt.Sprint(100000000000000000 + n)
		rep, importErr := svc.ImportMatches(ctx, guild, "", recs, nil)
		if importErr != nil {
			if c := ladder.ErrorCode(importErr); c == ladder.CodeInternal || c == ladder.CodeUnavailable {
				t.Fatalf("import of %q: Got(error) = %v (%s), want a clear error", in, importErr, c)
			}
		}
		stored, err := svc.Matches(ctx, ladder.MatchFilter{GuildID: guild, Limit: 500})
		if err != nil {
			t.Fatal(err)
		}
		if importErr != nil {
			// A refused file writes nothing (the whole file is
			// checked first), not even the guild.
			if rep.Imported != 0 || len(stored) != 0 {
				t.Fatalf("import of %q refused (%v), but Got(imported) = %d, stored %d, want 0, 0", in, importErr, rep.Imported, len(stored))
			}
			return
		}
		if rep.Imported != len(stored) && len(stored) < 500 {
			t.Fatalf("import of %q: Got(imported) = %d, stored %d", in, rep.Imported, len(stored))
		}
		v, err := svc.Verify(ctx, guild)
		if err != nil || len(v.Diffs) > 0 {
			t.Fatalf("after importing %q: Got(verify) = %+v, %v, want no differences", in, v.Diffs, err)
		}
		again, err := svc.ImportMatches(ctx, guild, "", recs, nil)
		if err == nil && again.Imported != 0 {
			t.Fatalf("importing %q twice: Got(imported the second time) = %d, want 0", in, again.Imported)
		}
	})
}
