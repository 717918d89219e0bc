package matchmaking

import (
	"math"
)

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
