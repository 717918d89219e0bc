package matchmaking

import (
	"math"
	"math/rand/v2"
	"time"
)

// Past ExactLobby players the exact search's memory and time grow by about
// 1.7× per player (48 players took seconds and over 100 MB), so larger
// lobbies get a bounded search instead: seed 001's swap descent (F10)
// from the greedy split, then iterated local search — kick the best split
// found with a few random swaps, descend again, keep the better — until
// the split is perfect (gap 0), the work budget is spent or the time bound
// passes. The budget counts swap evaluations, so the answer is the same
// on every machine unless the time bound cuts in on a very slow one.

// ExactLobby is the largest lobby whose split is always exact, at every
// team size (docs/spec.md 3).
const ExactLobby = 32

// Bounds of the bounded search: about 25 ms of evaluations on one quiet
// core, and a wall-clock bound that only a machine far slower than that
// reaches.
const (
	boundedWork = 8 << 20
	boundedTime = 250 * time.Millisecond
)

// balanceBounded returns the signs of the best split into two teams of k
// the bounded search finds, spending s's budget.
func balanceBounded(ratings []float64, k int, s *searcher) []int8 {
	n := len(ratings)
	s.ratings = ratings
	best := balanceGreedy(ratings, k)
	bestGap := s.descend(best)
	cur := make([]int8, n)
	rng := rand.New(rand.NewPCG(uint64(n), uint64(k)))
	for bestGap > 0 && s.left() {
		copy(cur, best)
		// A kick of a few swaps between the teams or with the bench
		// leaves the descent's basin without starting from scratch.
		for range 2 + rng.IntN(3) {
			i, j := rng.IntN(n), rng.IntN(n)
			if cur[i] != 0 && cur[i] != cur[j] {
				cur[i], cur[j] = cur[j], cur[i]
			}
		}
		if g := s.descend(cur); g < bestGap {
			bestGap = g
			copy(best, cur)
		}
	}
	return best
}

// searcher counts a bounded search's work.
type searcher struct {
	ratings  []float64
	budget   int
	deadline time.Time
}

// left reports whether the search may go on.
func (s *searcher) left() bool { return s.budget > 0 && time.Now().Before(s.deadline) }

// descend applies the best single swap — between the teams, or between a
// team and the bench — until none narrows the gap or the work runs out,
// and returns the gap reached.
func (s *searcher) descend(sign []int8) float64 {
	r := s.ratings
	n := len(r)
	var d float64 // ΣA − ΣB
	for i, v := range sign {
		d += float64(v) * r[i]
	}
	for s.left() {
		s.budget -= n * n
		best, bi, bj := math.Abs(d), -1, -1
		for i := range n {
			if sign[i] == 0 {
				continue
			}
			for j := range n {
				if sign[j] == sign[i] {
					continue
				}
				nd := d - float64(sign[i])*(r[i]-r[j])
				if sign[j] != 0 {
					nd = d - float64(sign[i])*2*(r[i]-r[j])
				}
				if g := math.Abs(nd); g < best {
					best, bi, bj = g, i, j
				}
			}
		}
		if bi < 0 {
			break
		}
		if sign[bj] == 0 {
			d -= float64(sign[bi]) * (r[bi] - r[bj])
		} else {
			d -= float64(sign[bi]) * 2 * (r[bi] - r[bj])
		}
		sign[bi], sign[bj] = sign[bj], sign[bi]
	}
	return math.Abs(d)
}
