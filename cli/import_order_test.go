package cli

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestHistoryNewestFirstWarned: results pages list matches newest first,
// and a history copied from one has no seq column. The format rates rows
// in the file's order (docs/spec.md 2.3), so such a file was rated
// backwards without a word: every player's last match taken for their
// first, and import then warned that the stale rule would hide players
// who had played the day before. Import, eval and tune now say that the
// rows are not in time order and what to do; a file in order, or with a
// seq column, reads as before without a word.
func TestHistoryNewestFirstWarned(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		run, write, _ := importEnv(t, backend)
		const g = "123456789012345678"
		day := time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, -1)
		var rows []string
		for i := range 40 {
			rows = append(rows, fmt.Sprintf("%s,a%d,b%d,c%d,d%d,%d", day.AddDate(0, 0, -i).Format("2006-01-02"), i%4, i%3, i%5, i%2, 1+i%2))
		}
		header := "date,team1_p1,team1_p2,team2_p1,team2_p2,winner\n"
		newest := write("newest.csv", header+strings.Join(rows, "\n")+"\n")
		want := "warning: rows are not in time order: line 3 (" + day.AddDate(0, 0, -1).Format("2006-01-02") + ") is dated before line 2 (" +
			day.Format("2006-01-02") + "), and 38 more rows are dated before a row above them; they are rated in the file's order; the file seems to list the newest match first: reverse it"
		for _, args := range [][]string{{"import", "--guild", g, "--data", newest}, {"eval", "--data", newest, "--json"}} {
			code, _, errOut := run(args...)
			if code != 0 || !strings.Contains(errOut, want) {
				t.Errorf("Got(ladderbot %s) = %d, stderr %q; want 0 and %q", args[0], code, errOut, want)
			}
		}
		// Oldest first, and a seq column that orders the rows whatever
		// their dates (an export of a ladder whose results came in late):
		// no warning.
		for i, j := 0, len(rows)-1; i < j; i, j = i+1, j-1 {
			rows[i], rows[j] = rows[j], rows[i]
		}
		oldest := write("oldest.csv", header+strings.Join(rows, "\n")+"\n")
		seqd := write("seq.csv", "seq,"+header+"0,"+strings.Join(rows[1:3], "\n1,")+"\n2,"+rows[0]+"\n")
		for _, path := range []string{oldest, seqd} {
			if code, _, errOut := run("eval", "--data", path, "--json"); code != 0 || strings.Contains(errOut, "time order") {
				t.Errorf("Got(ladderbot eval %s) = %d, stderr %q; want no warning", path, code, errOut)
			}
		}
	})
}
