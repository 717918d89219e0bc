package matchmaking

import (
	"cmp"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"math"
	"math/bits"
	"slices"
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

// index builds the per-pass arrays; it reports false when nothing can match.
func (m *Matcher) index(entries []Entry, s Settings) bool {
	k := s.TeamSize
	m.ent = m.ent[:0]
	for i, qe := range entries {
		n := len(qe.Members)
		if n == 0 || n > k {
			continue
		}
		e := mmEntry{size: n, joined: qe.JoinedAt.UnixNano(), id: qe.ID, src: int32(i)}
		for _, mb := range qe.Members {
			e.sumR += mb.Rating
			e.sumRD2 += mb.RD * mb.RD
		}
		e.shift = s.partyShift(qe.Members)
		e.sumR += float64(n) * e.shift
		e.r = e.sumR / float64(n)
		e.rd2 = e.sumRD2 / float64(n)
		e.band = rdBand(math.Sqrt(e.rd2))
		m.ent = append(m.ent, e)
	}
	n := len(m.ent)
	if n < 2 { // a party has at most k players, so a match needs two entries
		return false
	}
	m.order = resize(m.order, n)
	m.byBand = resize(m.byBand, n)
	for i := range n {
		m.order[i] = int32(i)
		m.byBand[i] = int32(i)
	}
	ent := m.ent
	slices.SortFunc(m.order, func(a, b int32) int { return olderFirst(&ent[a], &ent[b]) })
	slices.SortFunc(m.byBand, func(a, b int32) int {
		x, y := &ent[a], &ent[b]
		if c := cmp.Compare(x.band, y.band); c != 0 {
			return c
		}
		if c := cmp.Compare(x.r, y.r); c != 0 {
			return c
		}
		return olderFirst(x, y)
	})
	m.bands = m.bands[:0]
	for p, e := range m.byBand {
		ent[e].pos = int32(p)
		if len(m.bands) == 0 || m.bands[len(m.bands)-1].band != ent[e].band {
			m.bands = append(m.bands, mmBand{band: ent[e].band, lo: int32(p)})
		}
		m.bands[len(m.bands)-1].hi = int32(p + 1)
		ent[e].bandSlot = int32(len(m.bands) - 1)
	}
	for p, e := range m.order {
		ent[e].opos = int32(p)
	}
	m.alive = resize(m.alive, n)
	m.right = resize(m.right, n+1)
	m.left = resize(m.left, n+1)
	m.fwd = resize(m.fwd, n+1)
	for i := range n + 1 {
		m.right[i] = int32(i)
		m.left[i] = int32(i)
		m.fwd[i] = int32(i)
	}
	for i := range n {
		m.alive[i] = true
	}
	return true
}

func olderFirst(x, y *mmEntry) int {
	if c := cmp.Compare(x.joined, y.joined); c != 0 {
		return c
	}
	return cmp.Compare(x.id, y.id)
}

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// remove takes entry e out of the queue for the rest of the pass.
func (m *Matcher) remove(e int32) {
	m.alive[e] = false
	p := m.ent[e].pos
	m.right[p] = p + 1
	m.left[p+1] = p
	m.fwd[m.ent[e].opos] = m.ent[e].opos + 1
}

// nextInOrder returns the first alive position ≥ p in order (n when none).
func (m *Matcher) nextInOrder(p int32) int32 {
	for m.fwd[p] != p {
		m.fwd[p] = m.fwd[m.fwd[p]]
		p = m.fwd[p]
	}
	return p
}

// nextAlive returns the first alive position ≥ p in byBand (n when none).
func (m *Matcher) nextAlive(p int32) int32 {
	for m.right[p] != p {
		m.right[p] = m.right[m.right[p]]
		p = m.right[p]
	}
	return p
}

// prevAlive returns the last alive position < p in byBand (−1 when none).
func (m *Matcher) prevAlive(p int32) int32 {
	q := p
	for m.left[q] != q {
		m.left[q] = m.left[m.left[q]]
		q = m.left[q]
	}
	return q - 1
}

// cursor walks one band away from the anchor's rating in one direction,
// yielding entries by |R − R_anchor| and, among equal ratings, oldest first.
type cursor struct {
	m          *Matcher
	lo, hi     int32 // the band's byBand range
	p          int32 // current position; −1 when exhausted
	down       bool
	runLo      int32 // downward: the run of equal ratings being walked
	runHi      int32
	exhausted  bool
	skip       int32 // the anchor's own position, never yielded
	anchorR    float64
	headDist   float64
	headJoined int64
	headID     int64
}

func (c *cursor) initUp(m *Matcher, lo, hi, start, skip int32, r float64) {
	*c = cursor{m: m, lo: lo, hi: hi, skip: skip, anchorR: r}
	c.p = m.nextAlive(start)
	c.settle()
}

func (c *cursor) initDown(m *Matcher, lo, hi, start int32, r float64) {
	*c = cursor{m: m, lo: lo, hi: hi, down: true, skip: -1, anchorR: r, runLo: start, runHi: start - 1}
	c.p = start // forces the first run to be found below start
	c.nextRun()
	c.settle()
}

// nextRun moves a downward cursor to the run of equal ratings just below runLo.
func (c *cursor) nextRun() {
	m := c.m
	i := m.prevAlive(c.runLo)
	if i < c.lo {
		c.exhausted = true
		return
	}
	r := m.ent[m.byBand[i]].r
	first := int32(lowerBound(m, c.lo, i, r))
	c.runLo = m.nextAlive(first)
	c.runHi = i
	c.p = c.runLo
}

func (c *cursor) settle() {
	if c.p == c.skip {
		c.p = c.m.nextAlive(c.p + 1)
	}
	if !c.down && c.p >= c.hi {
		c.exhausted = true
	}
	if c.exhausted {
		return
	}
	e := &c.m.ent[c.m.byBand[c.p]]
	c.headDist = math.Abs(e.r - c.anchorR)
	c.headJoined, c.headID = e.joined, e.id
}

// advance steps past the current head.
func (c *cursor) advance() {
	c.p = c.m.nextAlive(c.p + 1)
	if c.down && c.p > c.runHi {
		c.nextRun()
	}
	c.settle()
}

func (c *cursor) before(d *cursor) bool {
	if c.headDist != d.headDist {
		return c.headDist < d.headDist
	}
	if c.headJoined != d.headJoined {
		return c.headJoined < d.headJoined
	}
	return c.headID < d.headID
}

// lowerBound returns the first position in byBand[lo:hi] whose rating is ≥ r.
func lowerBound(m *Matcher, lo, hi int32, r float64) int {
	a, b := int(lo), int(hi)
	for a < b {
		h := int(uint(a+b) >> 1)
		if m.ent[m.byBand[h]].r < r {
			a = h + 1
		} else {
			b = h
		}
	}
	return a
}

// gather fills m.chosen with the anchor and the entries it would play with,
// reporting false when the queue cannot fill 2k seats around it.
func (m *Matcher) gather(a int32, k int) bool {
	anchor := &m.ent[a]
	m.chosen = append(m.chosen[:0], a)
	used := anchor.size
	sums := uint32(1) | 1<<anchor.size // sizes team 0 can reach with the chosen parties
	seats := 2 * k
	scanned := 0
	home := int(anchor.bandSlot)
	dl, dr := home-1, home+1
	var curs [4]cursor
	ncur := 0
	for dist := 0; used < seats && scanned < maxScan; dist++ {
		ncur = 0
		if dist == 0 {
			b := m.bands[home]
			// older entries of equal rating (anchors that found no match)
			// sit just before the anchor, so both walks start at its rating
			lb := int32(lowerBound(m, b.lo, anchor.pos, anchor.r))
			curs[0].initUp(m, b.lo, b.hi, lb, anchor.pos, anchor.r)
			curs[1].initDown(m, b.lo, b.hi, lb, anchor.r)
			ncur = 2
		} else {
			// the next RD band distance: one or two bands
			next := math.MaxInt
			if dl >= 0 {
				next = anchor.band - m.bands[dl].band
			}
			if dr < len(m.bands) {
				next = min(next, m.bands[dr].band-anchor.band)
			}
			if next == math.MaxInt {
				return false
			}
			for dl >= 0 && anchor.band-m.bands[dl].band == next {
				ncur = m.openBand(&curs, ncur, dl, anchor.r)
				dl--
			}
			for dr < len(m.bands) && m.bands[dr].band-anchor.band == next {
				ncur = m.openBand(&curs, ncur, dr, anchor.r)
				dr++
			}
		}
		for used < seats && scanned < maxScan {
			best := -1
			for i := range ncur {
				if !curs[i].exhausted && (best < 0 || curs[i].before(&curs[best])) {
					best = i
				}
			}
			if best < 0 {
				break
			}
			e := m.byBand[curs[best].p]
			curs[best].advance()
			scanned++
			m.take(e, k, &used, &sums)
		}
	}
	return used == seats
}

// take adds entry e to m.chosen when its players fit: the 2k seats are not
// overfilled and the parties can still be split k against k once solo
// players fill the free seats. sums is the set of team-0 sizes the chosen
// parties can make, as a bit set.
func (m *Matcher) take(e int32, k int, used *int, sums *uint32) {
	sz := m.ent[e].size
	if *used+sz > 2*k {
		return
	}
	ns := *sums | *sums<<sz
	lo := max(*used+sz-k, 0) // team 0 must leave team 1 at most k
	if ns>>lo&(1<<(k-lo+1)-1) == 0 {
		return
	}
	*sums = ns
	*used += sz
	m.chosen = append(m.chosen, e)
}

// gatherFIFO is gather for QFloor 0, seed 000's "match immediately with
// any available session": the anchor plays with the oldest other entries
// that fit, with no RD or rating ordering.
func (m *Matcher) gatherFIFO(a int32, k int) bool {
	anchor := &m.ent[a]
	m.chosen = append(m.chosen[:0], a)
	used := anchor.size
	sums := uint32(1) | 1<<anchor.size
	n := int32(len(m.order))
	scanned := 0
	for p := m.nextInOrder(0); p < n && used < 2*k && scanned < maxScan; p = m.nextInOrder(p + 1) {
		if e := m.order[p]; e != a {
			scanned++
			m.take(e, k, &used, &sums)
		}
	}
	return used == 2*k
}

func (m *Matcher) openBand(curs *[4]cursor, n int, slot int, r float64) int {
	b := m.bands[slot]
	start := int32(lowerBound(m, b.lo, b.hi, r))
	curs[n].initUp(m, b.lo, b.hi, start, -1, r)
	curs[n+1].initDown(m, b.lo, b.hi, start, r)
	return n + 2
}

// bestPossible is the quality of the chosen players with Δ_eff = 0: RD_comb
// does not depend on the split, so an anchor below q_min even then needs no
// split search.
func (m *Matcher) bestPossible(k int) float64 {
	var rd2 float64
	for _, e := range m.chosen {
		rd2 += m.ent[e].sumRD2
	}
	return quality(0, rd2/float64(k))
}

// bestSplit evaluates every split of the chosen entries into two teams of k
// (the anchor's entry on team 0) and returns the mask over m.chosen[1:] of
// the other entries on team 0 for the split with the smallest Δ_eff (among
// equal ones, the smallest mask), with its evaluation.
func (m *Matcher) bestSplit(entries []Entry, s Settings) (uint32, Evaluation) {
	k := s.TeamSize
	ch := m.chosen
	var totR, totRD2 float64
	for _, e := range ch {
		totR += m.ent[e].sumR
		totRD2 += m.ent[e].sumRD2
	}
	var bestMask uint32
	if len(ch) == 2*k {
		bestMask = m.bestSoloSplit(s, totR, totRD2)
	} else {
		bestMask = m.bestPartySplit(s, totR, totRD2)
	}
	// recompute the winner from scratch, free of Gray-code rounding drift
	var team [2][]Member
	var buf [2 * rating.MaxTeamSize]Member
	team[0], team[1] = buf[:0:rating.MaxTeamSize], buf[rating.MaxTeamSize:rating.MaxTeamSize]
	for i, e := range ch {
		t := 0
		if i > 0 && bestMask&(1<<(i-1)) == 0 {
			t = 1
		}
		for _, mb := range entries[m.ent[e].src].Members {
			mb.Rating += m.ent[e].shift
			team[t] = append(team[t], mb)
		}
	}
	return bestMask, s.Evaluate(team[0], team[1])
}

// deltaEff is Δ_eff of a split from team 0's sums and the totals.
func deltaEff(s Settings, fk, sumR, sumRD2, totR, totRD2 float64) float64 {
	ra := sumR/fk + s.boost(math.Sqrt(max(sumRD2, 0)/fk))
	rb := (totR-sumR)/fk + s.boost(math.Sqrt(max(totRD2-sumRD2, 0)/fk))
	return math.Abs(ra - rb)
}

// bestSoloSplit handles 2k solo players: the masks with k−1 of the other
// 2k−1 players (seed 001 F8). It returns exactly what evaluating every mask
// in increasing order would (the smallest Δ_eff, the smallest mask among
// equal ones), and computes each Δ_eff it looks at bit for bit as that plain
// loop does, team 0's sums folded from the anchor up in increasing index.
//
// Up to k = plainSplitMaxK it does look at every mask; above, it prunes
// with a provable bound.
// R_eff_A − R_eff_B = (2ΣR_A − ΣR)/k − g(ΣRD²_A), where g(q) = Boost·(√(q/k)
// − √((ΣRD² − q)/k)). Over the range of ΣRD²_A the k−1 other players can
// make, g differs from its chord L by at most E = width²/8 times the largest
// |g₂| there, g₂ being g's second derivative, which increases with q, so
// that largest value sits at an end of the range. The chord makes the
// difference, up to E, a sum of per-player weights w_i = 2R_i/k − slope·RD²_i
// plus a constant; the masks are walked depth first, one player per level,
// and a subtree is skipped when the range of its weight sums keeps the
// difference out of ±(best Δ_eff + E + slack). slack is 1e-9 of the
// magnitudes involved, far above rounding; NaN or infinite inputs make the
// limit NaN or +Inf, which disables pruning. A greedy split evaluated first
// makes the bound bite early.
func (m *Matcher) bestSoloSplit(s Settings, totR, totRD2 float64) uint32 {
	k := s.TeamSize
	if k == 1 {
		return 0
	}
	if k <= plainSplitMaxK {
		return m.everySoloSplit(s, totR, totRD2)
	}
	return m.prunedSoloSplit(s, totR, totRD2)
}

// prunedSoloSplit is bestSoloSplit's pruned search, for k ≥ 2.
func (m *Matcher) prunedSoloSplit(s Settings, totR, totRD2 float64) uint32 {
	k := s.TeamSize
	ch := m.chosen
	a := &m.ent[ch[0]]
	sr := &m.split
	n := 2*k - 1
	fk := float64(k)
	sr.s, sr.k, sr.fk, sr.n = s, k, fk, n
	sr.totR, sr.totRD2 = totR, totRD2
	for i, e := range ch[1:] {
		sr.rs[i], sr.rd2s[i] = m.ent[e].sumR, m.ent[e].sumRD2
	}
	// the ΣRD²_A range, from the smallest and largest k−1 RD²
	loQ, hiQ := sr.extremeSums(sr.rd2s[:n], k-1)
	qa, qb := a.sumRD2+loQ, a.sumRD2+hiQ
	ga, gb := sr.gBoost(qa), sr.gBoost(qb)
	slope := 0.0
	if qb > qa {
		slope = (gb - ga) / (qb - qa)
	}
	curv := func(q float64) float64 {
		return math.Abs(s.Boost / (4 * math.Sqrt(fk)) * (math.Pow(totRD2-q, -1.5) - math.Pow(q, -1.5)))
	}
	errE := math.Inf(1)
	if qa > 0 && totRD2-qb > 0 {
		errE = (qb - qa) * (qb - qa) / 8 * max(curv(qa), curv(qb)) * (1 + 1e-6)
	}
	scale := math.Abs(a.sumR) + s.Boost*s.RDMax + s.Boost*math.Sqrt(math.Abs(totRD2)/fk) +
		math.Abs(slope)*(math.Abs(totRD2)+math.Abs(qb)) + math.Abs(ga)
	for i := range n {
		sr.w[i] = 2*sr.rs[i]/fk - slope*sr.rd2s[i]
		scale += math.Abs(sr.rs[i]) + math.Abs(sr.w[i])
	}
	sr.margin = errE + 1e-9*(1+scale)
	// loW/hiW[p][c]: the smallest and largest sums of c weights among p..n−1
	for c := 1; c < k; c++ {
		sr.loW[n][c], sr.hiW[n][c] = math.Inf(1), math.Inf(-1)
	}
	for p := n - 1; p >= 0; p-- {
		for c := 1; c < k; c++ {
			sr.loW[p][c] = min(sr.loW[p+1][c], sr.w[p]+sr.loW[p+1][c-1])
			sr.hiW[p][c] = max(sr.hiW[p+1][c], sr.w[p]+sr.hiW[p+1][c-1])
		}
	}
	base := (2*a.sumR-totR)/fk - ga - slope*(a.sumRD2-qa)
	sr.bestMask, sr.bestDelta = 0, math.Inf(1)
	sr.seed(a.sumR, a.sumRD2)
	sr.walk(0, k-1, 0, base, a.sumR, a.sumRD2)
	return sr.bestMask
}

// plainSplitMaxK is the largest team size whose C(2k−1, k−1) splits are
// cheaper to evaluate one by one than to set the pruned search up for.
const plainSplitMaxK = 4

// everySoloSplit is bestSoloSplit evaluating every mask in increasing order
// (Gosper's hack), stopping at the first Δ_eff of 0.
func (m *Matcher) everySoloSplit(s Settings, totR, totRD2 float64) uint32 {
	k := s.TeamSize
	fk := float64(k)
	ch := m.chosen
	a := &m.ent[ch[0]]
	var rs, rd2s [2 * rating.MaxTeamSize]float64
	for i, e := range ch[1:] {
		rs[i], rd2s[i] = m.ent[e].sumR, m.ent[e].sumRD2
	}
	bestMask, bestDelta := uint32(0), math.Inf(1)
	n := uint32(2*k - 1)
	for x := uint32(1)<<(k-1) - 1; x < 1<<n; {
		sumR, sumRD2 := a.sumR, a.sumRD2
		for b := x; b != 0; b &= b - 1 {
			i := bits.TrailingZeros32(b) & (2*rating.MaxTeamSize - 1)
			sumR += rs[i]
			sumRD2 += rd2s[i]
		}
		if d := deltaEff(s, fk, sumR, sumRD2, totR, totRD2); d < bestDelta {
			bestDelta, bestMask = d, x
			if d == 0 {
				break
			}
		}
		c := x & -x
		r := x + c
		x = (r^x)/c>>2 | r
	}
	return bestMask
}

// soloSplit is prunedSoloSplit's search state, kept in the Matcher.
type soloSplit struct {
	s                Settings
	k, n             int
	fk, totR, totRD2 float64
	margin           float64
	rs, rd2s, w      [2 * rating.MaxTeamSize]float64
	loW, hiW         [2 * rating.MaxTeamSize][rating.MaxTeamSize]float64
	bestMask         uint32
	bestDelta        float64
}

// extremeSums returns the smallest and largest sums of c of xs.
func (sr *soloSplit) extremeSums(xs []float64, c int) (lo, hi float64) {
	var buf [2 * rating.MaxTeamSize]float64
	srt := buf[:len(xs)]
	copy(srt, xs)
	slices.Sort(srt)
	for i := range c {
		lo += srt[i]
		hi += srt[len(srt)-1-i]
	}
	return lo, hi
}

// consider records mask when its Δ_eff beats the best so far, or equals it
// with a smaller mask: the first minimum of the increasing-order walk.
func (sr *soloSplit) consider(mask uint32, sumR, sumRD2 float64) {
	d := deltaEff(sr.s, sr.fk, sumR, sumRD2, sr.totR, sr.totRD2)
	if d < sr.bestDelta || d == sr.bestDelta && mask < sr.bestMask {
		sr.bestDelta, sr.bestMask = d, mask
	}
}

// seed evaluates a greedy split first: players by weight, highest first,
// each to the team with the smaller weight sum while it has room.
func (sr *soloSplit) seed(aR, aRD2 float64) {
	var idx [2 * rating.MaxTeamSize]int8
	for i := range sr.n {
		idx[i] = int8(i)
	}
	ord := idx[:sr.n]
	slices.SortFunc(ord, func(x, y int8) int { return cmp.Compare(sr.w[y], sr.w[x]) })
	var mask uint32
	var wa, wb float64
	na, nb := 1, 0
	for _, i := range ord {
		if na < sr.k && (wa <= wb || nb == sr.k) {
			mask |= 1 << i
			wa += sr.w[i]
			na++
		} else {
			wb += sr.w[i]
			nb++
		}
	}
	sumR, sumRD2 := aR, aRD2
	for b := mask; b != 0; b &= b - 1 {
		i := bits.TrailingZeros32(b) & (2*rating.MaxTeamSize - 1)
		sumR += sr.rs[i]
		sumRD2 += sr.rd2s[i]
	}
	sr.consider(mask, sumR, sumRD2)
}

// gBoost is g(q), the boost part of R_eff_A − R_eff_B for team 0's ΣRD² q.
func (sr *soloSplit) gBoost(q float64) float64 {
	return sr.s.Boost * (math.Sqrt(max(q, 0)/sr.fk) - math.Sqrt(max(sr.totRD2-q, 0)/sr.fk))
}

// walk adds c more players from indices p.. to team 0, whose mask, weight
// sum (with the constant) and sums so far are mask, lin, sumR and sumRD2,
// the sums folded in increasing index.
func (sr *soloSplit) walk(p, c int, mask uint32, lin, sumR, sumRD2 float64) {
	last := sr.n - c // the highest index that leaves room for c−1 more
	if c == 1 {
		for i := p; i <= last; i++ {
			l := lin + sr.w[i]
			if lim := sr.bestDelta + sr.margin; l > lim || l < -lim {
				continue
			}
			sr.consider(mask|1<<i, sumR+sr.rs[i], sumRD2+sr.rd2s[i])
		}
		return
	}
	for i := p; i <= last; i++ {
		l := lin + sr.w[i]
		if lim := sr.bestDelta + sr.margin; l+sr.loW[i+1][c-1] > lim || l+sr.hiW[i+1][c-1] < -lim {
			continue
		}
		sr.walk(i+1, c-1, mask|1<<i, l, sumR+sr.rs[i], sumRD2+sr.rd2s[i])
	}
}

// bestPartySplit walks every mask in Gray-code order, so each step moves one
// entry between the teams, and keeps those that give team 0 exactly k players.
func (m *Matcher) bestPartySplit(s Settings, totR, totRD2 float64) uint32 {
	k := s.TeamSize
	fk := float64(k)
	ch := m.chosen
	a := &m.ent[ch[0]]
	size, sumR, sumRD2 := a.size, a.sumR, a.sumRD2
	var mask uint32
	bestMask, bestDelta := uint32(0), math.Inf(1)
	n := len(ch) - 1
	for i := uint32(0); i < 1<<n; i++ {
		if i > 0 {
			bit := bits.TrailingZeros32(i)
			e := &m.ent[ch[bit+1]]
			if mask&(1<<bit) == 0 {
				size, sumR, sumRD2 = size+e.size, sumR+e.sumR, sumRD2+e.sumRD2
			} else {
				size, sumR, sumRD2 = size-e.size, sumR-e.sumR, sumRD2-e.sumRD2
			}
			mask ^= 1 << bit
		}
		if size != k {
			continue
		}
		d := deltaEff(s, fk, sumR, sumRD2, totR, totRD2)
		if d < bestDelta || d == bestDelta && mask < bestMask {
			bestDelta, bestMask = d, mask
		}
	}
	return bestMask
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
