package matchmaking

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"github.com/ladderbot/ladderbot/ladder/rating"
)

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
