package cli

import (
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestImportSpreadsheetBlankRows: a spreadsheet saves an empty row of its
// sheet as a row of empty cells (",,,,,"), and a history kept in one often
// has a few, between weeks or after the last match. The reader skipped an
// empty line but took such a row for a match with an empty date, so import
// refused the whole file ("date \"\" is neither YYYY-MM-DD nor RFC 3339")
// and eval stopped. They are now no match at all, as an empty line is; the
// file imports, exports and evaluates with its matches only.
func TestImportSpreadsheetBlankRows(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		run, write, _ := importEnv(t, backend)
		const g = "123456789012345678"
		data := write("sheet.csv", "date,team1_p1,team1_p2,team2_p1,team2_p2,winner\r\n"+
			"2024-03-01,a,b,c,d,1\r\n,,,,,\r\n2024-03-08,a,c,b,d,2\r\n , ,,,,\r\n,,,,,\r\n")
		code, out, errOut := run("import", "--guild", g, "--data", data)
		if code != 0 || errOut != "" || !strings.HasPrefix(out, "imported 2 matches, skipped 0") {
			t.Fatalf("Got(ladderbot import) = %d, stdout %q, stderr %q; want 0 and 2 matches", code, out, errOut)
		}
		code, out, errOut = run("export", "--guild", g)
		want := "seq,date,team1_p1,team1_p2,team2_p1,team2_p2,winner\n0,2024-03-01,a,b,c,d,1\n1,2024-03-08,a,c,b,d,2\n"
		if code != 0 || out != want {
			t.Errorf("Got(ladderbot export) = %d, %q, %q; want %q", code, out, errOut, want)
		}
		if code, out, errOut := run("eval", "--data", data, "--json"); code != 0 || !strings.Contains(out, `"matches":2,`) {
			t.Errorf("Got(ladderbot eval) = %d, %q, %q; want 2 matches", code, out, errOut)
		}
	})
}
