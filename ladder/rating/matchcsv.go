package rating

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// MatchRecord is one row of the match CSV of docs/spec.md 2.3, the format of eval,
// import, export and the web export.
type MatchRecord struct {
	// Seq orders the rows; without a seq column it is the 0-based row index.
	Seq int
	// Date is when the match was played, in UTC.
	Date time.Time
	// Team1 and Team2 are the players' IDs, 1 to MaxTeamSize each.
	Team1, Team2 []string
	// Winner is 1 or 2, or 0 for a draw.
	Winner int
	// Names are the players' display names by ID, from the optional
	// teamT_pN_name columns; a player without a name is absent. Import
	// stores them so that a history brought in from elsewhere shows people,
	// not snowflakes, on the board.
	Names map[string]string
	// Map is the map the match was played on, from the optional map
	// column; "" when none.
	Map string
	// SeriesScore is a series' score from the optional score column,
	// team 1's wins first ("2-1"); "" for a single game.
	SeriesScore string
	// Maps are the maps of a series' games in order, from the optional
	// maps column (a JSON array, ["Dust","Mirage"]); nil when none. Import
	// reads and checks it but keeps only the match's map: a series' games
	// are not imported.
	Maps []string
	// Line is the record's line in the file it was read from (1 is the
	// header), so that a rule broken later, by import, names the line the
	// operator sees in an editor; 0 for a record not read from a file.
	Line int
}

// Score returns the result from team 1's side: 1, 0.5 for a draw, or 0.
func (r MatchRecord) Score() float64 {
	switch r.Winner {
	case 1:
		return 1
	case 2:
		return 0
	}
	return 0.5
}

// seriesScoreCell reads a score cell: a series score W-L (each side 0
// to 3, a best of 5 at most) whose leading side must be the winner. A
// cell of another form is another file's meaning of a score column (a
// tennis data set's set scores, "7-6 6-3") and is left out, not refused.
func seriesScoreCell(s string, winner int) (string, error) {
	a, b, ok := ParseSeriesScore(s)
	if !ok {
		return "", nil
	}
	if (a > b) != (winner == 1) || (b > a) != (winner == 2) {
		return "", fmt.Errorf("score %s does not agree with winner %d", clip(s), winner)
	}
	return s, nil
}

// maxSeriesGames bounds the maps cell: a best-of-5 has at most 5 games.
const maxSeriesGames = 5

// mapsCell reads a maps cell: "" or a JSON array of at most five map
// names (each game's, "" for a game without one).
func mapsCell(s string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	var maps []string
	if err := json.Unmarshal([]byte(s), &maps); err != nil || len(maps) > maxSeriesGames {
		return nil, fmt.Errorf("maps %s is not a JSON array of at most %d map names", clip(s), maxSeriesGames)
	}
	for _, name := range maps {
		if len(name) > MaxMapName || !utf8.ValidString(name) {
			return nil, fmt.Errorf("map %s is longer than %d bytes or not UTF-8", clip(name), MaxMapName)
		}
	}
	return maps, nil
}

// ParseSeriesScore reads a series score "2-1": team 1's and team 2's
// wins, each 0 to 3.
func ParseSeriesScore(s string) (int, int, bool) {
	if len(s) != 3 || s[1] != '-' || s[0] < '0' || s[0] > '3' || s[2] < '0' || s[2] > '3' {
		return 0, 0, false
	}
	return int(s[0] - '0'), int(s[2] - '0'), true
}

// MaxMapName bounds a map's name in bytes: Discord shows select options
// of at most 100 characters, and a map is picked from such a menu.
const MaxMapName = 100

// matchColumns maps the header of a match CSV to column indexes.
type matchColumns struct {
	seq, date, winner int
	mapCol            int      // the optional map column, or -1
	scoreCol          int      // the optional score column, or -1
	mapsCol           int      // the optional maps column, or -1
	team              [2][]int // team[t][p] is the column of team(t+1)_p(p+1)
	name              [2][]int // name[t][p] is the column of team(t+1)_p(p+1)_name, or -1
}

func parseMatchHeader(header []string) (matchColumns, error) {
	c := matchColumns{seq: -1, date: -1, winner: -1, mapCol: -1, scoreCol: -1, mapsCol: -1}
	var slots, names [2][MaxTeamSize]int
	for t := range slots {
		for p := range slots[t] {
			slots[t][p], names[t][p] = -1, -1
		}
	}
	seen := map[string]bool{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		if seen[h] && h != "" {
			return c, fmt.Errorf("column %q appears twice", h)
		}
		seen[h] = true
		switch h {
		case "seq":
			c.seq = i
		case "date":
			c.date = i
		case "winner":
			c.winner = i
		case "map":
			c.mapCol = i
		case "score":
			c.scoreCol = i
		case "maps":
			c.mapsCol = i
		default:
			var t, p int
			if n, err := fmt.Sscanf(h, "team%d_p%d", &t, &p); err == nil && n == 2 && h == fmt.Sprintf("team%d_p%d", t, p) {
				if t < 1 || t > 2 || p < 1 || p > MaxTeamSize {
					return c, fmt.Errorf("column %q: teams are 1 and 2 with players 1 to %d", h, MaxTeamSize)
				}
				slots[t-1][p-1] = i
			} else if n, err := fmt.Sscanf(h, "team%d_p%d_name", &t, &p); err == nil && n == 2 && h == fmt.Sprintf("team%d_p%d_name", t, p) {
				if t < 1 || t > 2 || p < 1 || p > MaxTeamSize {
					return c, fmt.Errorf("column %q: teams are 1 and 2 with players 1 to %d", h, MaxTeamSize)
				}
				names[t-1][p-1] = i
			}
		}
	}
	var missing []string
	if c.date < 0 {
		missing = append(missing, "date")
	}
	for t := range slots {
		for p := range slots[t] {
			if slots[t][p] < 0 {
				if p < 2 {
					missing = append(missing, fmt.Sprintf("team%d_p%d", t+1, p+1))
				}
				break
			}
			c.team[t] = append(c.team[t], slots[t][p])
			c.name[t] = append(c.name[t], names[t][p])
		}
	}
	if c.winner < 0 {
		missing = append(missing, "winner")
	}
	if len(missing) > 0 && len(header) == 1 {
		// A spreadsheet saved as CSV in a locale whose decimal mark is a
		// comma separates fields by semicolons; say so rather than list
		// every column as missing.
		for _, sep := range []string{";", "\t", "|"} {
			if strings.Contains(header[0], sep) {
				return c, fmt.Errorf("the header is one field separated by %q: a match CSV separates its fields with commas", sep)
			}
		}
	}
	if len(missing) > 0 {
		return c, fmt.Errorf("header lacks %s", strings.Join(missing, ", "))
	}
	return c, nil
}

// parseMatchDate accepts YYYY-MM-DD (midnight UTC) or RFC 3339.
// Only a cell of YYYY-MM-DD's length is tried as one: a failed
// time.Parse builds an error of five allocations, which every RFC 3339
// cell of a history paid.
func parseMatchDate(s string) (time.Time, error) {
	if len(s) == len(time.DateOnly) {
		if t, err := time.Parse(time.DateOnly, s); err == nil {
			return t, nil
		}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("date %s is neither YYYY-MM-DD nor RFC 3339", clip(s))
	}
	return t.UTC(), nil
}

func parseMatchRow(c matchColumns, row []string, index int) (MatchRecord, error) {
	rec := MatchRecord{Seq: index}
	if c.seq >= 0 {
		n, err := strconv.Atoi(strings.TrimSpace(row[c.seq]))
		if err != nil {
			return rec, fmt.Errorf("seq %s is not an integer", clip(row[c.seq]))
		}
		rec.Seq = n
	}
	var err error
	if rec.Date, err = parseMatchDate(strings.TrimSpace(row[c.date])); err != nil {
		return rec, err
	}
	switch w := strings.TrimSpace(row[c.winner]); w {
	case "0", "1", "2":
		rec.Winner = int(w[0] - '0')
	default:
		return rec, fmt.Errorf("winner %s is not 1, 2 or 0 (draw)", clip(w))
	}
	if c.mapCol >= 0 {
		name := csvUnescape(strings.TrimSpace(row[c.mapCol]))
		if len(name) > MaxMapName || !utf8.ValidString(name) {
			return rec, fmt.Errorf("map %s is longer than %d bytes or not UTF-8", clip(name), MaxMapName)
		}
		rec.Map = name
	}
	if c.scoreCol >= 0 {
		sc, err := seriesScoreCell(strings.TrimSpace(row[c.scoreCol]), rec.Winner)
		if err != nil {
			return rec, err
		}
		rec.SeriesScore = sc
	}
	if c.mapsCol >= 0 {
		maps, err := mapsCell(strings.TrimSpace(row[c.mapsCol]))
		if err != nil {
			return rec, err
		}
		rec.Maps = maps
	}
	// Both teams in one allocation, team 1 capped so that an append to
	// it cannot run into team 2; a player twice is found by comparing
	// with the IDs before (at most 2·MaxTeamSize), not with a set.
	all := make([]string, 0, len(c.team[0])+len(c.team[1]))
	for t, cols := range c.team {
		from := len(all)
		for p, col := range cols {
			id := csvUnescape(strings.TrimSpace(row[col]))
			if id == "" {
				continue
			}
			if len(all)-from < p {
				return rec, fmt.Errorf("team%d_p%d is set but an earlier player of team %d is empty", t+1, p+1, t+1)
			}
			if slices.Contains(all, id) {
				return rec, fmt.Errorf("player %s appears twice in the match", clip(id))
			}
			all = append(all, id)
			if nc := c.name[t][p]; nc >= 0 {
				if name := csvUnescape(strings.TrimSpace(row[nc])); name != "" {
					if rec.Names == nil {
						rec.Names = map[string]string{}
					}
					rec.Names[id] = name
				}
			}
		}
		if len(all) == from {
			return rec, fmt.Errorf("team %d has no players", t+1)
		}
		if t == 0 {
			rec.Team1 = all[:len(all):len(all)]
		} else {
			rec.Team2 = all[from:]
		}
	}
	return rec, nil
}

// blankRow reports whether every field of row is empty or spaces.
func blankRow(row []string) bool {
	for _, f := range row {
		if strings.TrimSpace(f) != "" {
			return false
		}
	}
	return true
}

// clip quotes a cell for an error message, cut to 40 bytes: a hostile file's
// megabyte cell must not become a megabyte message.
func clip(s string) string {
	const limit = 40
	if len(s) <= limit {
		return strconv.Quote(s)
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + fmt.Sprintf("… (%d bytes)", len(s))
}

// ReadMatchCSV reads a match CSV (docs/spec.md 2.3): a header naming at least date,
// team1_p1, team1_p2, team2_p1, team2_p2 and winner, optionally seq and
// team1_p3… up to MaxTeamSize per team, and beside any player column an
// optional teamT_pN_name with that player's display name; other columns
// are ignored. Empty
// trailing player cells make smaller teams. Records come back ordered by seq
// (by row without a seq column). Any malformed row is a invalid-input error (*Error)
// naming its line, and then no records are returned.
func ReadMatchCSV(r io.Reader) ([]MatchRecord, error) {
	recs, _, err := ReadMatchCSVOptions(r, ReadOptions{})
	return recs, err
}

// ReadOptions controls ReadMatchCSVOptions.
type ReadOptions struct {
	// SkipInvalid leaves out the rows that break a rule (a player on both
	// teams, a bad winner or date, a repeated seq, a wrong number of
	// fields, a broken quote) and lists them instead of failing: real
	// histories hold a few, and one should not cost the rest.
	// A bad header still fails, since then no row can be read.
	SkipInvalid bool
	// Warn, when set, is told of what a file reads without breaking a
	// rule but most likely not as its author meant, so the caller can
	// say it; the file is read as it is either way:
	//   - a file without a seq column has rows dated before a row above
	//     them. The file's order is the order its matches are rated in
	//     (docs/spec.md 2.3); a history listed newest first, as results
	//     pages list them, is rated backwards.
	//   - a score column holds series scores (0 to 3 a side) on some rows
	//     and other scores on others: a football history's goals, read as
	//     series where they happen to be 3 or fewer and left out where
	//     they are not.
	Warn func(msg string)
}

// SkippedRow is a row ReadMatchCSVOptions left out, with its line number
// (1 is the header) and why.
type SkippedRow struct {
	Line   int
	Reason string
}

// ReadMatchCSVOptions is ReadMatchCSV with options: with SkipInvalid, the
// rows that break a rule are returned as skipped, in file order, and the
// others are read; without it, the first such row fails the whole file as
// in ReadMatchCSV.
func ReadMatchCSVOptions(r io.Reader, opt ReadOptions) ([]MatchRecord, []SkippedRow, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil, invalidf("match csv: empty file, want a header line")
	}
	if err != nil {
		return nil, nil, invalidWrap(err, "match csv: line 1")
	}
	cols, err := parseMatchHeader(header)
	if err != nil {
		return nil, nil, invalidf("match csv: line 1: %v", err)
	}
	width := len(header)
	var recs []MatchRecord
	var skipped []SkippedRow
	// bad records a broken row: skipped with SkipInvalid, fatal otherwise.
	bad := func(line int, err error) error {
		if !opt.SkipInvalid {
			return invalidf("match csv: line %d: %v", line, err)
		}
		skipped = append(skipped, SkippedRow{Line: line, Reason: err.Error()})
		return nil
	}
	seqLine := map[int]int{}
	var scores scoreCells
	for {
		row, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		var perr *csv.ParseError
		if errors.As(err, &perr) && opt.SkipInvalid {
			skipped = append(skipped, SkippedRow{Line: perr.StartLine, Reason: perr.Err.Error()})
			continue
		}
		if err != nil { // a *csv.ParseError names its line
			return nil, nil, invalidWrap(err, "match csv")
		}
		line, _ := cr.FieldPos(0)
		if blankRow(row) {
			// An empty line, or an empty row of a spreadsheet saved as
			// CSV (",,,,,"): no match, not a broken one.
			continue
		}
		if len(row) != width {
			if err := bad(line, fmt.Errorf("%d fields, want %d like the header", len(row), width)); err != nil {
				return nil, nil, err
			}
			continue
		}
		rec, err := parseMatchRow(cols, row, len(recs))
		if err != nil {
			if err := bad(line, err); err != nil {
				return nil, nil, err
			}
			continue
		}
		if prev, dup := seqLine[rec.Seq]; dup && cols.seq >= 0 {
			if err := bad(line, fmt.Errorf("seq %d repeats line %d", rec.Seq, prev)); err != nil {
				return nil, nil, err
			}
			continue
		}
		seqLine[rec.Seq] = line
		rec.Line = line
		if len(recs) == cap(recs) {
			// Double, where append grows a large slice by a quarter: a
			// record is 160 bytes, and a quarter at a time copied a
			// 100,000-match history about five times over, half of
			// eval's time.
			recs = slices.Grow(recs, max(len(recs), 64))
		}
		recs = append(recs, rec)
		if cols.scoreCol >= 0 {
			scores.add(line, strings.TrimSpace(row[cols.scoreCol]), rec.SeriesScore != "")
		}
	}
	if cols.seq >= 0 {
		sort.SliceStable(recs, func(i, j int) bool { return recs[i].Seq < recs[j].Seq })
	} else if msg := timeOrder(recs); msg != "" && opt.Warn != nil {
		opt.Warn(msg)
	}
	if msg := scores.mixed(); msg != "" && opt.Warn != nil {
		opt.Warn(msg)
	}
	return recs, skipped, nil
}

// scoreCells counts a score column's filled cells: those read as series
// scores, and the others, which are left out, with the first of them.
type scoreCells struct {
	series, other int
	firstLine     int
	firstCell     string
}

func (c *scoreCells) add(line int, cell string, series bool) {
	switch {
	case cell == "":
	case series:
		c.series++
	default:
		if c.other == 0 {
			c.firstLine, c.firstCell = line, cell
		}
		c.other++
	}
}

// mixed describes a score column that is series scores on some rows and
// something else on others, "" otherwise. A column of set scores
// ("7-6 6-3") on every row is a data set's own and is left out without a
// word; a column of goals reads as series scores only where a side has 3
// or fewer, so those rows would show a football score as a series.
func (c *scoreCells) mixed() string {
	if c.series == 0 || c.other == 0 {
		return ""
	}
	return fmt.Sprintf("the score column reads as a series score (team 1's wins first, 0 to 3 a side, as \"2-1\") on %d %s but not on %d %s, which are left out (line %d: %s); "+
		"if it holds something else, such as goals, remove the column or rename its header so that no row is read as a series",
		c.series, plural(c.series, "row", "rows"), c.other, plural(c.other, "row", "rows"), c.firstLine, clip(c.firstCell))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// timeOrder describes how rows without a seq column break the format's
// time order, "" when they keep it: the first row dated before one above
// it, how many more are, and what the file most likely is (a history
// listed newest first when no row goes forward in time).
func timeOrder(recs []MatchRecord) string {
	latest, first, prev, back, forward := 0, -1, 0, 0, 0
	for i := 1; i < len(recs); i++ {
		if recs[i].Date.After(recs[i-1].Date) {
			forward++
		}
		if !recs[i].Date.Before(recs[latest].Date) {
			latest = i
			continue
		}
		if first < 0 {
			first, prev = i, latest
		}
		back++
	}
	if first < 0 {
		return ""
	}
	msg := fmt.Sprintf("rows are not in time order: line %d (%s) is dated before line %d (%s)",
		recs[first].Line, formatMatchDate(recs[first].Date), recs[prev].Line, formatMatchDate(recs[prev].Date))
	switch back {
	case 1:
	case 2:
		msg += ", and 1 more row is dated before a row above it"
	default:
		msg += fmt.Sprintf(", and %d more rows are dated before a row above them", back-1)
	}
	msg += "; they are rated in the file's order"
	if forward == 0 {
		return msg + "; the file seems to list the newest match first: reverse it, or give the order in a seq column"
	}
	return msg + "; to rate them by date, sort the rows oldest first, or give the order in a seq column"
}

// WriteMatchCSV writes recs in the docs/spec.md 2.3 format: seq, date (YYYY-MM-DD at
// midnight UTC, RFC 3339 otherwise), team1_p1… and team2_p1… (at least two
// columns per team, as many as the largest team), winner. When any record
// carries names, each player column is followed by its teamT_pN_name
// column, so that an export imports again with the names; without names
// the file keeps the plain layout older readers expect. A map column
// follows winner when any record has a map.
func WriteMatchCSV(w io.Writer, recs []MatchRecord) error {
	size, named, mapped, scored, gamesMapped := 2, false, false, false, false
	for _, r := range recs {
		size = max(size, len(r.Team1), len(r.Team2))
		named = named || len(r.Names) > 0
		mapped = mapped || r.Map != ""
		scored = scored || r.SeriesScore != ""
		gamesMapped = gamesMapped || len(r.Maps) > 0
	}
	header := []string{"seq", "date"}
	for t := 1; t <= 2; t++ {
		for p := 1; p <= size; p++ {
			header = append(header, fmt.Sprintf("team%d_p%d", t, p))
			if named {
				header = append(header, fmt.Sprintf("team%d_p%d_name", t, p))
			}
		}
	}
	header = append(header, "winner")
	if mapped {
		header = append(header, "map")
	}
	if scored {
		header = append(header, "score")
	}
	if gamesMapped {
		header = append(header, "maps")
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return fmt.Errorf("ladder: write match csv: %w", err)
	}
	row := make([]string, len(header))
	for _, r := range recs {
		if r.Winner < 0 || r.Winner > 2 {
			return invalidf("match csv: seq %d: winner %d is not 1, 2 or 0", r.Seq, r.Winner)
		}
		row = row[:0]
		row = append(row, strconv.Itoa(r.Seq), formatMatchDate(r.Date))
		for _, team := range [2][]string{r.Team1, r.Team2} {
			for p := 0; p < size; p++ {
				id, name := "", ""
				if p < len(team) {
					id, name = csvEscape(team[p]), r.Names[team[p]]
				}
				row = append(row, id)
				if named {
					// Names are free text too: a display name "=HYPERLINK(…)"
					// must not run in the operator's spreadsheet.
					row = append(row, csvEscape(name))
				}
			}
		}
		row = append(row, strconv.Itoa(r.Winner))
		if mapped {
			// A map name is free text, escaped as the names are.
			row = append(row, csvEscape(r.Map))
		}
		if scored {
			row = append(row, r.SeriesScore)
		}
		if gamesMapped {
			cell := ""
			if len(r.Maps) > 0 {
				// A JSON array starts with "[": never a formula.
				b, err := json.Marshal(r.Maps)
				if err != nil {
					return fmt.Errorf("ladder: write match csv: %w", err)
				}
				cell = string(b)
			}
			row = append(row, cell)
		}
		if err := cw.Write(row); err != nil {
			return fmt.Errorf("ladder: write match csv: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("ladder: write match csv: %w", err)
	}
	return nil
}

func formatMatchDate(t time.Time) string {
	t = t.UTC()
	if t.Equal(t.Truncate(24 * time.Hour)) {
		return t.Format(time.DateOnly)
	}
	return t.Format(time.RFC3339Nano)
}

// csvEscape neutralises a free-text cell (a player ID) against spreadsheet
// formula injection, by OWASP's rule: a cell starting with =, +, -, @, tab
// or CR gets a leading apostrophe, which spreadsheets show as text. A cell
// that is a plain decimal number ("-5", "+1.5e3") is left alone: a
// spreadsheet reads it as that number, not a formula. A cell already
// starting with an apostrophe gets a second one, so csvUnescape, which
// drops exactly one leading apostrophe, restores every ID exactly and
// export → import round-trips. seq, date and winner are written by
// WriteMatchCSV itself as numbers and dates and need no escaping.
func csvEscape(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		if !plainNumber(s) {
			return "'" + s
		}
	case '\'':
		return "'" + s
	}
	return s
}

// csvUnescape undoes csvEscape: one leading apostrophe is dropped. (A file
// written elsewhere with an ID that really starts with an apostrophe must
// double it, as WriteMatchCSV does.)
func csvUnescape(s string) string {
	if strings.HasPrefix(s, "'") {
		return s[1:]
	}
	return s
}

// plainNumber reports whether s is a decimal number: optional sign, digits
// with an optional fraction, optional exponent. Not "Inf" or "NaN", which
// strconv.ParseFloat would accept and a spreadsheet would not.
func plainNumber(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	n := digits()
	if i < len(s) && s[i] == '.' {
		i++
		n += digits()
	}
	if n == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}
