package integrity

import (
	"cmp"
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

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
	// Live is whether the rated write folds each new match itself. A
	// ladder is not live while the job rebuilds its counters: after a
	// moderator's correction rewrote its log (Clear: the old counters are
	// deleted first, then the log is folded from its start), or when a
	// rated match reached the log without being folded (a gap).
	Live  bool
	Clear bool
	// Ended is whether the ladder's season has ended: each fold then
	// reviews the accounts it touches (review.go).
	Ended bool
}

// Pending is a ladder whose counters the job is rebuilding.
type Pending struct {
	GuildID string
	Ladder
}

// StepFunc folds the entries of one batch into the counters they touch
// (st holds exactly the rows of Keys of the entries, zero when new) and
// returns the flags raised and the new progress.
type StepFunc func(p Progress, entries []Entry, st State) ([]Flag, Progress)

// FoldStore is what folding a rated write needs inside the write's
// transaction (storage calls Service.Rated there).
type FoldStore interface {
	// IntegrityLoad locks ladder l's progress row, creating it live when
	// the ladder has none, and returns it with the counters of keys (zero
	// when new). gap reports a rated match of the ladder after the
	// progress and before seq before: a match the fold never saw.
	IntegrityLoad(ctx context.Context, guildID string, l Ladder, before int64, keys []string) (p Progress, gap bool, st State, err error)
	// IntegritySave writes the counters of st, the new flags (a kind and
	// subject already flagged on the ladder is kept as it is) and p.
	IntegritySave(ctx context.Context, guildID string, l Ladder, st State, flags []Flag, p Progress) error
	// IntegrityStale hands ladder l to the job: from its start, its
	// counters deleted first (fromStart), or from its progress on.
	IntegrityStale(ctx context.Context, l Ladder, fromStart bool) error
}

// Store is what integrity needs from the database outside the rated write.
type Store interface {
	// IntegrityLadders returns a guild's queue and season pairs.
	IntegrityLadders(ctx context.Context, guildID string) ([]Ladder, error)
	// IntegrityEntries returns up to limit rated matches of a ladder with
	// seq above afterSeq (limit ≤ 0: all), in log order.
	IntegrityEntries(ctx context.Context, guildID string, l Ladder, afterSeq int64, limit int) ([]Entry, error)
	// IntegrityPending returns up to limit ladders that are not live, of
	// every guild.
	IntegrityPending(ctx context.Context, limit int) ([]Pending, error)
	// IntegrityEndedMissed hands to the job, from its start and marked
	// ended, every ladder of an ended season whose progress does not say
	// so: its first fold inserted the progress row while the season's end
	// committed, and neither saw the other. It returns how many.
	IntegrityEndedMissed(ctx context.Context) (int, error)
	// IntegrityStep does one bounded step of a ladder's rebuild in one
	// transaction, under the ladder's locked progress row: while Clear, it
	// deletes up to limit counters (Clear ends when none is left);
	// then it folds the next entries (at most limit) with fn, writing the
	// counters they touch, the new flags and the progress, and makes the
	// ladder live when the log has no more. It returns how many rows it
	// deleted or entries it folded: 0 when the ladder is live.
	IntegrityStep(ctx context.Context, guildID string, l Ladder, limit int, fn StepFunc) (int, error)
	// IntegrityProgress returns a ladder's progress (CodeNotFound when it
	// has none).
	IntegrityProgress(ctx context.Context, guildID string, l Ladder) (Progress, error)
	// IntegrityCounters returns all of a ladder's stored counters.
	IntegrityCounters(ctx context.Context, guildID string, l Ladder) (State, error)
	// IntegrityCounterPage returns up to limit of a ladder's stored
	// counters with keys after afterKey, in the order of their keys, as
	// stored (EncodeCounter): verify reads them page by page.
	IntegrityCounterPage(ctx context.Context, guildID string, l Ladder, afterKey string, limit int) ([]StoredCounter, error)
	// IntegrityCounterCount returns how many counters of pairs (opponents
	// and partners) a ladder stores.
	IntegrityCounterCount(ctx context.Context, guildID string, l Ladder) (int, error)
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
	// Batch is how many rows one rebuild step deletes or matches it folds,
	// and Budget how many one run of the job handles in all: a run's cost
	// is bounded by them, whatever the length of the logs.
	Batch, Budget int
	// VerifyKeys is how many counters of pairs Verify holds at most in
	// one pass over a ladder's log.
	VerifyKeys int
}

// StoredCounter is one counter row as stored.
type StoredCounter struct {
	Key   string
	Value []byte
}

// New returns a Service with the default thresholds.
func New(store Store, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{store: store, th: DefaultThresholds(), now: now, Batch: 500, Budget: 5000, VerifyKeys: 100_000}
}

// WithThresholds returns a copy of s using th (the simulator's tuning).
func (s *Service) WithThresholds(th Thresholds) *Service {
	c := *s
	c.th = th
	return &c
}

// Rated folds rated writes into their ladders' counters, inside the
// writes' transaction (storage's extension point of the rated write). A
// ladder the job is rebuilding is left to it; a ladder whose log has a
// rated match the fold never saw (written while nothing folded) is handed
// to the job to catch up from its progress.
func (s *Service) Rated(ctx context.Context, tx FoldStore, ws []ladder.RatedWrite) error {
	for _, g := range groups(ws) {
		p, gap, st, err := tx.IntegrityLoad(ctx, g.GuildID, g.Ladder, g.es[0].Seq, g.Keys)
		if err != nil {
			return fmt.Errorf("integrity: fold: %w", err)
		}
		if !p.Live {
			continue
		}
		if gap {
			if err := tx.IntegrityStale(ctx, g.Ladder, false); err != nil {
				return fmt.Errorf("integrity: fold: %w", err)
			}
			continue
		}
		flags, np := s.step(g.GuildID, g.Ladder)(p, g.es, st)
		if err := tx.IntegritySave(ctx, g.GuildID, g.Ladder, st, flags, np); err != nil {
			return fmt.Errorf("integrity: fold: %w", err)
		}
	}
	return nil
}

// Load is what Rated will read of one ladder for rated writes: the
// counters of Keys, under the ladder's progress row. Writes is how many of
// the writes are rated matches of the ladder.
type Load struct {
	GuildID string
	Ladder  Ladder
	Keys    []string
	Writes  int
	es      []Entry
}

// Loads lists what Rated will read for ws, which it needs before the
// writes are saved (their IDs and seqs do not matter): on PostgreSQL
// storage sends these reads in the round trip of the write itself, so
// folding costs the rated write no round trip of its own.
func Loads(ws []ladder.RatedWrite) []Load {
	gs := groups(ws)
	out := make([]Load, len(gs))
	for i, g := range gs {
		out[i] = Load{GuildID: g.GuildID, Ladder: g.Ladder, Keys: g.Keys, Writes: g.Writes}
	}
	return out
}

// groups are ws's rated matches by ladder, in log order, with the sorted
// keys of their counters.
func groups(ws []ladder.RatedWrite) []*Load {
	var gs []*Load
	for _, w := range ws {
		e, ok := EntryOf(w)
		if !ok {
			continue
		}
		l := Ladder{QueueID: w.Match.QueueID, SeasonID: w.Match.SeasonID}
		i := slices.IndexFunc(gs, func(g *Load) bool { return g.Ladder == l })
		if i < 0 {
			gs = append(gs, &Load{Ladder: l, GuildID: w.Match.GuildID})
			i = len(gs) - 1
		}
		gs[i].es = append(gs[i].es, e)
		gs[i].Writes++
	}
	for _, g := range gs {
		for _, e := range g.es {
			g.Keys = append(g.Keys, Keys(e)...)
		}
		slices.Sort(g.Keys)
		g.Keys = slices.Compact(g.Keys)
	}
	return gs
}

// Rewritten hands a ladder whose log a replay rewrote from fromSeq on (a
// correction or void) to the job, in the replay's transaction: every later
// match's ratings may have moved, and with them the counters, so they are
// rebuilt from the log's start. A kind and subject flagged before stays
// flagged.
func (s *Service) Rewritten(ctx context.Context, tx FoldStore, k ladder.Key, fromSeq int64) error {
	if err := tx.IntegrityStale(ctx, Ladder{QueueID: k.QueueID, SeasonID: k.SeasonID}, true); err != nil {
		return fmt.Errorf("integrity: rewritten: %w", err)
	}
	return nil
}

// EntryOf is the log entry of a saved rated write (false when its match
// is not rated), as IntegrityEntries reads it back: teams in user order.
func EntryOf(w ladder.RatedWrite) (Entry, bool) {
	m := w.Match
	if !m.State.Rated() {
		return Entry{}, false
	}
	e := Entry{MatchID: m.ID, Seq: m.Seq, At: m.PlayedAt, Winner: m.Winner, PTeam1: m.PTeam1,
		Before: map[string]float64{}, Delta: map[string]float64{}, Games: map[string]int{}, Carried: map[string]bool{},
		ReportedBy: m.ReportedBy, ReportedWinner: m.ReportedWinner, DisputedBy: m.DisputedBy, ResolvedBy: m.ResolvedBy}
	for _, c := range w.Changes {
		if c.Kind != "" && c.Kind != "match" {
			continue
		}
		if c.Team == 1 || c.Team == 2 {
			e.Teams[c.Team-1] = append(e.Teams[c.Team-1], c.UserID)
		}
		e.Before[c.UserID], e.Delta[c.UserID], e.Games[c.UserID] = c.Before.Rating, c.After.Rating-c.Before.Rating, c.Before.Games
		if c.Before.Games == 0 && !c.Before.Last.IsZero() {
			e.Carried[c.UserID] = true
		}
	}
	for t := range 2 {
		slices.Sort(e.Teams[t])
	}
	return e, true
}

// Rebuild runs the job's share of the work: it rebuilds the counters of
// the ladders that are not live (a correction rewrote their log, a match
// reached it unfolded, or its season's end went unseen), in steps of at most s.Batch rows, s.Budget in
// all, whatever the number of guilds, seasons or matches. It returns how
// many rows it deleted or matches it folded.
func (s *Service) Rebuild(ctx context.Context) (int, error) {
	if _, err := s.store.IntegrityEndedMissed(ctx); err != nil {
		return 0, fmt.Errorf("integrity: rebuild: %w", err)
	}
	ps, err := s.store.IntegrityPending(ctx, 100)
	if err != nil {
		return 0, fmt.Errorf("integrity: rebuild: %w", err)
	}
	total := 0
	for _, p := range ps {
		for total < s.Budget {
			n, err := s.store.IntegrityStep(ctx, p.GuildID, p.Ladder, s.Batch, s.step(p.GuildID, p.Ladder))
			if err != nil {
				return total, fmt.Errorf("integrity: rebuild queue %d season %d: %w", p.QueueID, p.SeasonID, err)
			}
			if n == 0 {
				break
			}
			total += n
		}
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
		if p.Ended {
			for _, f := range st.Review(s.th) {
				f.GuildID, f.QueueID, f.SeasonID, f.Seq, f.RaisedAt = guildID, l.QueueID, l.SeasonID, p.Seq, s.now().UTC()
				flags = append(flags, f)
			}
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
	// Pending counts ladders the job is rebuilding (after a correction):
	// they are compared once it is done.
	Pending int
	// Diffs are the differences, one line each.
	Diffs []string
}

// Verify refolds each live ladder's whole log and reports every stored
// counter that differs from the replay's, a progress that is not the
// log's end, and a flag the replay raises that is not stored.
//
// Its memory does not follow the length of the log: the log is read in
// pages of s.Batch matches by its seq (IntegrityEntries), and the stored
// counters in pages by their key (IntegrityCounterPage), each compared and
// dropped as it is read. What a ladder's fold holds is its counters, and
// the counters of pairs (opponents, partners) grow with the log as the
// matches do when players meet at random; so when a ladder stores more
// than s.VerifyKeys of them, the log is folded in as many passes as it
// takes to hold at most s.VerifyKeys pair counters each: every pass folds
// the ladder's and players' counters, and the pairs of its share only
// (passPart), which read nothing of the other pairs' counters.
func (s *Service) Verify(ctx context.Context, guildID string) (VerifyReport, error) {
	var rep VerifyReport
	ls, err := s.store.IntegrityLadders(ctx, guildID)
	if err != nil {
		return rep, fmt.Errorf("integrity: verify: %w", err)
	}
	flags, err := s.store.IntegrityFlags(ctx, guildID, false, math.MaxInt32)
	if err != nil {
		return rep, fmt.Errorf("integrity: verify: %w", err)
	}
	stored := map[string]bool{}
	for _, f := range flags {
		stored[flagKey(Ladder{QueueID: f.QueueID, SeasonID: f.SeasonID}, f)] = true
	}
	for _, l := range ls {
		if err := s.verifyLadder(ctx, guildID, l, stored, &rep); err != nil {
			return rep, fmt.Errorf("integrity: verify queue %d season %d: %w", l.QueueID, l.SeasonID, err)
		}
	}
	return rep, nil
}

// verifyLadder compares ladder l's stored rows with its replay (Verify).
func (s *Service) verifyLadder(ctx context.Context, guildID string, l Ladder, stored map[string]bool, rep *VerifyReport) error {
	p, err := s.store.IntegrityProgress(ctx, guildID, l)
	if err != nil && ladder.ErrorCode(err) == ladder.CodeNotFound {
		n, _, err := s.refold(ctx, guildID, l, nil)
		if err != nil {
			return err
		}
		if n > 0 {
			rep.Diffs = append(rep.Diffs, fmt.Sprintf("integrity: queue %d season %d: %d rated matches and no counters", l.QueueID, l.SeasonID, n))
		}
		return nil
	}
	if err != nil {
		return err
	}
	if !p.Live {
		rep.Pending++
		return nil
	}
	pairs, err := s.store.IntegrityCounterCount(ctx, guildID, l)
	if err != nil {
		return err
	}
	passes := 1
	if limit := max(s.VerifyKeys, 1); pairs > limit {
		passes = (pairs + limit - 1) / limit
	}
	var counterDiffs []keyedDiff
	var flagDiffs []Flag
	for pass := range passes {
		want := State{}
		// The first flag of each kind and subject the replay raises, of
		// the pass's own counters.
		var raised []Flag
		seen := map[string]bool{}
		ours := func(f Flag) bool {
			part := flagPart(f, passes)
			return part == pass || (pass == 0 && part < 0)
		}
		n, last, err := s.refold(ctx, guildID, l, func(e Entry) {
			for _, f := range want.Fold(e, s.th) {
				if k := f.Kind + "/" + Subject(f.Subjects); !seen[k] && ours(f) {
					seen[k] = true
					f.Seq = e.Seq
					raised = append(raised, f)
				}
			}
			if passes > 1 {
				for _, k := range Keys(e) {
					if part := passPart(k, passes); part >= 0 && part != pass {
						delete(want, k)
					}
				}
			}
		})
		if err != nil {
			return err
		}
		if p.Ended {
			// The review of the whole log at its end: each of its flags
			// was raised by the season's end or a later fold.
			for _, f := range want.Review(s.th) {
				if ours(f) {
					f.Seq = last
					raised = append(raised, f)
				}
			}
		}
		if pass == 0 {
			rep.Ladders++
			rep.Matches += n
			if p.Folded != n || p.Seq != last {
				rep.Diffs = append(rep.Diffs, fmt.Sprintf("integrity: queue %d season %d: folded %d matches up to seq %d, the log has %d up to seq %d",
					l.QueueID, l.SeasonID, p.Folded, p.Seq, n, last))
			}
		}
		for _, f := range raised {
			if !stored[flagKey(l, f)] {
				flagDiffs = append(flagDiffs, f)
			}
		}
		ds, err := s.compareStored(ctx, guildID, l, want, func(k string) bool {
			part := passPart(k, passes)
			return part == pass || (pass == 0 && part < 0)
		})
		if err != nil {
			return err
		}
		counterDiffs = append(counterDiffs, ds...)
	}
	slices.SortFunc(counterDiffs, func(a, b keyedDiff) int { return strings.Compare(a.key, b.key) })
	for _, d := range counterDiffs {
		rep.Diffs = append(rep.Diffs, d.diff)
	}
	// In the order the log raised them, those of one match by kind and
	// subject: the same order in one pass or many.
	slices.SortStableFunc(flagDiffs, func(a, b Flag) int {
		return cmp.Or(cmp.Compare(a.Seq, b.Seq), strings.Compare(a.Kind, b.Kind), strings.Compare(Subject(a.Subjects), Subject(b.Subjects)))
	})
	for _, f := range flagDiffs {
		rep.Diffs = append(rep.Diffs, fmt.Sprintf("integrity: queue %d season %d: the replay flags %s %s at seq %d, not stored",
			l.QueueID, l.SeasonID, f.Kind, Subject(f.Subjects), f.Seq))
	}
	return nil
}

// refold reads ladder l's rated log in pages of s.Batch matches, in log
// order, and hands each match to fold (nil: count only). It returns how
// many matches there are and the seq of the last.
func (s *Service) refold(ctx context.Context, guildID string, l Ladder, fold func(Entry)) (int, int64, error) {
	n, last := 0, int64(0)
	batch := max(s.Batch, 1)
	for {
		es, err := s.store.IntegrityEntries(ctx, guildID, l, last, batch)
		if err != nil {
			return n, last, err
		}
		for _, e := range es {
			if fold != nil {
				fold(e)
			}
			n, last = n+1, e.Seq
		}
		if len(es) < batch {
			return n, last, nil
		}
	}
}

// keyedDiff is a counter's difference with its key, to list them in key
// order.
type keyedDiff struct {
	key, diff string
}

// compareStored reads ladder l's stored counters page by page and compares
// those mine says are the pass's with want, the replay's, dropping each
// from want as it is compared: what is left of want (of mine) is stored
// nowhere.
func (s *Service) compareStored(ctx context.Context, guildID string, l Ladder, want State, mine func(string) bool) ([]keyedDiff, error) {
	var diffs []keyedDiff
	differ := func(k string, g, w *Counter) {
		if g == nil || w == nil || !sameCounter(*g, *w) {
			diffs = append(diffs, keyedDiff{k, fmt.Sprintf("integrity: queue %d season %d: counter %s stored %+v, replay %+v", l.QueueID, l.SeasonID, k, g, w)})
		}
	}
	after, batch := "", max(s.Batch, 1)
	for {
		rows, err := s.store.IntegrityCounterPage(ctx, guildID, l, after, batch)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			after = r.Key
			if !mine(r.Key) {
				continue
			}
			var g Counter
			if err := DecodeCounter(r.Value, &g); err != nil {
				return nil, fmt.Errorf("counter %s: %w", r.Key, err)
			}
			differ(r.Key, &g, want[r.Key])
			delete(want, r.Key)
		}
		if len(rows) < batch {
			break
		}
	}
	for k, w := range want {
		if mine(k) {
			differ(k, nil, w)
		}
	}
	return diffs, nil
}

// passPart is the pass of a verify in passes that compares counter k: a
// pair's counters (opponents "o:a:b", partners "p:a:b" and "p:b:a") by a
// hash of the pair, -1 for the ladder's and players' counters, which every
// pass folds and the first compares. A pair whose IDs hold a colon cannot
// be told from its key, and is -1 as well.
func passPart(k string, passes int) int {
	if passes <= 1 || len(k) < 2 || (k[:2] != "o:" && k[:2] != "p:") || strings.Count(k, ":") != 2 {
		return -1
	}
	a, b, _ := strings.Cut(k[2:], ":")
	if b < a {
		a, b = b, a
	}
	h := fnv.New32a()
	h.Write([]byte(a))
	h.Write([]byte{0})
	h.Write([]byte(b))
	return int(h.Sum32() % uint32(passes))
}

// flagPart is the pass of a verify in passes that checks flag f: the pass
// of the counter that raised it.
func flagPart(f Flag, passes int) int {
	if len(f.Subjects) != 2 {
		return -1
	}
	switch f.Kind {
	case KindWinTrade:
		return passPart(pairKey(f.Subjects[0], f.Subjects[1]), passes)
	case KindBoost:
		return passPart(partnerKey(f.Subjects[0], f.Subjects[1]), passes)
	}
	return -1
}

func flagKey(l Ladder, f Flag) string {
	return fmt.Sprintf("%d/%d/%s/%s", l.QueueID, l.SeasonID, f.Kind, Subject(f.Subjects))
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
	for _, p := range [][2]*float64{{&a.NetA, &b.NetA}, {&a.Mate, &b.Mate}, {&a.From, &b.From}, {&a.EarlyO, &b.EarlyO}, {&a.EarlyP, &b.EarlyP}, {&a.LLR, &b.LLR}, {&a.Start, &b.Start},
		{&a.PopMean, &b.PopMean}, {&a.PopVar, &b.PopVar}} {
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

// MaxDismissReason is the longest reason a flag is dismissed with, in
// characters; the commands' reason option and the dashboard's field allow
// as much.
const MaxDismissReason = 200

// Dismiss closes a flag with the moderator's reason; the audit log keeps
// who and why. The reason passes ladder.CheckReason, as every moderator's
// reason does, whichever surface it comes from.
func (s *Service) Dismiss(ctx context.Context, actor ladder.Actor, guildID string, id int64, reason string) (Flag, error) {
	if !actor.Moderator {
		return Flag{}, ladder.Errorf(ladder.CodeForbidden, "only moderators dismiss integrity flags")
	}
	reason, err := ladder.CheckReason(reason)
	if err != nil {
		return Flag{}, err
	}
	if n := utf8.RuneCountInString(reason); n > MaxDismissReason {
		return Flag{}, ladder.Errorf(ladder.CodeInvalid, "the reason may have at most %d characters, not %d", MaxDismissReason, n)
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
