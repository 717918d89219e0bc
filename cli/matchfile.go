package cli

import (
	"flag"
	"fmt"
	"os"

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
	recs, skipped, err := rating.ReadMatchCSVOptions(f, rating.ReadOptions{SkipInvalid: skipInvalid, OutOfOrder: outOfOrder(e, path)})
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, s := range skipped {
		fmt.Fprintf(e.stderr, "ladderbot %s: %s: skipped line %d: %s\n", e.name, path, s.Line, s.Reason)
	}
	if len(skipped) > 0 {
		fmt.Fprintf(e.stderr, "ladderbot %s: %s: skipped %s, read %s\n", e.name, path, count(len(skipped), "invalid row"), count(len(recs), "match"))
	}
	return recs, skipped, nil
}

// outOfOrder warns on stderr that a file's rows are not in time order:
// they are rated in the file's order, as the format says, and a history
// listed newest first would be rated backwards.
func outOfOrder(e invocation, path string) func(string) {
	return func(msg string) { fmt.Fprintf(e.stderr, "ladderbot %s: %s: warning: %s\n", e.name, path, msg) }
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
