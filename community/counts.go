package community

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// A season's partnerships and busiest hours are counts over its rated
// matches. They are kept in rows (PairCount, HourCount) that move with
// each change of a match's result, inside that change's transaction: the
// rated write adds a newly rated match, a moderator's correction or void
// takes the match's old result out and puts the new one in. The stats page
// then reads a handful of rows however long the season has run, and
// Verify recounts them from the log and compares.

// PairCount is the record of two players (A < B) on the same team in a
// ladder.
type PairCount struct {
	QueueID, SeasonID int64
	GuildID           string
	A, B              string
	Record
}

// HourCount is how many rated matches of a ladder were played in one hour
// of the week (Slot: weekday × 24 + hour, UTC, Sunday 0).
type HourCount struct {
	QueueID, SeasonID int64
	GuildID           string
	Slot              int
	Matches           int
}

// Counts are changes of (or, read back, the values of) a guild's season
// counts, each list in key order.
type Counts struct {
	Pairs []PairCount
	Hours []HourCount
}

// Empty reports whether c changes nothing.
func (c Counts) Empty() bool { return len(c.Pairs) == 0 && len(c.Hours) == 0 }

// CountsStore keeps the season counts inside the transaction that changes
// a match's result.
type CountsStore interface {
	// AddCounts adds c's counts to the stored ones (creating rows at
	// zero), in key order.
	AddCounts(ctx context.Context, c Counts) error
}

// SlotOf is the hour of the week t falls in, UTC.
func SlotOf(t time.Time) int {
	t = t.UTC()
	return int(t.Weekday())*24 + t.Hour()
}

// tally sums changes of the season counts.
type tally struct {
	pairs map[pairKey]*PairCount
	hours map[hourKey]*HourCount
}

type pairKey struct {
	queue, season int64
	a, b          string
}

type hourKey struct {
	queue, season int64
	slot          int
}

// add adds sign × what match m counts for: nothing unless it is rated;
// then a game for every pair of teammates, won, lost or drawn, and a
// match in the hour it was played.
func (t *tally) add(m ladder.Match, sign int) {
	if !m.State.Rated() {
		return
	}
	if t.pairs == nil {
		t.pairs, t.hours = map[pairKey]*PairCount{}, map[hourKey]*HourCount{}
	}
	for ti, team := range m.Teams {
		var r Record
		switch m.Winner {
		case ladder.Draw:
			r.Draws = sign
		case ti + 1:
			r.Wins = sign
		default:
			r.Losses = sign
		}
		for i, a := range team {
			for _, b := range team[i+1:] {
				a, b := min(a, b), max(a, b)
				k := pairKey{m.QueueID, m.SeasonID, a, b}
				p := t.pairs[k]
				if p == nil {
					p = &PairCount{QueueID: m.QueueID, SeasonID: m.SeasonID, GuildID: m.GuildID, A: a, B: b}
					t.pairs[k] = p
				}
				p.Wins += r.Wins
				p.Losses += r.Losses
				p.Draws += r.Draws
			}
		}
	}
	slot := SlotOf(m.When())
	k := hourKey{m.QueueID, m.SeasonID, slot}
	h := t.hours[k]
	if h == nil {
		h = &HourCount{QueueID: m.QueueID, SeasonID: m.SeasonID, GuildID: m.GuildID, Slot: slot}
		t.hours[k] = h
	}
	h.Matches += sign
}

// counts lists the non-zero changes in key order.
func (t *tally) counts() Counts {
	var c Counts
	for _, p := range t.pairs {
		if p.Record != (Record{}) {
			c.Pairs = append(c.Pairs, *p)
		}
	}
	for _, h := range t.hours {
		if h.Matches != 0 {
			c.Hours = append(c.Hours, *h)
		}
	}
	SortCounts(c)
	return c
}

// SortCounts puts c's lists in key order: queue, season, then the pair or
// the slot.
func SortCounts(c Counts) {
	slices.SortFunc(c.Pairs, func(x, y PairCount) int {
		return cmp.Or(cmp.Compare(x.QueueID, y.QueueID), cmp.Compare(x.SeasonID, y.SeasonID), cmp.Compare(x.A, y.A), cmp.Compare(x.B, y.B))
	})
	slices.SortFunc(c.Hours, func(x, y HourCount) int {
		return cmp.Or(cmp.Compare(x.QueueID, y.QueueID), cmp.Compare(x.SeasonID, y.SeasonID), cmp.Compare(x.Slot, y.Slot))
	})
}

// RatedCounts adds the newly rated matches of rated writes to their
// seasons' counts, in their transaction. A rated write rates a match that
// counted for nothing before (open, reported or disputed).
func RatedCounts(ctx context.Context, tx CountsStore, ws []ladder.RatedWrite) error {
	var t tally
	for _, w := range ws {
		t.add(w.Match, 1)
	}
	return addCounts(ctx, tx, t)
}

// UpdatedCounts moves a logged match's counts from what it was (old) to
// what a moderator made it (m), in the correction's transaction.
func UpdatedCounts(ctx context.Context, tx CountsStore, old, m ladder.Match) error {
	var t tally
	t.add(old, -1)
	t.add(m, 1)
	return addCounts(ctx, tx, t)
}

func addCounts(ctx context.Context, tx CountsStore, t tally) error {
	c := t.counts()
	if c.Empty() {
		return nil
	}
	if err := tx.AddCounts(ctx, c); err != nil {
		return fmt.Errorf("community: season counts: %w", err)
	}
	return nil
}

// countsPage is how many rows VerifyCounts reads at once.
const countsPage = 1000

// VerifyCounts recounts a guild's season counts from its rated matches
// and lists every stored count that differs. It reads the matches and the
// stored partnerships a page at a time: its memory is the recount (a row
// a partnership), whatever the number of matches.
func VerifyCounts(ctx context.Context, store CountsReader, guildID string) ([]string, error) {
	var want tally
	for after := int64(0); ; {
		ms, err := store.CountedMatches(ctx, guildID, after, countsPage)
		if err != nil {
			return nil, fmt.Errorf("community: verify counts: %w", err)
		}
		for _, m := range ms {
			want.add(m, 1)
			after = m.ID
		}
		if len(ms) < countsPage {
			break
		}
	}
	var diffs []string
	pairName := func(p PairCount) string {
		return fmt.Sprintf("queue %d season %d %s+%s", p.QueueID, p.SeasonID, p.A, p.B)
	}
	record := func(r Record) string { return fmt.Sprintf("%d-%d-%d", r.Wins, r.Losses, r.Draws) }
	for after := (PairCount{}); ; {
		ps, err := store.StoredPairs(ctx, guildID, after, countsPage)
		if err != nil {
			return nil, fmt.Errorf("community: verify counts: %w", err)
		}
		for _, p := range ps {
			k := pairKey{p.QueueID, p.SeasonID, p.A, p.B}
			if w := want.pairs[k]; w == nil || w.Record == (Record{}) {
				diffs = append(diffs, fmt.Sprintf("community: partnership %s: stored %s, recount none", pairName(p), record(p.Record)))
			} else if w.Record != p.Record {
				diffs = append(diffs, fmt.Sprintf("community: partnership %s: stored %s, recount %s", pairName(p), record(p.Record), record(w.Record)))
			}
			delete(want.pairs, k)
			after = p
		}
		if len(ps) < countsPage {
			break
		}
	}
	for _, w := range want.pairs {
		if w.Record != (Record{}) {
			diffs = append(diffs, fmt.Sprintf("community: partnership %s: not stored, recount %s", pairName(*w), record(w.Record)))
		}
	}
	got, err := store.StoredHours(ctx, guildID)
	if err != nil {
		return nil, fmt.Errorf("community: verify counts: %w", err)
	}
	hours := func(hs []HourCount) map[string]string {
		out := map[string]string{}
		for _, h := range hs {
			out[fmt.Sprintf("queue %d season %d hour %d", h.QueueID, h.SeasonID, h.Slot)] = fmt.Sprint(h.Matches)
		}
		return out
	}
	want.pairs = nil
	diffs = append(diffs, diffKeyed("busiest hours ", hours(got), hours(want.counts().Hours))...)
	slices.Sort(diffs)
	return diffs, nil
}

// diffKeyed lists how stored rows differ from their recount, both by key
// (named by what and the key in each line) to the row written as text,
// in no particular order.
func diffKeyed(what string, stored, recount map[string]string) []string {
	var diffs []string
	for k, g := range stored {
		if w, ok := recount[k]; !ok {
			diffs = append(diffs, fmt.Sprintf("community: %s%s: stored %s, recount none", what, k, g))
		} else if w != g {
			diffs = append(diffs, fmt.Sprintf("community: %s%s: stored %s, recount %s", what, k, g, w))
		}
	}
	for k, w := range recount {
		if _, ok := stored[k]; !ok {
			diffs = append(diffs, fmt.Sprintf("community: %s%s: not stored, recount %s", what, k, w))
		}
	}
	return diffs
}

// CountsReader reads a guild's stored season counts (rows of zeros left
// out) or, fromLog, the counts recounted from its rated matches.
type CountsReader interface {
	SeasonCounts(ctx context.Context, guildID string, fromLog bool) (Counts, error)
	// CountedMatches returns up to limit of the guild's rated matches
	// with IDs above afterID, in ID order, with their teams.
	CountedMatches(ctx context.Context, guildID string, afterID int64, limit int) ([]ladder.Match, error)
	// StoredPairs returns up to limit of the guild's stored partnerships
	// (rows of zeros left out) after after, in key order (queue, season,
	// A, B).
	StoredPairs(ctx context.Context, guildID string, after PairCount, limit int) ([]PairCount, error)
	// StoredHours returns the guild's stored busiest hours, rows of
	// zeros left out.
	StoredHours(ctx context.Context, guildID string) ([]HourCount, error)
}

// CountsOf is what matches count for in their seasons, from nothing:
// verify's recount.
func CountsOf(ms []ladder.Match) Counts {
	var t tally
	for _, m := range ms {
		t.add(m, 1)
	}
	return t.counts()
}
