package integrity

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// Ladder is a queue and season of a guild.
type Ladder struct {
	QueueID, SeasonID int64
}

// Progress is how far a ladder's counters have folded its log.
type Progress struct {
	// Seq is the log position of the last match folded.
	Seq int64
	// Folded is how many matches were folded.
	Folded int
}

// Correction is a moderator's change of a match already in a log (an
// audit entry), as the job sees it.
type Correction struct {
	AuditID int64
	Ladder
	Seq int64
}

// touches reports whether c makes ladder l's folded counters stale: a
// correction of one of its matches, or (the zero Ladder) a change that
// replays every ladder of the guild, such as a rating set by hand.
func (c Correction) touches(l Ladder) bool {
	return c.Ladder == (Ladder{}) || c.Ladder == l
}

// StepFunc folds the entries of one batch into the counters they touch
// (st holds exactly the rows of Keys of the entries, zero when new) and
// returns the flags raised and the new progress.
type StepFunc func(p Progress, entries []Entry, st State) ([]Flag, Progress)

// Store is what integrity needs from the database.
type Store interface {
	// IntegrityLadders returns a guild's queue and season pairs.
	IntegrityLadders(ctx context.Context, guildID string) ([]Ladder, error)
	// IntegrityEntries returns up to limit rated matches of a ladder with
	// seq above afterSeq (limit ≤ 0: all), in log order.
	IntegrityEntries(ctx context.Context, guildID string, l Ladder, afterSeq int64, limit int) ([]Entry, error)
	// IntegrityStep runs fn in one transaction over the ladder's progress,
	// its next entries (at most limit) and the counters they touch, and
	// writes the counters, the new flags (a kind and subject already
	// flagged on the ladder is kept as it is) and the progress. It
	// returns how many entries were folded: 0 when none was new.
	IntegrityStep(ctx context.Context, guildID string, l Ladder, limit int, fn StepFunc) (int, error)
	// IntegrityCorrections reads up to limit of the guild's audit entries
	// after its stored audit position (limit ≤ 0: all) and returns the
	// corrections and voids of rated matches among them, oldest first, and
	// the ID of the last entry read (0 when none was new).
	IntegrityCorrections(ctx context.Context, guildID string, limit int) ([]Correction, int64, error)
	// IntegrityRestart forgets a ladder's counters and progress (its flags
	// stay) and moves the guild's audit position to auditID.
	IntegrityRestart(ctx context.Context, guildID string, ls []Ladder, auditID int64) error
	// IntegrityProgress returns a ladder's progress (zero when none).
	IntegrityProgress(ctx context.Context, guildID string, l Ladder) (Progress, error)
	// IntegrityCounters returns all of a ladder's stored counters.
	IntegrityCounters(ctx context.Context, guildID string, l Ladder) (State, error)
	// IntegrityFlags lists a guild's flags, newest first; open only when
	// openOnly.
	IntegrityFlags(ctx context.Context, guildID string, openOnly bool, limit int) ([]Flag, error)
	// IntegrityFlag returns one flag of the guild.
	IntegrityFlag(ctx context.Context, guildID string, id int64) (Flag, error)
	// UnpostedFlags returns flags not yet posted to the log channel.
	UnpostedFlags(ctx context.Context, guildID string, limit int) ([]Flag, error)
	// MarkFlagPosted records that flag id was posted; false when another
	// process did first.
	MarkFlagPosted(ctx context.Context, guildID string, id int64) (bool, error)
	// DismissFlag marks an open flag dismissed and writes the audit entry
	// in the same transaction; a flag already dismissed is a conflict.
	DismissFlag(ctx context.Context, guildID string, id int64, by, reason string, at time.Time) (Flag, error)
}

// Service runs the detectors over a store.
type Service struct {
	store Store
	th    Thresholds
	now   func() time.Time
	// Batch is how many matches one step folds: the job's cost per run is
	// bounded by it, whatever the length of the log.
	Batch int
}

// New returns a Service with the default thresholds.
func New(store Store, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{store: store, th: DefaultThresholds(), now: now, Batch: 500}
}

// WithThresholds returns a copy of s using th (the simulator's tuning).
func (s *Service) WithThresholds(th Thresholds) *Service {
	c := *s
	c.th = th
	return &c
}

// Scan folds the matches of a guild's ladders rated since the last scan,
// at most s.Batch per ladder, first starting over the ladders whose folded
// matches a moderator corrected. It returns how many matches it folded.
func (s *Service) Scan(ctx context.Context, guildID string) (int, error) {
	ls, err := s.store.IntegrityLadders(ctx, guildID)
	if err != nil {
		return 0, fmt.Errorf("integrity: scan: %w", err)
	}
	// The audit entries since the last scan, at most a batch: every entry
	// moves the position on, so a guild without corrections reads only
	// what is new.
	cs, last, err := s.store.IntegrityCorrections(ctx, guildID, s.Batch)
	if err != nil {
		return 0, fmt.Errorf("integrity: scan: %w", err)
	}
	if last > 0 {
		var restart []Ladder
		for _, l := range ls {
			if slices.ContainsFunc(cs, func(c Correction) bool { return c.touches(l) }) {
				restart = append(restart, l)
			}
		}
		if err := s.store.IntegrityRestart(ctx, guildID, restart, last); err != nil {
			return 0, fmt.Errorf("integrity: scan: %w", err)
		}
	}
	total := 0
	for _, l := range ls {
		n, err := s.store.IntegrityStep(ctx, guildID, l, s.Batch, s.step(guildID, l))
		if err != nil {
			return total, fmt.Errorf("integrity: scan queue %d season %d: %w", l.QueueID, l.SeasonID, err)
		}
		total += n
	}
	return total, nil
}

// step folds one batch.
func (s *Service) step(guildID string, l Ladder) StepFunc {
	return func(p Progress, es []Entry, st State) ([]Flag, Progress) {
		var flags []Flag
		for _, e := range es {
			for _, f := range st.Fold(e, s.th) {
				f.GuildID, f.QueueID, f.SeasonID, f.Seq, f.RaisedAt = guildID, l.QueueID, l.SeasonID, e.Seq, s.now().UTC()
				flags = append(flags, f)
			}
			p.Seq = e.Seq
			p.Folded++
		}
		return firstFlags(flags), p
	}
}

// firstFlags keeps the first flag of each kind and subject.
func firstFlags(fs []Flag) []Flag {
	seen := map[string]bool{}
	out := fs[:0]
	for _, f := range fs {
		k := f.Kind + "/" + Subject(f.Subjects)
		if !seen[k] {
			seen[k] = true
			out = append(out, f)
		}
	}
	return out
}

// Replay folds a whole log from nothing: the counters and every flag it
// raises, first of each kind and subject. The simulator and Verify use it.
func Replay(es []Entry, th Thresholds) (State, []Flag) {
	st := State{}
	var flags []Flag
	for _, e := range es {
		for _, f := range st.Fold(e, th) {
			f.Seq = e.Seq
			flags = append(flags, f)
		}
	}
	return st, firstFlags(flags)
}

// VerifyReport is what Verify found.
type VerifyReport struct {
	// Ladders counts the ladders compared, Matches the matches refolded.
	Ladders, Matches int
	// Pending counts ladders a moderator corrected since the job last
	// ran: the job folds them again at its next run, so they are not
	// compared.
	Pending int
	// Diffs are the differences, one line each.
	Diffs []string
}

// Verify refolds each ladder's log up to where the job got and reports
// every stored counter that differs from the replay's.
func (s *Service) Verify(ctx context.Context, guildID string) (VerifyReport, error) {
	var rep VerifyReport
	ls, err := s.store.IntegrityLadders(ctx, guildID)
	if err != nil {
		return rep, fmt.Errorf("integrity: verify: %w", err)
	}
	cs, _, err := s.store.IntegrityCorrections(ctx, guildID, 0)
	if err != nil {
		return rep, fmt.Errorf("integrity: verify: %w", err)
	}
	for _, l := range ls {
		p, err := s.store.IntegrityProgress(ctx, guildID, l)
		if err != nil {
			return rep, fmt.Errorf("integrity: verify: %w", err)
		}
		if p.Folded == 0 {
			continue
		}
		if slices.ContainsFunc(cs, func(c Correction) bool { return c.touches(l) }) {
			rep.Pending++
			continue
		}
		es, err := s.store.IntegrityEntries(ctx, guildID, l, 0, 0)
		if err != nil {
			return rep, fmt.Errorf("integrity: verify: %w", err)
		}
		n := 0
		for n < len(es) && es[n].Seq <= p.Seq {
			n++
		}
		want, _ := Replay(es[:n], s.th)
		got, err := s.store.IntegrityCounters(ctx, guildID, l)
		if err != nil {
			return rep, fmt.Errorf("integrity: verify: %w", err)
		}
		rep.Ladders++
		rep.Matches += n
		if n != p.Folded {
			rep.Diffs = append(rep.Diffs, fmt.Sprintf("integrity: queue %d season %d: %d matches folded, the log has %d up to seq %d", l.QueueID, l.SeasonID, p.Folded, n, p.Seq))
		}
		rep.Diffs = append(rep.Diffs, compare(l, got, want)...)
	}
	return rep, nil
}

// compare lists the keys whose counters differ.
func compare(l Ladder, got, want State) []string {
	keys := map[string]bool{}
	for k := range got {
		keys[k] = true
	}
	for k := range want {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	var diffs []string
	for _, k := range sorted {
		g, w := got[k], want[k]
		if g == nil || w == nil || !sameCounter(*g, *w) {
			diffs = append(diffs, fmt.Sprintf("integrity: queue %d season %d: counter %s stored %+v, replay %+v", l.QueueID, l.SeasonID, k, g, w))
		}
	}
	return diffs
}

// sameCounter compares counters; sums of floats are compared to a
// billionth, since the stored JSON keeps every digit but a database may
// not.
func sameCounter(a, b Counter) bool {
	const eps = 1e-6
	for _, p := range [][2]*float64{{&a.NetA, &b.NetA}, {&a.Gap, &b.Gap}, {&a.EarlyO, &b.EarlyO}, {&a.EarlyP, &b.EarlyP}, {&a.EarlyV, &b.EarlyV}, {&a.Start, &b.Start}} {
		if d := *p[0] - *p[1]; d > eps || d < -eps {
			return false
		}
		*p[0] = *p[1]
	}
	if len(a.Matches) == 0 {
		a.Matches = nil
	}
	if len(b.Matches) == 0 {
		b.Matches = nil
	}
	if len(a.Bad) == 0 {
		a.Bad = nil
	}
	if len(b.Bad) == 0 {
		b.Bad = nil
	}
	return reflect.DeepEqual(a, b)
}

// Flags lists a guild's flags for moderators, open ones only unless all.
func (s *Service) Flags(ctx context.Context, guildID string, all bool, limit int) ([]Flag, error) {
	fs, err := s.store.IntegrityFlags(ctx, guildID, !all, limit)
	if err != nil {
		return nil, fmt.Errorf("integrity: flags: %w", err)
	}
	return fs, nil
}

// Dismiss closes a flag with the moderator's reason; the audit log keeps
// who and why.
func (s *Service) Dismiss(ctx context.Context, actor ladder.Actor, guildID string, id int64, reason string) (Flag, error) {
	reason = strings.TrimSpace(reason)
	if len(reason) > 200 {
		return Flag{}, ladder.Errorf(ladder.CodeInvalid, "the reason may have at most 200 characters, not %d", len(reason))
	}
	if id <= 0 {
		return Flag{}, ladder.Errorf(ladder.CodeInvalid, "flag must be a positive number, not %d", id)
	}
	f, err := s.store.DismissFlag(ctx, guildID, id, actor.UserID, reason, s.now().UTC())
	if err != nil {
		return Flag{}, fmt.Errorf("integrity: dismiss: %w", err)
	}
	return f, nil
}

// Unposted returns flags the log channel has not been told about.
func (s *Service) Unposted(ctx context.Context, guildID string, limit int) ([]Flag, error) {
	return s.store.UnpostedFlags(ctx, guildID, limit)
}

// MarkPosted records a flag posted; false when another process did first.
func (s *Service) MarkPosted(ctx context.Context, guildID string, id int64) (bool, error) {
	return s.store.MarkFlagPosted(ctx, guildID, id)
}
