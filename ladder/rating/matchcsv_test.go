package rating

import (
	"bytes"
	"encoding/csv"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
)

func TestReadMatchCSV(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2024, 3, d, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		name string
		in   string
		want []MatchRecord
	}{
		{
			name: "no seq, extra columns, draw",
			in: "date,team1_p1,team1_p2,team2_p1,team2_p2,winner,event\n" +
				"2024-03-01,a,b,c,d,1,x\n2024-03-02,a,c,b,d,0,\"y, z\"\n",
			want: []MatchRecord{
				{Seq: 0, Date: day(1), Team1: []string{"a", "b"}, Team2: []string{"c", "d"}, Winner: 1, Line: 2},
				{Seq: 1, Date: day(2), Team1: []string{"a", "c"}, Team2: []string{"b", "d"}, Winner: 0, Line: 3},
			},
		},
		{
			name: "seq orders the rows, RFC 3339, 3v3 and 1v1",
			in: "seq,date,team1_p1,team1_p2,team1_p3,team2_p1,team2_p2,team2_p3,winner\n" +
				"7,2024-03-02T10:30:00+02:00,a,,,b,,,2\n" +
				"3,2024-03-01,a,b,c,d,e,f,1\n",
			want: []MatchRecord{
				{Seq: 3, Date: day(1), Team1: []string{"a", "b", "c"}, Team2: []string{"d", "e", "f"}, Winner: 1, Line: 3},
				{Seq: 7, Date: time.Date(2024, 3, 2, 8, 30, 0, 0, time.UTC), Team1: []string{"a"}, Team2: []string{"b"}, Winner: 2, Line: 2},
			},
		},
		{
			name: "name columns beside some players, blank names absent",
			in: "date,team1_p1,team1_p1_name,team1_p2,team2_p1,team2_p1_name,team2_p2,winner\n" +
				"2024-03-01,a,Ann,b,c, Cy ,d,1\n2024-03-02,a,,b,c,,d,2\n",
			want: []MatchRecord{
				{Seq: 0, Date: day(1), Team1: []string{"a", "b"}, Team2: []string{"c", "d"}, Winner: 1, Names: map[string]string{"a": "Ann", "c": "Cy"}, Line: 2},
				{Seq: 1, Date: day(2), Team1: []string{"a", "b"}, Team2: []string{"c", "d"}, Winner: 2, Line: 3},
			},
		},
		{
			name: "empty rows of a spreadsheet between and after the matches",
			in: "date,team1_p1,team1_p2,team2_p1,team2_p2,winner\n" +
				"2024-03-01,a,b,c,d,1\n,,,,,\n\n , ,,\t,,\n2024-03-02,a,c,b,d,0\n,,,,,\n,,,\n",
			want: []MatchRecord{
				{Seq: 0, Date: day(1), Team1: []string{"a", "b"}, Team2: []string{"c", "d"}, Winner: 1, Line: 2},
				{Seq: 1, Date: day(2), Team1: []string{"a", "c"}, Team2: []string{"b", "d"}, Winner: 0, Line: 6},
			},
		},
		{
			name: "header only",
			in:   "date,team1_p1,team1_p2,team2_p1,team2_p2,winner\n",
			want: nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadMatchCSV(strings.NewReader(tt.in))
			if err != nil {
				t.Fatalf("Got(ReadMatchCSV) error %v, want nil", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Got(ReadMatchCSV) = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestReadMatchCSVErrors(t *testing.T) {
	const h = "date,team1_p1,team1_p2,team2_p1,team2_p2,winner\n"
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", "empty file"},
		{"missing winner", "date,team1_p1,team1_p2,team2_p1,team2_p2\n", "lacks winner"},
		{"missing team2", "date,team1_p1,team1_p2,winner\n", "team2_p1"},
		{"bad date", h + "2024-03-01,a,b,c,d,1\n2024-13-01,a,b,c,d,1\n", "line 3: date"},
		{"bad winner", h + "2024-03-01,a,b,c,d,3\n", "line 2: winner"},
		{"empty team", h + "2024-03-01,,,c,d,1\n", "line 2: team 1 has no players"},
		{"gap in team", h + "2024-03-01,,b,c,d,1\n", "line 2: team1_p2"},
		{"duplicate player", h + "2024-03-01,a,b,c,a,1\n", "line 2: player \"a\" appears twice"},
		{"short row", h + "2024-03-01,a,b,c,1\n", "line 2: 5 fields"},
		{"duplicate seq", "seq," + h + "1,2024-03-01,a,b,c,d,1\n1,2024-03-01,a,b,c,d,1\n", "line 3: seq 1 repeats line 2"},
		{"bad seq", "seq," + h + "x,2024-03-01,a,b,c,d,1\n", "line 2: seq"},
		{"team 3", "date,team1_p1,team1_p2,team2_p1,team2_p2,team3_p1,winner\n", "team3_p1"},
		{"name of team 3", h[:len(h)-1] + ",team3_p1_name\n", "team3_p1_name"},
		{"name twice", h[:len(h)-1] + ",team1_p1_name,team1_p1_name\n", "appears twice"},
		{"bad quote", h + "2024-03-01,\"a,b,c,d,1\n", "line"},
		{"semicolons", "date;team1_p1;team1_p2;team2_p1;team2_p2;winner\n2024-03-01;a;b;c;d;1\n", `one field separated by ";": a match CSV separates its fields with commas`},
		{"tabs", "date\tteam1_p1\tteam1_p2\tteam2_p1\tteam2_p2\twinner\n", `separated by "\t"`},
		{"one column", "date\n", "header lacks team1_p1, team2_p1, winner"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadMatchCSV(strings.NewReader(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) || !isInvalid(err) {
				t.Errorf("Got(ReadMatchCSV) error %v (invalid %t), want invalid containing %q", err, isInvalid(err), tt.want)
			}
			if got != nil {
				t.Errorf("Got(ReadMatchCSV) = %d records, want none on error", len(got))
			}
		})
	}
}

// TestReadMatchCSVSkipInvalid: with SkipInvalid every broken row is left
// out and listed by line, the good rows around it are read; without it the
// same file fails at the first broken row.
func TestReadMatchCSVSkipInvalid(t *testing.T) {
	const in = "seq,date,team1_p1,team1_p2,team2_p1,team2_p2,winner\n" +
		"0,2024-03-01,a,b,c,d,1\n" + // line 2: good
		"1,2024-03-01,a,b,c,a,1\n" + // line 3: a on both teams
		"2,2024-03-02,a,c,b,d,2\n" + // line 4: good
		"3,2024-13-01,a,b,c,d,1\n" + // line 5: bad date
		"2,2024-03-03,a,b,c,d,1\n" + // line 6: repeats seq 2
		"4,2024-03-03,a,b,c,1\n" + // line 7: short
		"5,2024-03-04,b,d,a,c,0\n" // line 8: good
	recs, skipped, err := ReadMatchCSVOptions(strings.NewReader(in), ReadOptions{SkipInvalid: true})
	if err != nil {
		t.Fatalf("Got(ReadMatchCSVOptions) error %v, want nil", err)
	}
	var seqs []int
	for _, r := range recs {
		seqs = append(seqs, r.Seq)
	}
	if !reflect.DeepEqual(seqs, []int{0, 2, 5}) {
		t.Errorf("Got(seqs) = %v, want [0 2 5]", seqs)
	}
	wantSkipped := []struct {
		line   int
		reason string
	}{{3, `"a" appears twice`}, {5, "date"}, {6, "seq 2 repeats line 4"}, {7, "6 fields"}}
	if len(skipped) != len(wantSkipped) {
		t.Fatalf("Got(skipped) = %+v, want lines 3, 5, 6, 7", skipped)
	}
	for i, w := range wantSkipped {
		if skipped[i].Line != w.line || !strings.Contains(skipped[i].Reason, w.reason) {
			t.Errorf("Got(skipped[%d]) = %+v, want line %d containing %q", i, skipped[i], w.line, w.reason)
		}
	}
	if _, _, err := ReadMatchCSVOptions(strings.NewReader(in), ReadOptions{}); err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("Got(without SkipInvalid) error %v, want line 3", err)
	}
	if _, _, err := ReadMatchCSVOptions(strings.NewReader("date,winner\n"), ReadOptions{SkipInvalid: true}); !isInvalid(err) {
		t.Errorf("Got(bad header with SkipInvalid) error %v, want invalid", err)
	}
	quote := "date,team1_p1,team1_p2,team2_p1,team2_p2,winner\n2024-03-01,a,b,c,d,1\n2024-03-01,a\"b,c,d,e,1\n2024-03-02,a,b,c,d,2\n"
	recs, skipped, err = ReadMatchCSVOptions(strings.NewReader(quote), ReadOptions{SkipInvalid: true})
	if err != nil || len(recs) != 2 || len(skipped) != 1 || skipped[0].Line != 3 {
		t.Errorf("Got(broken quote) = %d records, skipped %+v, error %v; want 2 records and line 3 skipped", len(recs), skipped, err)
	}
}

func TestWriteMatchCSVRoundTrip(t *testing.T) {
	recs := []MatchRecord{
		{Seq: 0, Date: time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), Team1: []string{"a", "b"}, Team2: []string{"c", "d"}, Winner: 2},
		{Seq: 5, Date: time.Date(2024, 3, 1, 17, 4, 5, 6, time.UTC), Team1: []string{"a", "b", "e"}, Team2: []string{"c", "d", "f,g"}, Winner: 0},
		{Seq: 6, Date: time.Date(2024, 3, 2, 0, 0, 0, 0, time.UTC), Team1: []string{"a"}, Team2: []string{"c"}, Winner: 1},
	}
	var buf bytes.Buffer
	if err := WriteMatchCSV(&buf, recs); err != nil {
		t.Fatal(err)
	}
	wantHead := "seq,date,team1_p1,team1_p2,team1_p3,team2_p1,team2_p2,team2_p3,winner\n0,2024-03-01,a,b,,c,d,,2\n"
	if !strings.HasPrefix(buf.String(), wantHead) {
		t.Errorf("Got(WriteMatchCSV) = %q, want prefix %q", buf.String(), wantHead)
	}
	got, err := ReadMatchCSV(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(withoutLines(got), recs) {
		t.Errorf("Got(round trip) = %+v, want %+v", got, recs)
	}
	if err := WriteMatchCSV(&bytes.Buffer{}, []MatchRecord{{Winner: 3, Team1: []string{"a"}, Team2: []string{"b"}}}); !isInvalid(err) {
		t.Errorf("Got(WriteMatchCSV winner 3) error %v, want invalid", err)
	}
}

// TestWriteMatchCSVNamesRoundTrip checks that names survive export and
// import: each teamT_pN_name column follows its player column, and a
// player without a name writes an empty cell that reads back as absent.
func TestWriteMatchCSVNamesRoundTrip(t *testing.T) {
	recs := []MatchRecord{
		{Seq: 0, Date: time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), Team1: []string{"a", "b"}, Team2: []string{"c", "d"}, Winner: 2,
			Names: map[string]string{"a": "Ann", "b": "Bo, the second", "d": "=HYPERLINK(x)"}},
		{Seq: 1, Date: time.Date(2024, 3, 2, 0, 0, 0, 0, time.UTC), Team1: []string{"a", "c"}, Team2: []string{"b", "d"}, Winner: 1},
	}
	var buf bytes.Buffer
	if err := WriteMatchCSV(&buf, recs); err != nil {
		t.Fatal(err)
	}
	wantHead := "seq,date,team1_p1,team1_p1_name,team1_p2,team1_p2_name,team2_p1,team2_p1_name,team2_p2,team2_p2_name,winner\n" +
		"0,2024-03-01,a,Ann,b,\"Bo, the second\",c,,d,'=HYPERLINK(x),2\n1,2024-03-02,a,,c,,b,,d,,1\n"
	if buf.String() != wantHead {
		t.Errorf("Got(WriteMatchCSV) = %q, want %q", buf.String(), wantHead)
	}
	got, err := ReadMatchCSV(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(withoutLines(got), recs) {
		t.Errorf("Got(round trip) = %+v, want %+v", got, recs)
	}
}

// TestReadMatchCSVATP reads the development data set when it is present.
func TestReadMatchCSVATP(t *testing.T) {
	f, err := os.Open(atpPath)
	if err != nil {
		testdb.Skip(t, noDevData)
	}
	defer f.Close()
	recs, err := ReadMatchCSV(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 25782 {
		t.Errorf("Got(len) = %d, want 25782", len(recs))
	}
	if r := recs[0]; r.Seq != 0 || r.Winner != 2 || len(r.Team1) != 2 || r.Team2[1] != "102800" {
		t.Errorf("Got(recs[0]) = %+v, want seq 0, winner 2, team2 ending 102800", r)
	}
}

// atpPath is the development data set of docs/spec.md 2.3, read in place.
const atpPath = "../../../shared/data/atp_doubles_2v2.csv"

// FuzzReadMatchCSV checks that any input either fails with a coded error
// and no records, or reads records that survive a write and a re-read.
func FuzzReadMatchCSV(f *testing.F) {
	f.Add("date,team1_p1,team1_p2,team2_p1,team2_p2,winner\n2024-03-01,a,b,c,d,1\n")
	f.Add("seq,date,team1_p1,team1_p2,team1_p3,team2_p1,team2_p2,team2_p3,winner\n3,2024-03-01T10:00:00Z,a,,,b,,,0\n1,2024-03-01,a,b,c,d,e,f,2\n")
	f.Add("date,team1_p1,team1_p2,team2_p1,team2_p2,winner,x\n2024-03-01,\"a,1\",b,c,d,1,\"q\"\"\"\n")
	f.Add("date,winner\n")
	f.Fuzz(func(t *testing.T, in string) {
		recs, err := ReadMatchCSV(strings.NewReader(in))
		if err != nil {
			if recs != nil || !isInvalid(err) {
				t.Fatalf("Got(ReadMatchCSV) = %d records, %v (invalid %t), want none and invalid", len(recs), err, isInvalid(err))
			}
			return
		}
		var buf bytes.Buffer
		if err := WriteMatchCSV(&buf, recs); err != nil {
			t.Fatalf("Got(WriteMatchCSV) error %v, want nil", err)
		}
		again, err := ReadMatchCSV(&buf)
		if err != nil {
			t.Fatalf("Got(re-read) error %v of %q, want nil", err, buf.String())
		}
		if len(again) != len(recs) {
			t.Fatalf("Got(re-read) = %d records, want %d", len(again), len(recs))
		}
		for i := range recs {
			if !reflect.DeepEqual(again[i].Team1, recs[i].Team1) || !reflect.DeepEqual(again[i].Team2, recs[i].Team2) ||
				again[i].Winner != recs[i].Winner || !again[i].Date.Equal(recs[i].Date) || again[i].Seq != recs[i].Seq {
				t.Errorf("Got(re-read[%d]) = %+v, want %+v", i, again[i], recs[i])
			}
		}
	})
}

// TestWriteMatchCSVInjection checks OWASP's CSV injection rule on player
// cells: formula triggers get a leading apostrophe, plain
// numbers stay numbers, and export → import gives back every ID exactly.
func TestWriteMatchCSVInjection(t *testing.T) {
	tests := []struct{ id, cell string }{
		{"=1+2", "'=1+2"},
		{"+cmd", "'+cmd"},
		{"-2+3", "'-2+3"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"=HYPERLINK(x)", "'=HYPERLINK(x)"},
		{"-Inf", "'-Inf"},
		{"'quoted", "''quoted"},
		{"''", "'''"},
		{"-5", "-5"},
		{"+1.5e3", "+1.5e3"},
		{"123456789012345678", "123456789012345678"},
		{"bob", "bob"},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			recs := []MatchRecord{{Seq: 0, Date: time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), Team1: []string{tt.id, "b"}, Team2: []string{"c", "d"}, Winner: 1}}
			var buf bytes.Buffer
			if err := WriteMatchCSV(&buf, recs); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(buf.String(), "\n")
			row, err := csv.NewReader(strings.NewReader(lines[1])).Read()
			if err != nil {
				t.Fatal(err)
			}
			if row[2] != tt.cell {
				t.Errorf("Got(cell of %q) = %q, want %q", tt.id, row[2], tt.cell)
			}
			got, err := ReadMatchCSV(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(withoutLines(got), recs) {
				t.Errorf("Got(round trip) = %+v, want %+v", got, recs)
			}
		})
	}
}

// withoutLines clears the file lines the reader sets, for comparing a
// round trip with records that were never in a file.
func withoutLines(recs []MatchRecord) []MatchRecord {
	for i := range recs {
		recs[i].Line = 0
	}
	return recs
}

// TestMatchCSVMapAndScore: the optional map and score columns round-trip;
// a score that disagrees with the winner is refused, and a score column
// of another meaning (tennis sets) is left out.
func TestMatchCSVMapAndScore(t *testing.T) {
	in := "date,team1_p1,team1_p2,team2_p1,team2_p2,winner,map,score\n" +
		"2024-03-01,a,b,c,d,1,Dust II,2-1\n2024-03-02,a,b,c,d,2,,7-6 6-3\n"
	recs, err := ReadMatchCSV(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if recs[0].Map != "Dust II" || recs[0].SeriesScore != "2-1" || recs[1].Map != "" || recs[1].SeriesScore != "" {
		t.Fatalf("Got(records) = %+v, want Dust II 2-1, then no map and no series score", recs)
	}
	var buf bytes.Buffer
	if err := WriteMatchCSV(&buf, recs); err != nil {
		t.Fatal(err)
	}
	if header, _, _ := strings.Cut(buf.String(), "\n"); !strings.HasSuffix(header, ",winner,map,score") {
		t.Errorf("Got(header) = %q, want map and score after winner", header)
	}
	again, err := ReadMatchCSV(&buf)
	if err != nil || again[0].Map != "Dust II" || again[0].SeriesScore != "2-1" {
		t.Errorf("Got(reread) = %+v, %v, want the map and score back", again, err)
	}
	bad := "date,team1_p1,team1_p2,team2_p1,team2_p2,winner,score\n2024-03-01,a,b,c,d,2,2-1\n"
	if _, err := ReadMatchCSV(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "does not agree with winner 2") {
		t.Errorf("Got(score against the winner) = %v, want refused", err)
	}
}

// TestMatchCSVSeriesMaps: the maps column carries each game's map of a
// series and reads back; a bad cell is refused with its reason.
func TestMatchCSVSeriesMaps(t *testing.T) {
	recs := []MatchRecord{
		{Seq: 0, Team1: []string{"a"}, Team2: []string{"b"}, Winner: 1, Map: "Dust", SeriesScore: "2-1", Maps: []string{"Dust", "=Mirage", "Nuke"}},
		{Seq: 1, Team1: []string{"a"}, Team2: []string{"b"}, Winner: 2, Map: "Nuke"},
	}
	var buf bytes.Buffer
	if err := WriteMatchCSV(&buf, recs); err != nil {
		t.Fatal(err)
	}
	if header, _, _ := strings.Cut(buf.String(), "\n"); !strings.HasSuffix(header, ",winner,map,score,maps") {
		t.Errorf("Got(header) = %q, want maps after score", header)
	}
	again, err := ReadMatchCSV(&buf)
	if err != nil || !slices.Equal(again[0].Maps, recs[0].Maps) || again[1].Maps != nil {
		t.Fatalf("Got(reread) = %+v, %v, want the games' maps back", again, err)
	}
	for _, cell := range []string{`"[""a"",""b"",""c"",""d"",""e"",""f""]"`, `Dust`} {
		in := "date,team1_p1,team1_p2,team2_p1,team2_p2,winner,maps\n2024-03-01,a,b,c,d,1," + cell + "\n"
		if _, err := ReadMatchCSV(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), "JSON array") {
			t.Errorf("Got(maps cell %s) = %v, want refused", cell, err)
		}
	}
}
