package ladder

import (
	"context"
	"encoding/hex"
	"fmt"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"hash/fnv"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ImportReport says what ImportMatches did.
type ImportReport struct {
	// Imported matches were recorded and rated; Skipped ones had been
	// imported before (the same row at the same position).
	Imported int
	Skipped  int
}

// InvalidRow is a record an import refuses: its line in the file (1 is the
// header; for a record not read from a file, its 1-based position) and why.
type InvalidRow struct {
	Line   int
	Reason string
}

// maxListedRows caps how many invalid rows an import error lists; the rest
// are counted, so one broken column does not print a million lines.
const maxListedRows = 20

// maxNameLen bounds an imported display name, in bytes: Discord's names are
// at most 32 characters, and a megabyte "name" is an attack, not a name.
const maxNameLen = 128

// ImportBatch is how many matches one import transaction records: large
// enough to amortize the commit and the integrity counters a batch reads
// and rewrites (a pair's counter met again in a later batch is written
// again), small enough to keep locks short. Over the ATP history, 5,000
// took 12–15% less time than 2,000 on both backends (BenchmarkImport,
// four alternations), at under 1 s a batch.
const ImportBatch = 5000

// CheckImport applies every rule ImportMatches applies to recs (the date
// rule, the winner, the identifier rule for player IDs and names, a player
// at most once per match, and the queue's team size) and returns the
// records that break one, in order, without writing anything: a guild that
// does not exist yet is judged by the default queue it would get. The error
// is for the guild or queue themselves (a bad ID, an unknown queue).
func (s *Service) CheckImport(ctx context.Context, guildID, queue string, recs []rating.MatchRecord) ([]InvalidRow, error) {
	if err := validateSnowflake("guild", guildID); err != nil {
		return nil, err
	}
	if queue != "" {
		if err := CheckID("queue", queue); err != nil {
			return nil, err
		}
	}
	teamSize := DefaultTeamSize
	if _, err := s.store.Guild(ctx, guildID); err == nil {
		q, err := resolveQueue(ctx, s.store, guildID, queue)
		if err != nil {
			return nil, fmt.Errorf("ladder: import: %w", err)
		}
		teamSize = q.TeamSize
	} else if ErrorCode(err) != CodeNotFound {
		return nil, fmt.Errorf("ladder: import: %w", err)
	} else if queue != "" {
		return nil, Errorf(CodeNotFound, "guild %s has no queue %q yet; import into its default queue or create the queue first", guildID, queue)
	}
	return CheckImportRecords(recs, teamSize, s.now()), nil
}

// CheckImportRecords is CheckImport's check of the records alone, against
// a queue of teamSize players a side that need not exist yet, at now.
func CheckImportRecords(recs []rating.MatchRecord, teamSize int, now time.Time) []InvalidRow {
	var bad []InvalidRow
	for i, r := range recs {
		if err := checkImportRecord(r, teamSize, now); err != nil {
			bad = append(bad, InvalidRow{Line: recordLine(i, r), Reason: ErrorMessage(err)})
		}
	}
	return bad
}

// checkImportRecord is one record's part of CheckImport.
func checkImportRecord(r rating.MatchRecord, teamSize int, now time.Time) error {
	if err := CheckPlayedAt(r.Date, now); err != nil {
		return err
	}
	if r.Winner != 1 && r.Winner != 2 && r.Winner != Draw {
		return Errorf(CodeInvalid, "winner must be 1, 2 or 0, not %d", r.Winner)
	}
	if err := validateTeams([2][]string{r.Team1, r.Team2}); err != nil {
		return err
	}
	if len(r.Team1) != teamSize {
		return Errorf(CodeInvalid, "the queue is %dv%d, not %dv%d", teamSize, teamSize, len(r.Team1), len(r.Team2))
	}
	if err := ValidateMapName(r.Map, true); err != nil {
		return err
	}
	for _, u := range slices.Sorted(maps.Keys(r.Names)) {
		n := r.Names[u]
		if len(n) > maxNameLen {
			return Errorf(CodeInvalid, "name of %s is %d bytes long; at most %d are allowed", u, len(n), maxNameLen)
		}
		if err := CheckText("name of "+u, n); err != nil {
			return err
		}
	}
	return nil
}

// recordLine names record i for messages: its file line, or its 1-based
// position when it was not read from a file.
func recordLine(i int, r rating.MatchRecord) int {
	if r.Line > 0 {
		return r.Line
	}
	return i + 1
}

// InvalidRowsError is the CodeInvalid error of an import that refused
// bad rows, on one line: how many, and the first maxListedRows with their
// lines.
func InvalidRowsError(bad []InvalidRow, total int) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d rows are invalid, so nothing was imported", len(bad), total)
	for i, r := range bad[:min(len(bad), maxListedRows)] {
		sep := "; "
		if i == 0 {
			sep = ": "
		}
		fmt.Fprintf(&b, "%sline %d: %s", sep, r.Line, r.Reason)
	}
	if len(bad) > maxListedRows {
		fmt.Fprintf(&b, "; and %d more", len(bad)-maxListedRows)
	}
	return Errorf(CodeInvalid, "%s", b.String())
}

// ImportStore writes imported history in bulk: a batch of matches costs a
// few statements, not a few per match (ImportMatches).
type ImportStore interface {
	// UsedKeys returns which of keys are the idempotency keys of matches
	// of the guild already.
	UsedKeys(ctx context.Context, guildID string, keys []string) (map[string]bool, error)
	// SaveImported writes new rated matches (ID 0) in order, as SaveRated
	// would one by one without the rating rows, which the caller writes
	// once for the batch (SaveRatings): each match with its players, its
	// log rows and its idempotency key, on consecutive positions of the
	// rating log taken now. A write's Calibrator, when set, is saved at its
	// match's position, as SaveRated does. Imported matches carry no event
	// (Outbox).
	SaveImported(ctx context.Context, ws []RatedWrite) error
}

// ImportMatches loads a match history (docs/spec.md 2.3 records, in order) as
// confirmed matches of the guild's queue ("" is the default) in the current
// season and rates them (docs/spec.md 8 `import`).
//
// It is all or nothing for bad input: every record is checked first
// (CheckImport), and if any breaks a rule nothing is written, not even the
// guild, and the error lists them by line. The matches are then written in
// transactions of ImportBatch; each record carries an idempotency key
// derived from its position and content, so a run cut short (a crash, a
// kill, a lost database) leaves whole batches behind, and running the same
// import again records the missing rest and nothing twice
// (TestImportResume). progress, when not nil, is called after each batch
// with the number of records handled so far.
func (s *Service) ImportMatches(ctx context.Context, guildID, queue string, recs []rating.MatchRecord, progress func(done int)) (ImportReport, error) {
	bad, err := s.CheckImport(ctx, guildID, queue, recs)
	if err != nil {
		return ImportReport{}, err
	}
	if len(bad) > 0 {
		return ImportReport{}, InvalidRowsError(bad, len(recs))
	}
	if _, err := s.EnsureGuild(ctx, guildID); err != nil {
		return ImportReport{}, err
	}
	var rep ImportReport
	for start := 0; start < len(recs); start += ImportBatch {
		batch := recs[start:min(start+ImportBatch, len(recs))]
		var b ImportReport
		err := s.store.InTx(ctx, func(tx Tx) error {
			var err error
			b, err = s.importRecords(ctx, tx, guildID, queue, start, batch)
			return err
		})
		if err != nil {
			return rep, fmt.Errorf("ladder: import: %w", err)
		}
		rep.Imported += b.Imported
		rep.Skipped += b.Skipped
		if progress != nil {
			progress(start + len(batch))
		}
	}
	return rep, nil
}

// importRecords rates and writes one batch of an import in tx, whose first
// record is recs[start]. It rates as RecordResult would record the
// matches one after another, but in memory: it locks the rating rows of
// all the batch's players at once (creating the missing ones), runs the
// model over them match by match, and writes the matches, their log rows
// and keys in bulk (SaveImported) and each changed rating row once.
func (s *Service) importRecords(ctx context.Context, tx Tx, guildID, queue string, start int, batch []rating.MatchRecord) (ImportReport, error) {
	lad, err := tx.Ladder(ctx, guildID, queue)
	if err != nil {
		return ImportReport{}, err
	}
	// One lock for the batch instead of one per match (prepare): the
	// calibrator's, then the constants read under it.
	cal, err := tx.LockCalibrator(ctx, lad.Queue.ID)
	if err != nil {
		return ImportReport{}, err
	}
	if lad.Queue, err = tx.Queue(ctx, lad.Queue.ID); err != nil {
		return ImportReport{}, err
	}
	model, err := modelFor(lad.Queue)
	if err != nil {
		return ImportReport{}, err
	}
	if cal, err = builtCalibrator(ctx, tx, lad.Queue, cal); err != nil {
		return ImportReport{}, err
	}
	keys, users, names, err := batchPlayers(lad.Queue, start, batch)
	if err != nil {
		return ImportReport{}, err
	}
	// The rows are locked before the keys are read, so that an import of
	// the same file running beside this one has committed its batch or
	// not started it.
	lk, err := lad.lock(ctx, tx, model, users, nil)
	if err != nil {
		return ImportReport{}, err
	}
	used, err := tx.UsedKeys(ctx, guildID, keys)
	if err != nil {
		return ImportReport{}, err
	}
	ws, rows := s.rateImported(lad, lk, &cal, batch, keys, used)
	if len(ws) > 0 {
		if err := tx.SaveImported(ctx, ws); err != nil {
			return ImportReport{}, err
		}
		if err := tx.SaveRatings(ctx, rows); err != nil {
			return ImportReport{}, err
		}
	}
	rep := ImportReport{Imported: len(ws), Skipped: len(batch) - len(ws)}
	return rep, upsertImportNames(ctx, tx, guildID, names)
}

// batchPlayers returns the idempotency keys of a batch's records, its
// players in order of appearance and the last name each carried.
func batchPlayers(q Queue, start int, batch []rating.MatchRecord) (keys, users []string, names map[string]string, err error) {
	keys = make([]string, len(batch))
	names = map[string]string{}
	seen := map[string]bool{}
	for i, r := range batch {
		if len(r.Team1) != q.TeamSize || len(r.Team2) != q.TeamSize {
			// The queue changed since CheckImport.
			return nil, nil, nil, Errorf(CodeInvalid, "line %d: queue %s is %dv%d, not %dv%d",
				recordLine(start+i, r), q.Name, q.TeamSize, q.TeamSize, len(r.Team1), len(r.Team2))
		}
		keys[i] = importKey(start+i, r)
		for u, n := range r.Names {
			names[u] = n
		}
		for _, u := range append(slices.Clone(r.Team1), r.Team2...) {
			if !seen[u] {
				seen[u] = true
				users = append(users, u)
			}
		}
	}
	return keys, users, names, nil
}

// rateImported rates the batch's records whose keys are not used yet, in
// order, over the locked rows lk of ladder lad, moving the queue's
// calibrator cal by each as prepare does, and returns their writes and the
// rating rows they changed, by user ID. The last write carries the
// calibrator, which the store saves at its log position.
func (s *Service) rateImported(lad Ladder, lk *locked, cal *CalibratorRow, batch []rating.MatchRecord, keys []string, used map[string]bool) ([]RatedWrite, []Rating) {
	now := s.now()
	ws := make([]RatedWrite, 0, len(batch))
	changed := map[string]bool{}
	for i, r := range batch {
		if used[keys[i]] {
			continue
		}
		// As rateNew and prepare, for a match rated in memory.
		m := Match{
			GuildID: lad.Guild.ID, QueueID: lad.Queue.ID, SeasonID: lad.Season.ID,
			Teams: [2][]string{slices.Clone(r.Team1), slices.Clone(r.Team2)},
			State: StateConfirmed, Winner: r.Winner, CreatedAt: now, PlayedAt: r.Date.UTC().Truncate(time.Microsecond),
			Source: "import", ReportedWinner: NoResult, RatedAt: now, Map: r.Map, Score: r.SeriesScore,
		}
		cal.observeResult(lk.predict(m), Score(m.Winner))
		changes := lk.apply(&m)
		// An import loads history: its matches are not news, and thousands
		// of webhook events would bury the live ones (no Event).
		ws = append(ws, RatedWrite{Match: m, Changes: changes, IdempotencyKey: keys[i], At: now})
		for _, u := range m.Players() {
			changed[u] = true
		}
	}
	if len(ws) > 0 {
		c := *cal
		ws[len(ws)-1].Calibrator = &c
	}
	rows := slices.DeleteFunc(lk.sorted(), func(r Rating) bool { return !changed[r.UserID] })
	return ws, rows
}

// upsertImportNames stores the names a batch carried (match CSV
// teamT_pN_name columns), after its matches so that every player exists;
// rows imported before count too, so importing a file again with names
// added names the players of the first import.
func upsertImportNames(ctx context.Context, tx Tx, guildID string, names map[string]string) error {
	if len(names) == 0 {
		return nil
	}
	ps := make([]Player, 0, len(names))
	for u, n := range names {
		ps = append(ps, Player{GuildID: guildID, UserID: u, Name: n})
	}
	// A stable order keeps concurrent imports from locking rows in opposite orders.
	slices.SortFunc(ps, func(a, b Player) int { return strings.Compare(a.UserID, b.UserID) })
	return tx.UpsertPlayers(ctx, ps)
}

// importKey identifies a record of an import by its position and content.
func importKey(i int, r rating.MatchRecord) string {
	h := fnv.New128a() // a dedupe key, not a secret: no cryptographic hash needed
	fmt.Fprintf(h, "%d|%s|%s|%s|%d", i, r.Date.UTC().Format(time.RFC3339Nano), strings.Join(r.Team1, ","), strings.Join(r.Team2, ","), r.Winner)
	return "import:" + strconv.Itoa(i) + ":" + hex.EncodeToString(h.Sum(nil)[:12])
}

// ExportMatches returns the rated matches of a guild's queue as match CSV
// records (docs/spec.md 8 `export`); see MatchLog.
func (s *Service) ExportMatches(ctx context.Context, guildID, queue string, season int) ([]rating.MatchRecord, error) {
	return s.MatchLog(ctx, guildID, queue, season)
}
