package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

// runImport loads a match CSV (docs/spec.md 2.3) as confirmed matches of a guild's
// queue and rates them (docs/spec.md 8). Importing the same file again records nothing twice.
func runImport(ctx context.Context, e invocation, args []string) error {
	fs := newFlagSet(e, "--guild ID --data FILE.csv [--queue NAME] [--skip-invalid]")
	guild := fs.String("guild", "", "Discord guild ID; required")
	data := fs.String("data", "", "match CSV with a header date,team1_p1,team1_p2,team2_p1,team2_p2,winner (docs/ratings.md); required")
	queue := fs.String("queue", "", "queue name; default the guild's default queue, or for a file whose matches are all of another team size a queue of that size, made as \"1v1\" if the guild has none")
	skipInvalid := skipInvalidFlag(fs)
	if err := parseNoArgs(e, fs, args); err != nil {
		return err
	}
	if err := checkGuild(e, fs, *guild); err != nil {
		return err
	}
	if *data == "" {
		return usageError(e, fs, "--data is required")
	}
	recs, unreadable, err := readImportFile(*data, warnOf(e, *data))
	if err != nil {
		return err
	}
	db, err := openDB(ctx, e)
	if err != nil {
		return err
	}
	defer db.Close()
	svc := ladder.NewService(db, nil)
	target, create := *queue, (*ladder.Queue)(nil)
	if target == "" {
		if target, create, err = importQueue(ctx, svc, *guild, recs); err != nil {
			return err
		}
	}
	// The whole file is checked before anything is written: the
	// rows the reader could not parse and the rows that break a ladder rule
	// (dates, IDs, names, the queue's team size), listed together by line.
	var broken []ladder.InvalidRow
	if create != nil {
		broken = ladder.CheckImportRecords(recs, create.TeamSize, time.Now())
	} else if broken, err = svc.CheckImport(ctx, *guild, target, recs); err != nil {
		return err
	}
	bad := mergeInvalid(unreadable, broken)
	total := len(recs) + len(unreadable)
	if len(bad) > 0 {
		listInvalid(e, *data, bad, *skipInvalid)
		if !*skipInvalid {
			return fmt.Errorf("%s: %w", *data, ladder.InvalidRowsError(bad, total))
		}
		recs = withoutLines(recs, bad)
		fmt.Fprintf(e.stderr, "ladderbot %s: %s: skipped %s, importing %s\n", e.name, *data, count(len(bad), "invalid row"), count(len(recs), "match"))
	}
	if create != nil && len(recs) == 0 {
		// --skip-invalid left nothing to import: make no queue for it.
		target, create = *queue, nil
	}
	if create != nil {
		if _, err := svc.EnsureGuild(ctx, *guild); err != nil {
			return err
		}
		// An import of the same file running beside this one may have
		// made the queue first; the import then checks its size.
		if _, err := svc.CreateQueue(ctx, ladder.System, *create); err == nil {
			fmt.Fprintf(e.stdout, "created queue %s (%dv%d) for the file's matches\n", create.Name, create.TeamSize, create.TeamSize)
		} else if ladder.ErrorCode(err) != ladder.CodeConflict {
			return err
		}
	}
	if target != *queue && len(recs) > 0 {
		k := len(recs[0].Team1)
		fmt.Fprintf(e.stdout, "importing into queue %s: the file's matches are %dv%d and the default queue's are not\n", target, k, k)
	}
	bar := progress(e, len(recs), "importing")
	rep, err := svc.ImportMatches(ctx, *guild, target, recs, func(done int) {
		if bar != nil {
			bar.Set(done)
		}
	})
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "imported %s, skipped %d imported before\n", count(rep.Imported, "match"), rep.Skipped)
	u, err := svc.Unlisted(ctx, *guild, target, 0)
	if err != nil {
		return err
	}
	importSummary(e.stdout, u)
	return nil
}

// importQueue picks the queue a file goes into when --queue is not given.
// The default queue takes it when its team size is the file's, as before;
// otherwise the guild's first queue of the file's size takes it, or else a
// queue named after that size ("1v1", "5v5"), which is returned to be made
// once the whole file has passed its checks (create). So a history in the
// match CSV format of a sport of singles (team1_p2 and team2_p2 left
// empty) or of fives imports into a new guild without a trip through
// Discord. A file whose matches are not all of one size is judged against
// the default queue, as before, and so is one whose size's name is taken
// by a queue of another size.
func importQueue(ctx context.Context, svc *ladder.Service, guild string, recs []rating.MatchRecord) (string, *ladder.Queue, error) {
	k := 0
	for _, r := range recs {
		if len(r.Team1) != len(r.Team2) || (k != 0 && len(r.Team1) != k) {
			return "", nil, nil
		}
		k = len(r.Team1)
	}
	qs, err := svc.Queues(ctx, guild)
	if err != nil && ladder.ErrorCode(err) != ladder.CodeNotFound {
		return "", nil, err
	}
	if k == 0 || k > rating.MaxTeamSize || (len(qs) == 0 && k == ladder.DefaultTeamSize) || (len(qs) > 0 && qs[0].TeamSize == k) {
		return "", nil, nil
	}
	name := fmt.Sprintf("%dv%d", k, k)
	for _, q := range qs {
		if q.TeamSize == k {
			return q.Name, nil, nil
		}
		if q.Name == name {
			return "", nil, nil
		}
	}
	q := ladder.NewQueue(guild, name, k)
	return name, &q, nil
}

// maxSkippedListed caps the skipped rows import lists with --skip-invalid;
// without it the error lists fewer (ladder.InvalidRowsError), since then
// every row has to be fixed anyway.
const maxSkippedListed = 100

// readImportFile reads a match CSV keeping every row it can parse and
// returning the others by line, so that import can judge the whole file
// at once; a bad header or an unreadable file is an error.
func readImportFile(path string, warn func(string)) ([]rating.MatchRecord, []ladder.InvalidRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("open match csv: %w", err)
	}
	defer f.Close()
	recs, skipped, err := rating.ReadMatchCSVOptions(f, rating.ReadOptions{SkipInvalid: true, Warn: warn})
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if msg := similarIDs(recs); msg != "" {
		warn(msg)
	}
	bad := make([]ladder.InvalidRow, len(skipped))
	for i, s := range skipped {
		bad[i] = ladder.InvalidRow{Line: s.Line, Reason: s.Reason}
	}
	return recs, bad, nil
}

// mergeInvalid lists the rows of both checks in line order.
func mergeInvalid(a, b []ladder.InvalidRow) []ladder.InvalidRow {
	out := append(slices.Clone(a), b...)
	slices.SortStableFunc(out, func(x, y ladder.InvalidRow) int { return x.Line - y.Line })
	return out
}

// listInvalid prints the invalid rows, one line each: all of them up to
// a cap, then how many more.
func listInvalid(e invocation, path string, bad []ladder.InvalidRow, skipping bool) {
	limit, verb := 20, "invalid"
	if skipping {
		limit, verb = maxSkippedListed, "skipped"
	}
	for _, r := range bad[:min(len(bad), limit)] {
		fmt.Fprintf(e.stderr, "ladderbot %s: %s: %s line %d: %s\n", e.name, path, verb, r.Line, r.Reason)
	}
	if len(bad) > limit {
		fmt.Fprintf(e.stderr, "ladderbot %s: %s: and %s not listed\n", e.name, path, count(len(bad)-limit, verb+" row"))
	}
}

// withoutLines returns recs without the records on the given lines.
func withoutLines(recs []rating.MatchRecord, bad []ladder.InvalidRow) []rating.MatchRecord {
	drop := make(map[int]bool, len(bad))
	for _, r := range bad {
		drop[r.Line] = true
	}
	out := make([]rating.MatchRecord, 0, len(recs))
	for _, r := range recs {
		if !drop[r.Line] {
			out = append(out, r)
		}
	}
	return out
}

// importSummary tells the operator what the board will show of an import:
// the board lists only some players (docs/spec.md 4), and an imported history is
// usually old enough that the stale rule hides everyone at the next `run`,
// which used to surprise operators with an empty board.
func importSummary(w io.Writer, u ladder.Unlisted) {
	fmt.Fprintf(w, "%s in the ladder, %d listed on the board now\n", count(u.Players, "player"), u.Listed)
	fmt.Fprintf(w, "provisional: %d (%d with fewer than %d games, %d with RD above %d)\n",
		u.Placement+u.HighRD, u.Placement, u.PlacementGames, u.HighRD, ladder.ProvisionalRD)
	fmt.Fprintf(w, "inactive: %d flagged now; the stale rule will hide %d more whose last match is over %d days old\n",
		u.Stale, u.StaleDue, u.StaleDays)
	if u.StaleDue > 0 {
		fmt.Fprintf(w, "warning: `ladderbot run` marks %d of the %d listed players inactive when it starts, leaving %d on the board; "+
			"raise it first with /config thresholds stale_days to keep an old history listed\n", u.StaleDue, u.Listed, u.Listed-u.StaleDue)
	}
}
