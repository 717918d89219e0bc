package cli

import (
	"strings"
	"sync"
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestImportOtherTeamSizes: a history of singles (the match CSV format
// with team1_p2 and team2_p2 left empty) or of fives imports without
// --queue into a queue of its own size, made for it and named after it,
// while a doubles history still goes to the default queue. Importing
// again finds that queue. A file that breaks a rule, or mixes sizes,
// still changes nothing, not even the guild; and the imported ladders
// verify and export as they came in.
func TestImportOtherTeamSizes(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		run, write, snapshot := importEnv(t, backend)
		const g, fresh = "123456789012345678", "223456789012345678"
		singlesCSV := "seq,date,team1_p1,team1_p2,team2_p1,team2_p2,winner\n" +
			"0,2024-01-01,ann,,bob,,1\n1,2024-01-02,bob,,cat,,2\n2,2024-01-03,cat,,ann,,0\n"
		singles := write("singles.csv", singlesCSV)
		fives := write("fives.csv", "date,team1_p1,team1_p2,team1_p3,team1_p4,team1_p5,team2_p1,team2_p2,team2_p3,team2_p4,team2_p5,winner\n"+
			"2024-02-01,a,b,c,d,e,f,g,h,i,j,1\n2024-02-02,a,b,c,d,f,e,g,h,i,j,2\n")
		doubles := write("doubles.csv", "date,team1_p1,team1_p2,team2_p1,team2_p2,winner\n2024-03-01,a,b,c,d,1\n")
		mixed := write("mixed.csv", "date,team1_p1,team1_p2,team2_p1,team2_p2,winner\n2024-03-01,a,b,c,d,1\n2024-03-02,a,,c,,1\n")
		badOnly := write("badonly.csv", "date,team1_p1,team1_p2,team2_p1,team2_p2,winner\n2024-03-01,a,,c,,3\n")
		badSingles := write("bad.csv", "date,team1_p1,team1_p2,team2_p1,team2_p2,winner\n2024-03-01,a,,c,,1\n2024-03-02,a,,c,,3\n")
		for _, s := range []struct {
			args      []string
			code      int
			want, not []string
		}{
			{[]string{"import", "--guild", g, "--data", singles}, 0,
				[]string{"created queue 1v1 (1v1) for the file's matches", "importing into queue 1v1: the file's matches are 1v1", "imported 3 matches, skipped 0"}, nil},
			{[]string{"import", "--guild", g, "--data", singles}, 0,
				[]string{"importing into queue 1v1", "imported 0 matches, skipped 3"}, []string{"created queue"}},
			{[]string{"import", "--guild", g, "--data", fives}, 0, []string{"created queue 5v5 (5v5)", "imported 2 matches"}, nil},
			{[]string{"import", "--guild", g, "--data", doubles}, 0, []string{"imported 1 match,"}, []string{"created queue", "importing into queue"}},
			{[]string{"import", "--guild", g, "--data", badOnly, "--skip-invalid"}, 0,
				[]string{"imported 0 matches, skipped 0"}, nil},
			{[]string{"import", "--guild", "423456789012345678", "--data", badOnly, "--skip-invalid"}, 0,
				[]string{"imported 0 matches, skipped 0"}, []string{"created queue", "importing into queue"}},
			{[]string{"export", "--guild", g, "--queue", "1v1"}, 0, []string{singlesCSV}, nil},
			{[]string{"verify", "--guild", g}, 0, []string{"3 ladders, 6 matches", "0 differences"}, nil},
		} {
			code, out, errOut := run(s.args...)
			if code != s.code {
				t.Errorf("ladderbot %s = %d, stdout %q, stderr %q; want %d", strings.Join(s.args, " "), code, out, errOut, s.code)
			}
			for _, w := range s.want {
				if !strings.Contains(out, w) {
					t.Errorf("ladderbot %s: stdout %q, want it to contain %q", strings.Join(s.args, " "), out, w)
				}
			}
			for _, w := range s.not {
				if strings.Contains(out, w) {
					t.Errorf("ladderbot %s: stdout %q, want no %q", strings.Join(s.args, " "), out, w)
				}
			}
		}
		// Two imports of the singles into a new guild at once: one makes
		// the queue, and the other finds it; the matches are recorded once.
		var wg sync.WaitGroup
		outs := make([]string, 2)
		for i := range outs {
			wg.Go(func() {
				code, out, errOut := run("import", "--guild", "323456789012345678", "--data", singles)
				if code != 0 {
					t.Errorf("concurrent import %d = %d, stdout %q, stderr %q; want 0", i, code, out, errOut)
				}
				outs[i] = out
			})
		}
		wg.Wait()
		both := strings.Join(outs, "")
		if strings.Count(both, "created queue 1v1") != 1 || strings.Count(both, "importing into queue 1v1") != 2 ||
			!(strings.Contains(both, "imported 3 matches, skipped 0") && strings.Contains(both, "imported 0 matches, skipped 3")) {
			t.Errorf("Got(concurrent imports) = %q, want the queue made once and the 3 matches recorded once", outs)
		}
		for _, s := range []struct {
			name, file, want string
		}{
			{"mixed sizes", mixed, "line 3: the queue is 2v2, not 1v1"},
			{"a bad row", badSingles, "line 3: winner"},
		} {
			before := snapshot()
			code, out, errOut := run("import", "--guild", fresh, "--data", s.file)
			if code != 1 || out != "" || !strings.Contains(errOut, s.want) {
				t.Errorf("%s: ladderbot import = %d, stdout %q, stderr %q; want 1, nothing on stdout and %q", s.name, code, out, errOut, s.want)
			}
			if diff := before.Diff(snapshot()); len(diff) > 0 {
				t.Errorf("%s: the refused import changed the database: %v", s.name, diff)
			}
		}
		// The singles went to a queue of their own, so an export without
		// --queue (the default queue's) has only the header; it says on
		// stderr where the matches are. A guild whose default queue holds
		// matches gets no such line, nor does an export naming its queue.
		const header = "seq,date,team1_p1,team1_p2,team2_p1,team2_p2,winner\n"
		for _, s := range []struct {
			args           []string
			stdout, stderr string
		}{
			{[]string{"export", "--guild", "323456789012345678"}, header,
				"ladderbot export: the default queue has no matches to export; matches are in 1v1 (3 matches, --queue 1v1)\n"},
			{[]string{"export", "--guild", "323456789012345678", "--queue", "1v1"}, singlesCSV, ""},
			{[]string{"export", "--guild", g}, header + "0,2024-03-01,a,b,c,d,1\n", ""},
		} {
			code, out, errOut := run(s.args...)
			if code != 0 || out != s.stdout || errOut != s.stderr {
				t.Errorf("ladderbot %s = %d, stdout %q, stderr %q; want 0, %q, %q", strings.Join(s.args, " "), code, out, errOut, s.stdout, s.stderr)
			}
		}
	})
}
