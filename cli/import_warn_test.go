package cli

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestSimilarPlayerIDsWarned: a ladder's player IDs are exact, as a
// Discord ID has no case, so "Alice" and "alice", or "José" written with
// é as one code point and as e and an accent (two spreadsheets, two
// keyboards), were two players without a word, and one person's matches
// were split between two ratings. Import, eval and tune (which read files as eval does) now say so; the
// file is still read as it is. A file whose IDs are each spelled one way
// reads without a word.
func TestSimilarPlayerIDsWarned(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		run, write, _ := importEnv(t, backend)
		const g = "123456789012345678"
		day := time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, -10)
		header := "date,team1_p1,team1_p2,team2_p1,team2_p2,winner\n"
		composed, decomposed := "Jos\u00e9", "Jose\u0301"
		var rows []string
		for i := range 6 {
			rows = append(rows, fmt.Sprintf("%s,Alice,%s,Bob,Carl,%d", day.AddDate(0, 0, i).Format("2006-01-02"), composed, 1+i%2))
		}
		clean := write("clean.csv", header+strings.Join(rows, "\n")+"\n")
		rows = append(rows, day.AddDate(0, 0, 7).Format("2006-01-02")+",alice,"+decomposed+",Bob,CARL,1")
		split := write("split.csv", header+strings.Join(rows, "\n")+"\n")
		want := `warning: player IDs "Alice" (line 2) and "alice" (line 8) differ only in case or Unicode form and are read as two players, and 2 more IDs are spelled two or more ways; if they are one player, write their ID the same way on every row`
		for _, args := range [][]string{{"eval", "--data", split, "--json"}, {"import", "--guild", g, "--data", split}} {
			code, _, errOut := run(args...)
			if code != 0 || !strings.Contains(errOut, want) {
				t.Errorf("Got(ladderbot %s) = %d, stderr %q; want 0 and %q", args[0], code, errOut, want)
			}
		}
		if code, _, errOut := run("eval", "--data", clean, "--json"); code != 0 || strings.Contains(errOut, "warning") {
			t.Errorf("Got(ladderbot eval of a file with one spelling each) = %d, stderr %q; want no warning", code, errOut)
		}
	})
}

// TestMixedScoreColumnWarned: a score column holds series scores (team
// 1's wins first, 0 to 3 a side). A football history's column of goals
// was read as series where both sides scored 3 or fewer ("2-1" showed as
// a best-of series) and left out without a word where one scored more
// ("4-0"). Eval and import now say so and what to do; a column of series
// scores, or one that is never a series score (a tennis data set's sets,
// "7-6 6-3"), reads without a word.
func TestMixedScoreColumnWarned(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		run, write, _ := importEnv(t, backend)
		const g = "123456789012345678"
		day := time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, -10)
		file := func(name string, scores ...string) string {
			var b strings.Builder
			b.WriteString("date,team1_p1,team1_p2,team2_p1,team2_p2,winner,score\n")
			for i, sc := range scores {
				winner := 1
				if sc[0] < sc[len(sc)-1] {
					winner = 2
				}
				fmt.Fprintf(&b, "%s,a,b,c,d,%d,%s\n", day.AddDate(0, 0, i).Format("2006-01-02"), winner, sc)
			}
			return write(name, b.String())
		}
		goals := file("goals.csv", "2-1", "4-0", "1-0", "0-5", "3-2", "6-3")
		want := `warning: the score column reads as a series score (team 1's wins first, 0 to 3 a side, as "2-1") on 3 rows but not on 3 rows, which are left out (line 3: "4-0"); if it holds something else, such as goals, remove the column or rename its header`
		for _, args := range [][]string{{"eval", "--data", goals, "--json"}, {"import", "--guild", g, "--data", goals}} {
			code, _, errOut := run(args...)
			if code != 0 || !strings.Contains(errOut, want) {
				t.Errorf("Got(ladderbot %s) = %d, stderr %q; want 0 and %q", args[0], code, errOut, want)
			}
		}
		for _, path := range []string{file("series.csv", "2-1", "0-2", "3-1"), file("sets.csv", "7-6 6-3", "4-6 6-7", "6-0 6-1")} {
			if code, _, errOut := run("eval", "--data", path, "--json"); code != 0 || strings.Contains(errOut, "warning") {
				t.Errorf("Got(ladderbot eval %s) = %d, stderr %q; want no warning", path, code, errOut)
			}
		}
	})
}
