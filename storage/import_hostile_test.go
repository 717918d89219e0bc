package storage_test

import (
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

// TestImportHostile imports files that break the import's rules, on both
// backends: IDs and map names with NUL, controls, bidi characters or
// invalid UTF-8, and dates before 1970 or in the future (0001-01-01 is the
// zero time). Each is
// refused with a CodeInvalid error naming the record, and nothing is
// stored (the same check as the API: ladder.CheckID, ladder.CheckPlayedAt).
func TestImportHostile(t *testing.T) {
	const head = "date,team1_p1,team1_p2,team2_p1,team2_p2,winner\n2025-06-01,a,b,c,d,1\n"
	rows := map[string]string{
		"NUL in an ID":      "2025-06-02,a\x00x,b,c,d,1\n",
		"U+0001 in an ID":   "2025-06-02,a\x01x,b,c,d,1\n",
		"DEL in an ID":      "2025-06-02,a\x7fx,b,c,d,1\n",
		"C1 in an ID":       "2025-06-02,a\u0085x,b,c,d,1\n",
		"bidi RLO in an ID": "2025-06-02,a\u202ex,b,c,d,1\n",
		"invalid UTF-8":     "2025-06-02,a\xffx,b,c,d,1\n",
		"year 0001":         "0001-01-01,a,b,c,d,1\n",
		"year 0000":         "0000-01-01,a,b,c,d,1\n",
		"year 1900":         "1900-01-01,a,b,c,d,1\n",
		"year 9999":         "9999-12-31,a,b,c,d,1\n",
		"next year":         "2027-01-05,a,b,c,d,1\n",
	}
	// The map column's names follow the same rule (ladder.ValidateMapName):
	// a NUL would reach PostgreSQL as error 22021 in the middle of the
	// import's batches, after the whole file was checked.
	const mapHead = "date,team1_p1,team1_p2,team2_p1,team2_p2,winner,map\n2025-06-01,a,b,c,d,1,Dust\n"
	mapRows := map[string]string{
		"NUL in a map":      "2025-06-02,a,b,c,d,1,Du\x00st\n",
		"ESC in a map":      "2025-06-02,a,b,c,d,1,\x1b[31mDust\n",
		"bidi RLO in a map": "2025-06-02,a,b,c,d,1,Dust\u202e\n",
		"C1 in a map":       "2025-06-02,a,b,c,d,1,Du\u0085st\n",
	}
	files := map[string]string{}
	for name, row := range rows {
		files[name] = head + row
	}
	for name, row := range mapRows {
		files[name] = mapHead + row
	}
	cases := map[string]func(t *testing.T, b string){}
	for name, file := range files {
		cases[name] = func(t *testing.T, b string) {
			e := newEnv(t, b)
			recs, err := rating.ReadMatchCSV(strings.NewReader(file))
			if err != nil {
				t.Fatalf("ReadMatchCSV = %v, want the rows (the import refuses them)", err)
			}
			before, err := testdb.TakeSnapshot(e.ctx, e.db.SQL(), e.db.Dialect())
			if err != nil {
				t.Fatal(err)
			}
			_, err = e.svc.ImportMatches(e.ctx, guild, "", recs, nil)
			if ladder.ErrorCode(err) != ladder.CodeInvalid || !strings.Contains(ladder.ErrorMessage(err), "line 3") {
				t.Errorf("Got(ImportMatches) = %v, want an invalid error naming line 3", err)
			}
			after, err := testdb.TakeSnapshot(e.ctx, e.db.SQL(), e.db.Dialect())
			if err != nil {
				t.Fatal(err)
			}
			if diff := before.Diff(after); len(diff) > 0 {
				t.Errorf("refused import changed the database: %v", diff)
			}
		}
	}
	cases["NUL in the queue name"] = func(t *testing.T, b string) {
		e := newEnv(t, b)
		recs, err := rating.ReadMatchCSV(strings.NewReader(head))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.ImportMatches(e.ctx, guild, "2v2\x00", recs, nil); ladder.ErrorCode(err) != ladder.CodeInvalid {
			t.Errorf("Got(ImportMatches into queue %q) = %v, want invalid", "2v2\x00", err)
		}
	}
	suite(t, cases)
}
