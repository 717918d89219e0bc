package integrity_test

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/internal/laddertest"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

// atpPaths are where the ATP doubles history (docs/spec.md 2.3, CC
// BY-NC-SA, never copied into the repository) is read in place: beside a
// clone of the repository, or in the shared work directory.
var atpPaths = []string{"../../shared/data/atp_doubles_2v2.csv", "/work/shared/data/atp_doubles_2v2.csv"}

// noATP is why TestRealHistoryBoostFlags skips on a clean clone; the
// synthetic cases of TestFoldFlags cover the same rule everywhere.
var noATP = testdb.Reason{
	Why:    "without the dev data " + atpPaths[0],
	Enable: "put atp_doubles_2v2.csv there to run them",
}

// TestRealHistoryBoostFlags imports 25 years of ATP doubles (25,782
// matches of real people, none of them boosting) and checks the boost
// flags it raises: no two partners are each flagged as the other's
// booster, which a boost, with one booster and one boosted account,
// never is. Every strong fixed partnership of the history climbs
// together, and each partner's average rating is then above where the
// other began. The counters equal their refold. SQLite only: the rule is
// the fold's, the same on both databases, and the import is long.
func TestRealHistoryBoostFlags(t *testing.T) {
	if testing.Short() {
		testdb.Skip(t, testdb.Short)
	}
	var f *os.File
	for _, p := range atpPaths {
		var err error
		if f, err = os.Open(p); err == nil {
			break
		} else if !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
	}
	if f == nil {
		testdb.Skip(t, noATP)
	}
	defer f.Close()
	recs, err := rating.ReadMatchCSV(f)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, in := laddertest.OpenDerived(t, testdb.SQLite, nil)
	if _, err := ladder.NewService(db, nil).ImportMatches(ctx, guild, "", recs, nil); err != nil {
		t.Fatalf("ImportMatches() = %v", err)
	}
	fs, err := in.Flags(ctx, guild, true, 100000)
	if err != nil {
		t.Fatalf("Flags() = %v", err)
	}
	boosted := map[[2]string]bool{}
	for _, f := range fs {
		if f.Kind == integrity.KindBoost {
			boosted[[2]string{f.Subjects[0], f.Subjects[1]}] = true
		}
	}
	mutual := 0
	for p := range boosted {
		if boosted[[2]string{p[1], p[0]}] {
			mutual++
		}
	}
	if mutual > 0 {
		t.Errorf("Got(%d of %d boost flags name a pair whose other partner is flagged as boosted by the first), want none", mutual, len(boosted))
	}
	rep, err := in.Verify(ctx, guild)
	if err != nil || len(rep.Diffs) > 0 || rep.Pending > 0 || rep.Matches != len(recs) {
		t.Errorf("Verify() = %+v, %v, want %d matches refolded and no differences", rep, err, len(recs))
	}
}
