package cli

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/ladderbot/ladderbot/ladder/rating"
)

// skipInvalidFlag defines --skip-invalid, shared by eval, tune and import.
func skipInvalidFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("skip-invalid", false, "leave out the rows that break a rule (a player on both teams, say) and list each with its line number on stderr, instead of stopping")
}

// readMatchFile reads a match CSV. With skipInvalid the rows that break a
// rule are left out and each is reported on stderr with its line, so a
// real history with a few broken rows can still be used; without it the
// first broken row stops the command with its line, as before.
func readMatchFile(e invocation, path string, skipInvalid bool) ([]rating.MatchRecord, []rating.SkippedRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("open match csv: %w", err)
	}
	defer f.Close()
	warn := warnOf(e, path)
	recs, skipped, err := rating.ReadMatchCSVOptions(f, rating.ReadOptions{SkipInvalid: skipInvalid, Warn: warn})
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if msg := similarIDs(recs); msg != "" {
		warn(msg)
	}
	for _, s := range skipped {
		fmt.Fprintf(e.stderr, "ladderbot %s: %s: skipped line %d: %s\n", e.name, path, s.Line, s.Reason)
	}
	if len(skipped) > 0 {
		fmt.Fprintf(e.stderr, "ladderbot %s: %s: skipped %s, read %s\n", e.name, path, count(len(skipped), "invalid row"), count(len(recs), "match"))
	}
	return recs, skipped, nil
}

// warnOf warns on stderr of what a file reads without breaking a rule but
// most likely not as its author meant (rating.ReadOptions.Warn, and
// player IDs that differ only in case or Unicode form): the file is read
// as it is, as the format says.
func warnOf(e invocation, path string) func(string) {
	return func(msg string) { fmt.Fprintf(e.stderr, "ladderbot %s: %s: warning: %s\n", e.name, path, msg) }
}

// similarIDs describes the player IDs of recs that differ only in case or
// Unicode form ("Alice" and "alice"; "José" with é as one code point and
// as e and an accent), "" when there are none. Each spelling is another
// player to the ladder, whose IDs are exact (a Discord ID has no case),
// so such a history splits one person's matches between two ratings.
func similarIDs(recs []rating.MatchRecord) string {
	type spelling struct {
		id   string
		line int
	}
	byKey := map[string][]spelling{}
	var keys []string
	// Each ID is normalised once, at its first row: a history has far
	// fewer players than player cells.
	seen := map[string]bool{}
	for _, r := range recs {
		for _, team := range [2][]string{r.Team1, r.Team2} {
			for _, id := range team {
				if seen[id] {
					continue
				}
				seen[id] = true
				k := strings.ToLower(norm.NFC.String(id))
				ss := byKey[k]
				if slices.ContainsFunc(ss, func(s spelling) bool { return s.id == id }) {
					continue
				}
				if len(ss) == 1 {
					keys = append(keys, k)
				}
				byKey[k] = append(ss, spelling{id, r.Line})
			}
		}
	}
	if len(keys) == 0 {
		return ""
	}
	ss := byKey[keys[0]]
	msg := fmt.Sprintf("player IDs %q (line %d) and %q (line %d) differ only in case or Unicode form and are read as two players",
		ss[0].id, ss[0].line, ss[1].id, ss[1].line)
	switch n := len(keys) - 1; n {
	case 0:
	case 1:
		msg += ", and 1 more ID is spelled two ways"
	default:
		msg += fmt.Sprintf(", and %d more IDs are spelled two or more ways", n)
	}
	return msg + "; if they are one player, write their ID the same way on every row"
}

// skippedRow is one skipped row in --json output.
type skippedRow struct {
	Line   int    `json:"line"`
	Reason string `json:"reason"`
}

func skippedJSON(rows []rating.SkippedRow) []skippedRow {
	var out []skippedRow
	for _, r := range rows {
		out = append(out, skippedRow{Line: r.Line, Reason: r.Reason})
	}
	return out
}
