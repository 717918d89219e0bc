package matchmaking

import (
	"cmp"
	"math"
	"slices"
)

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
