package matchmaking

import (
	"math"
	"time"
)

// maxScan bounds how many candidates one anchor looks at. Only parties that
// cannot complete a match are ever passed over, so the bound matters only for
// queues full of parties that do not fit together.
const maxScan = 1024

// Matcher runs matchmaking passes and keeps its scratch buffers between them,
// so a service that forms matches often allocates little more than the
// proposals it returns. The zero value is ready; a Matcher is not safe for
// concurrent use.
//
// One pass (docs/spec.md 3): entries are anchors oldest first (JoinedAt, then ID).
// For an anchor, the other entries are ordered by RD band distance (band =
// ⌊RD/25⌋, a party's RD being the RMS of its members'), then |R − R_anchor|
// (a party's R being its mean), then age, and taken greedily while their
// players fit: an entry is passed over when it would overfill the 2k seats or
// leave no way to split the parties k against k. Every split of the chosen
// entries into two teams of k is evaluated and the one with the smallest
// Δ_eff kept; the match is formed when its Q reaches q_min of the anchor's
// wait, and otherwise the anchor stays queued and the next oldest is tried.
//
// Entries are indexed once per pass by band and rating, and removed entries
// are skipped with union-find, so an anchor costs O(k log n) rather than a
// sort of the whole queue.
type Matcher struct {
	ent    []mmEntry
	order  []int32 // anchors: entry indices by (joined, id)
	byBand []int32 // entry indices by (band, r, joined, id)
	bands  []mmBand
	alive  []bool
	right  []int32 // union-find over byBand: next alive at or after i
	left   []int32 // union-find over byBand shifted by one: last alive before i
	fwd    []int32 // union-find over order: next alive at or after i
	chosen []int32
	split  soloSplit
}

type mmEntry struct {
	r, rd2   float64 // mean rating, mean RD² (RD_T² of the party)
	sumR     float64 // includes size × shift
	shift    float64 // partyShift of the members (0 with party rating off)
	sumRD2   float64
	band     int
	size     int
	joined   int64
	id       int64
	src      int32 // index into the caller's entries
	pos      int32 // position in byBand
	opos     int32 // position in order
	bandSlot int32 // index into bands
}

type mmBand struct {
	band   int
	lo, hi int32 // byBand[lo:hi]
}

// rdBand is docs/spec.md 3's RD band ⌊RD/25⌋.
func rdBand(rd float64) int { return int(math.Floor(rd / 25)) }

// Form is FormMatches reusing m's buffers.
func (m *Matcher) Form(entries []Entry, s Settings, now time.Time) []Proposal {
	if s.Validate() != nil || !m.index(entries, s) {
		return nil
	}
	var out proposalBuilder
	for _, a := range m.order {
		if !m.alive[a] {
			continue
		}
		wait := now.Sub(entries[m.ent[a].src].JoinedAt)
		qmin := s.QMin(wait)
		ok := false
		if s.QFloor <= 0 {
			ok = m.gatherFIFO(a, s.TeamSize)
		} else {
			ok = m.gather(a, s.TeamSize)
		}
		if !ok || m.bestPossible(s.TeamSize) < qmin {
			continue
		}
		split, ev := m.bestSplit(entries, s)
		if ev.Quality < qmin {
			continue
		}
		out.add(entries, m, split, ev, qmin, wait)
		for _, e := range m.chosen {
			m.remove(e)
		}
	}
	return out.props
}

// proposalBuilder carves every proposal's slices out of a few shared arrays.
type proposalBuilder struct {
	props []Proposal
	ids   []int64
	names []string
}

func (b *proposalBuilder) add(entries []Entry, m *Matcher, mask uint32, ev Evaluation, qmin float64, wait time.Duration) {
	if b.props == nil {
		n := len(m.ent)
		b.props = make([]Proposal, 0, n/4+1)
		b.ids = make([]int64, 0, n)
		b.names = make([]string, 0, 2*n)
	}
	start := len(b.ids)
	for _, e := range m.chosen {
		b.ids = append(b.ids, m.ent[e].id)
	}
	p := Proposal{
		EntryIDs: b.ids[start:len(b.ids):len(b.ids)],
		Quality:  ev.Quality, DeltaEff: ev.DeltaEff, REff: ev.REff,
		QMin: qmin, AnchorWait: wait,
	}
	for t := range 2 {
		start := len(b.names)
		for i, e := range m.chosen {
			onZero := i == 0 || mask&(1<<(i-1)) != 0
			if onZero == (t == 0) {
				for _, mb := range entries[m.ent[e].src].Members {
					b.names = append(b.names, mb.UserID)
				}
			}
		}
		p.Teams[t] = b.names[start:len(b.names):len(b.names)]
	}
	b.props = append(b.props, p)
}
