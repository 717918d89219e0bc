package ladder

import (
	"context"
	"encoding/hex"
	"fmt"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"hash/fnv"
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

// importBatch is how many matches one import transaction records: large
// enough to amortize the commit, small enough to keep locks short.
const importBatch = 500

// ImportMatches loads a match history (docs/spec.md 2.3 records, in order) as
// confirmed matches of the guild's queue ("" is the default) in the current
// season and rates them (docs/spec.md 8 `import`). Each record carries an
// idempotency key derived from its position and content, so importing the
// same file again records nothing twice. progress, when not nil, is called
// after each batch with the number of records handled so far.
func (s *Service) ImportMatches(ctx context.Context, guildID, queue string, recs []rating.MatchRecord, progress func(done int)) (ImportReport, error) {
	if err := validateSnowflake("guild", guildID); err != nil {
		return ImportReport{}, err
	}
	if queue != "" {
		if err := CheckID("queue", queue); err != nil {
			return ImportReport{}, err
		}
	}
	if _, err := s.EnsureGuild(ctx, guildID); err != nil {
		return ImportReport{}, err
	}
	now := s.now()
	for i, r := range recs {
		if err := CheckPlayedAt(r.Date, now); err != nil {
			return ImportReport{}, Errorf(CodeInvalid, "record %d: %s", i, ErrorMessage(err))
		}
		if r.Winner != 1 && r.Winner != 2 && r.Winner != Draw {
			return ImportReport{}, Errorf(CodeInvalid, "record %d: winner must be 1, 2 or 0, not %d", i, r.Winner)
		}
		if err := validateTeams([2][]string{r.Team1, r.Team2}); err != nil {
			return ImportReport{}, Errorf(CodeInvalid, "record %d: %s", i, ErrorMessage(err))
		}
	}
	var rep ImportReport
	for start := 0; start < len(recs); start += importBatch {
		batch := recs[start:min(start+importBatch, len(recs))]
		var imported, skipped int
		err := s.store.InTx(ctx, func(tx Tx) error {
			imported, skipped = 0, 0
			names := map[string]string{} // the batch's last name of each player
			lad, err := tx.Ladder(ctx, guildID, queue)
			if err != nil {
				return err
			}
			// One lock for the batch instead of one per match (prepare).
			if lad.Queue, err = tx.QueueForShare(ctx, lad.Queue.ID); err != nil {
				return err
			}
			lad.QueueLocked = true
			q := lad.Queue
			for i, r := range batch {
				if len(r.Team1) != q.TeamSize || len(r.Team2) != q.TeamSize {
					return Errorf(CodeInvalid, "record %d: queue %s is %dv%d, not %dv%d", start+i, q.Name, q.TeamSize, q.TeamSize, len(r.Team1), len(r.Team2))
				}
				for u, n := range r.Names {
					names[u] = n
				}
				key := importKey(start+i, r)
				_, used, err := keyUsed(ctx, tx, guildID, key)
				if err != nil {
					return err
				}
				if used {
					skipped++
					continue
				}
				at := r.Date.UTC().Truncate(time.Microsecond)
				res, w, err := s.rateNew(ctx, tx, lad, nil, r.Team1, r.Team2, r.Winner, at, "import", key)
				if err == nil {
					// An import loads history: its matches are not news,
					// and thousands of webhook events would bury the live ones.
					w.Event = ""
					_, err = save(ctx, tx, res, w)
				}
				if err != nil {
					return fmt.Errorf("record %d: %w", start+i, err)
				}
				imported++
			}
			return upsertImportNames(ctx, tx, guildID, names)
		})
		if err != nil {
			return rep, fmt.Errorf("ladder: import: %w", err)
		}
		rep.Imported += imported
		rep.Skipped += skipped
		if progress != nil {
			progress(start + len(batch))
		}
	}
	return rep, nil
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
