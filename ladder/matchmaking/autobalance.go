package matchmaking

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// Autobalance of a running lobby (seed 001, "Generalization to TF2 outside
// of Arena", F11). Outside Arena there is no queue: players join mid-round
// and leave whenever they like, so the teams drift apart in size. Seed 001
// fixes sizes first and sums second: a joiner goes where the sizes stay
// within one, and only a size difference of two or more moves anyone.
//
// F11 moves the one player of the larger team rated closest to
// T = |ΣA − ΣB|/2. That is optimal only when the larger team also has the
// larger sum: moving a player rated r from the larger team L to the smaller
// S turns the signed gap D = ΣL − ΣS into D − 2r, so the best r is the one
// closest to D/2 — the seed's T when D > 0, but when the larger team is the
// weaker one (D < 0) every move widens the gap and the best is the weakest
// player, not the one nearest |D|/2. For several moves the seed asks for a
// joint solution; this file finds the subset of exactly m players whose sum
// is closest to D/2 with a meet-in-the-middle search, exact for every lobby
// the API accepts up to a large size and a swap descent beyond.

// MaxAutobalanceTeam is the largest team Autobalance accepts, the joiner
// included: more than any game server holds (TF2 has 100 slots at most).
const MaxAutobalanceTeam = 128

// autobalanceWorkLimit bounds the subsets the exact search lists: about 2^21
// per half, which keeps every lobby of up to 40 on the larger team exact and
// a request well under a second.
const autobalanceWorkLimit = 1 << 22

// RunningLobby is a lobby between rounds: the ratings of each team's
// players and, when someone is joining, the joiner's rating.
type RunningLobby struct {
	Team1, Team2 []float64
	// Joiner is the rating of a player joining now; nil when nobody joins.
	Joiner *float64
}

// Move is one player changing teams. Player indexes the lobby as
// Autobalance numbers it: Team1's players first, then Team2's, then the
// joiner.
type Move struct {
	Player   int
	From, To int
}

// Rebalance is Autobalance's answer: the new teams as player indexes (see
// Move), ascending, the moves that lead there, and the gaps |Σ1 − Σ2|
// before (the lobby as given, without the joiner) and after.
type Rebalance struct {
	Team1, Team2 []int
	// JoinTeam is the team the joiner goes to (1 or 2), 0 with no joiner.
	JoinTeam  int
	Moves     []Move
	GapBefore float64
	GapAfter  float64
	// Exact reports that the moves are the optimum; false only for lobbies
	// past autobalanceWorkLimit, where a swap descent chose them.
	Exact bool
}

// Autobalance places the joiner and evens out the team sizes of a running
// lobby (seed 001 F11 and the mid-round join rule). The joiner goes to the
// smaller team; with equal sizes, to the team that leaves the smaller
// |Σ1 − Σ2| (team 1 on a tie). Then, if the sizes differ by Δk ≥ 2,
// exactly ⌊Δk/2⌋ players of the larger team move to the smaller one, chosen
// jointly to minimise the resulting |Σ1 − Σ2|. Sizes within one move no one:
// the seed moves players only to fix sizes, never for sums alone, which is
// what a scramble (ScrambleDue) is for.
//
// Invalid input (no players, a team past MaxAutobalanceTeam, a rating that
// is not a finite number) is an *Error.
func Autobalance(l RunningLobby) (Rebalance, error) {
	n1, n2 := len(l.Team1), len(l.Team2)
	ratings := make([]float64, 0, n1+n2+1)
	ratings = append(append(ratings, l.Team1...), l.Team2...)
	if l.Joiner != nil {
		ratings = append(ratings, *l.Joiner)
	}
	if len(ratings) == 0 {
		return Rebalance{}, invalidf("an autobalance needs at least one player")
	}
	if n1+1 > MaxAutobalanceTeam || n2+1 > MaxAutobalanceTeam {
		return Rebalance{}, invalidf("a team may have at most %d players", MaxAutobalanceTeam-1)
	}
	for i, r := range ratings {
		if math.IsNaN(r) || math.IsInf(r, 0) || math.Abs(r) > 1e12 {
			return Rebalance{}, invalidf("rating %d is not a usable number: %v", i+1, r)
		}
	}
	team := make([]int, len(ratings)) // 1 or 2 per player
	var sum [3]float64
	for i := range ratings {
		team[i] = 1
		if i >= n1 {
			team[i] = 2
		}
		if i < n1+n2 {
			sum[team[i]] += ratings[i]
		}
	}
	res := Rebalance{GapBefore: math.Abs(sum[1] - sum[2]), Exact: true, Moves: []Move{}}
	size := [3]int{0, n1, n2}
	if l.Joiner != nil {
		j := len(ratings) - 1
		res.JoinTeam = joinTeam(n1, n2, sum[1], sum[2], *l.Joiner)
		team[j] = res.JoinTeam
		sum[res.JoinTeam] += *l.Joiner
		size[res.JoinTeam]++
	}
	if d := size[1] - size[2]; d >= 2 || d <= -2 {
		big, small := 1, 2
		if d < 0 {
			big, small = 2, 1
		}
		var members []int
		var rs []float64
		for i, t := range team {
			if t == big {
				members, rs = append(members, i), append(rs, ratings[i])
			}
		}
		m := max(d, -d) / 2
		pick, exact := transferSet(rs, m, (sum[big]-sum[small])/2)
		res.Exact = exact
		for _, p := range pick {
			i := members[p]
			team[i] = small
			sum[big] -= ratings[i]
			sum[small] += ratings[i]
			res.Moves = append(res.Moves, Move{Player: i, From: big, To: small})
		}
	}
	res.Team1, res.Team2 = []int{}, []int{}
	var s1, s2 float64
	for i, t := range team {
		if t == 1 {
			res.Team1 = append(res.Team1, i)
			s1 += ratings[i]
		} else {
			res.Team2 = append(res.Team2, i)
			s2 += ratings[i]
		}
	}
	// Summed afresh, not from the running sums, so the reported gap is
	// exactly the gap of the teams returned.
	res.GapAfter = math.Abs(s1 - s2)
	return res, nil
}

// joinTeam is the team (1 or 2) a joiner rated r goes to: the smaller team
// keeps the sizes within one where the other would not; with equal sizes
// both do, and the one leaving the smaller gap wins, team 1 on a tie.
func joinTeam(n1, n2 int, s1, s2, r float64) int {
	switch {
	case n1 < n2:
		return 1
	case n2 < n1:
		return 2
	case math.Abs(s1+r-s2) <= math.Abs(s1-s2-r):
		return 1
	default:
		return 2
	}
}

// transferSet returns the indexes (ascending) of exactly m of rs whose sum
// is closest to target, and whether that is the proven optimum. Moving a set
// of sum x from the larger team to the smaller turns the signed gap D into
// D − 2x, so the best set has x closest to target = D/2.
func transferSet(rs []float64, m int, target float64) ([]int, bool) {
	if m <= 0 {
		return nil, true
	}
	if m >= len(rs) {
		all := make([]int, len(rs))
		for i := range all {
			all[i] = i
		}
		return all, true
	}
	h := len(rs) / 2
	if subsetWork(h, m)+subsetWork(len(rs)-h, m) <= autobalanceWorkLimit {
		return transferExact(rs, m, target), true
	}
	return transferSwap(rs, m, target), false
}

// subsetWork is the number of subsets of at most m of n players.
func subsetWork(n, m int) float64 {
	var w float64
	c := 1.0 // C(n, k)
	for k := 0; k <= min(n, m); k++ {
		w += c
		c = c * float64(n-k) / float64(k+1)
	}
	return w
}

// subsetSum is one subset of a half: its rating sum and members as a mask.
type subsetSum struct {
	sum  float64
	mask uint64
}

// transferExact is the meet-in-the-middle search: list each half's subsets
// by size, and for every split c + (m − c) = m walk the two sorted lists
// from opposite ends to find the pair whose sum is nearest target. The work
// is about 2^(n/2) per half instead of C(n, m) subsets.
func transferExact(rs []float64, m int, target float64) []int {
	h := len(rs) / 2
	lo := subsetsBySize(rs[:h], m)
	hi := subsetsBySize(rs[h:], m)
	best := math.Inf(1)
	var bestLo, bestHi uint64
	for c := 0; c < len(lo); c++ {
		if m-c < 0 || m-c >= len(hi) {
			continue
		}
		a, b := lo[c], hi[m-c]
		i, j := 0, len(b)-1
		for i < len(a) && j >= 0 {
			s := a[i].sum + b[j].sum
			if e := math.Abs(s - target); e < best {
				best, bestLo, bestHi = e, a[i].mask, b[j].mask
			}
			if s < target {
				i++
			} else {
				j--
			}
		}
	}
	var pick []int
	for x := bestLo; x != 0; x &= x - 1 {
		pick = append(pick, bits.TrailingZeros64(x))
	}
	for x := bestHi; x != 0; x &= x - 1 {
		pick = append(pick, h+bits.TrailingZeros64(x))
	}
	return pick
}

// subsetsBySize lists the subsets of rs with at most m members, grouped by
// size and each group sorted by sum. rs has at most 64 players.
func subsetsBySize(rs []float64, m int) [][]subsetSum {
	out := make([][]subsetSum, min(m, len(rs))+1)
	out[0] = []subsetSum{{}}
	for i, r := range rs {
		// Larger sizes first, so a subset is extended by player i once.
		for k := min(m, i+1); k >= 1; k-- {
			for _, s := range out[k-1] {
				out[k] = append(out[k], subsetSum{sum: s.sum + r, mask: s.mask | 1<<i})
			}
		}
	}
	for _, g := range out {
		slices.SortFunc(g, func(x, y subsetSum) int { return cmp.Compare(x.sum, y.sum) })
	}
	return out
}

// transferSwap is the fallback past the exact search's budget, seed 001's
// F10 swap descent applied to the transfer: start from the m players
// closest to target/m each, then take the best single exchange of a chosen
// and an unchosen player while it brings the sum nearer target.
func transferSwap(rs []float64, m int, target float64) []int {
	idx := make([]int, len(rs))
	for i := range idx {
		idx[i] = i
	}
	per := target / float64(m)
	slices.SortStableFunc(idx, func(a, b int) int {
		return cmp.Compare(math.Abs(rs[a]-per), math.Abs(rs[b]-per))
	})
	in := make([]bool, len(rs))
	var x float64
	for _, i := range idx[:m] {
		in[i] = true
		x += rs[i]
	}
	for {
		best, bi, bj, bx := math.Abs(x-target), -1, -1, x
		for i := range rs {
			if !in[i] {
				continue
			}
			for j := range rs {
				if in[j] {
					continue
				}
				if nx := x - rs[i] + rs[j]; math.Abs(nx-target) < best {
					best, bi, bj, bx = math.Abs(nx-target), i, j, nx
				}
			}
		}
		if bi < 0 {
			break
		}
		// x takes the very value compared, so each step strictly
		// shrinks the error and the descent ends.
		in[bi], in[bj], x = false, true, bx
	}
	var pick []int
	for i, ok := range in {
		if ok {
			pick = append(pick, i)
		}
	}
	return pick
}
