package matchmaking

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// The exact lobby split is a meet-in-the-middle search. Give every player a
// sign: +1 on team A, −1 on team B, 0 sitting out; the gap is |Σ sign·r|.
// Split the lobby into two halves. A half's assignments with p players on A
// and m on B (a "group") must meet the other half's assignments with k − p
// and k − m, so for each pair of groups both lists are sorted by signed sum
// and one two-pointer walk finds the pair whose sums nearly cancel. The work
// is the size of the groups, about 3^(N/2) when many sit out and 2^(N/2)
// when none do, instead of seed 001's C(N, 2k)·C(2k, k)/2 enumeration.

// halfEntry is one assignment of a half: its signed sum and who is on A
// (plus) and on B (minus), as bit masks over the half.
type halfEntry struct {
	sum         float64
	plus, minus uint32
}

// mitmWork is how many half assignments balanceExact sorts for n players and
// team size k, counting the symmetry it skips.
func mitmWork(n, k int) float64 {
	h1, h2 := n/2, n-n/2
	z := n - 2*k
	var work float64
	forEachGroup(h1, h2, k, z, func(p, m int) {
		l := multinomial(h1, p, m)
		if z == 0 {
			l /= 2
		}
		work += l + multinomial(h2, k-p, k-m)
	})
	return work
}

// forEachGroup calls f for every (p, m) of the first half that can meet a
// group of the second. With players sitting out, a pair of groups and its
// mirror (teams swapped) give the same gap, so only p ≥ m is visited; with
// none sitting out, the first player is kept on team A instead.
func forEachGroup(h1, h2, k, z int, f func(p, m int)) {
	for p := 0; p <= min(k, h1); p++ {
		for m := 0; m <= min(k, h1-p); m++ {
			if z > 0 && p < m {
				continue
			}
			if h1-p-m > z || (k-p)+(k-m) > h2 {
				continue
			}
			f(p, m)
		}
	}
}

// multinomial is h!/(p!·m!·(h−p−m)!) as a float.
func multinomial(h, p, m int) float64 {
	lg := func(x int) float64 { v, _ := math.Lgamma(float64(x + 1)); return v }
	return math.Round(math.Exp(lg(h) - lg(p) - lg(m) - lg(h-p-m)))
}

// balanceExact returns the signs of an optimal split into two teams of k.
func balanceExact(ratings []float64, k int) []int8 {
	n := len(ratings)
	h1 := n / 2
	left, right := ratings[:h1], ratings[h1:]
	z := n - 2*k
	best := math.Inf(1)
	var bl, br halfEntry
	var biggest float64
	forEachGroup(h1, n-h1, k, z, func(p, m int) {
		biggest = max(biggest, multinomial(h1, p, m), multinomial(n-h1, k-p, k-m))
	})
	lbuf := make([]halfEntry, 0, int(biggest))
	rbuf := make([]halfEntry, 0, int(biggest))
	tmp := make([]halfEntry, 0, int(biggest))
	forEachGroup(h1, n-h1, k, z, func(p, m int) {
		if best == 0 {
			return
		}
		lbuf = genGroup(left, p, m, z == 0, lbuf[:0])
		rbuf = genGroup(right, k-p, k-m, false, rbuf[:0])
		tmp = sortHalf(lbuf, tmp)
		tmp = sortHalf(rbuf, tmp)
		i, j := 0, len(rbuf)-1
		for i < len(lbuf) && j >= 0 {
			s := lbuf[i].sum + rbuf[j].sum
			if g := math.Abs(s); g < best {
				best, bl, br = g, lbuf[i], rbuf[j]
				if g == 0 {
					return
				}
			}
			if s > 0 {
				j--
			} else {
				i++
			}
		}
	})
	sign := make([]int8, n)
	for i := range h1 {
		sign[i] = maskSign(bl, i)
	}
	for i := range n - h1 {
		sign[h1+i] = maskSign(br, i)
	}
	return sign
}

func maskSign(e halfEntry, i int) int8 {
	switch {
	case e.plus>>i&1 == 1:
		return 1
	case e.minus>>i&1 == 1:
		return -1
	}
	return 0
}

// genGroup appends every assignment of half r with p players on A and m on
// B; with firstOnA, player 0 of the half is always on A.
func genGroup(r []float64, p, m int, firstOnA bool, out []halfEntry) []halfEntry {
	h := len(r)
	var free [64]int
	for plus := range combinations(h, p) {
		if firstOnA && plus&1 == 0 {
			continue
		}
		var sp float64
		nf := 0
		for i := range h {
			if plus>>i&1 == 1 {
				sp += r[i]
			} else {
				free[nf] = i
				nf++
			}
		}
		for c := range combinations(nf, m) {
			var minus uint32
			s := sp
			for b := c; b != 0; b &= b - 1 {
				i := free[bits.TrailingZeros64(b)&63]
				minus |= 1 << i
				s -= r[i]
			}
			out = append(out, halfEntry{sum: s, plus: uint32(plus), minus: minus})
		}
	}
	return out
}

// combinations yields every n-bit mask with k bits set in increasing order
// (Gosper's hack, seed 001 F8).
func combinations(n, k int) func(yield func(uint64) bool) {
	return func(yield func(uint64) bool) {
		if k > n || k < 0 {
			return
		}
		if k == 0 {
			yield(0)
			return
		}
		for x := uint64(1)<<k - 1; x < 1<<n; {
			if !yield(x) {
				return
			}
			c := x & -x
			r := x + c
			x = (r^x)/c>>2 | r
		}
	}
}

// sortHalf sorts es by sum: a least-significant-digit radix sort on the
// order-preserving bit pattern of the float, skipping digits every key
// shares (the sign and exponent, mostly), which beats a comparison sort
// severalfold on the millions of entries of a large lobby. tmp is scratch
// space and is returned, grown if needed.
func sortHalf(es, tmp []halfEntry) []halfEntry {
	if len(es) < 256 {
		slices.SortFunc(es, func(a, b halfEntry) int { return cmp.Compare(a.sum, b.sum) })
		return tmp
	}
	if cap(tmp) < len(es) {
		tmp = make([]halfEntry, len(es))
	}
	tmp = tmp[:len(es)]
	const digit = 11
	var count [1 << digit]int
	src, dst := es, tmp
	for shift := 0; shift < 64; shift += digit {
		clear(count[:])
		for i := range src {
			count[sortKey(src[i].sum)>>shift&(1<<digit-1)]++
		}
		if count[sortKey(src[0].sum)>>shift&(1<<digit-1)] == len(src) {
			continue // every key has this digit
		}
		pos := 0
		for i, c := range count {
			count[i] = pos
			pos += c
		}
		for i := range src {
			d := sortKey(src[i].sum) >> shift & (1<<digit - 1)
			dst[count[d]] = src[i]
			count[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &es[0] {
		copy(es, src)
	}
	return tmp
}

// sortKey maps a float to a uint64 that sorts the same way.
func sortKey(f float64) uint64 {
	b := math.Float64bits(f + 0) // +0 turns −0 into +0
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}
