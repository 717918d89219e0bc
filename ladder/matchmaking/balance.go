package matchmaking

import (
	"math"
	"slices"
)

// Split is a balanced lobby (docs/spec.md 3, seed 001 F7): two teams of equal size
// whose rating sums are as close as the search could make them, and who sits
// out. Indexes refer to the ratings passed to BalanceLobby, ascending; A
// holds the lowest index that plays.
type Split struct {
	// Gap is |ΣA − ΣB|.
	Gap float64
	A   []int
	B   []int
	// SitOut lists the players left out when 2·TeamSize < N.
	SitOut []int
	// SumA and SumB are the teams' rating sums.
	SumA, SumB float64
	// Exact reports that Gap is the optimum over every split of this size.
	// Only searches past exactWorkLimit fall back to seed 001's swap
	// heuristic; every split of up to 32 players is exact.
	Exact bool
}

// MaxLobby is the largest lobby BalanceLobby accepts.
const MaxLobby = 1000

// exactWorkLimit bounds the meet-in-the-middle search: the number of half
// assignments it may sort for one team size. 32 players need at most about
// 48 million (team size 11, 10 sitting out), so they are always exact.
const exactWorkLimit = 64 << 20

// BalanceLobby returns the optimal split of the lobby into two teams of
// teamSize (0 means ⌊N/2⌋) minimizing |ΣA − ΣB| (docs/spec.md 3, seed 001 F7–F10),
// the rest sitting out. The search is exact — a meet-in-the-middle over
// each half's signed sums, grouped by how many players each team gets — when
// its work fits exactWorkLimit (always for N ≤ 32, and for the default team
// size up to N = 40); past that it runs seed 001's bench-aware swap
// heuristic and says so with Exact false.
//
// Invalid input (fewer than 2 ratings, more than MaxLobby, a rating that is
// not a finite number, or a team size outside 1..⌊N/2⌋) is a invalid-input error (*Error).
func BalanceLobby(ratings []float64, teamSize int) (Split, error) {
	n := len(ratings)
	if n < 2 || n > MaxLobby {
		return Split{}, invalidf("a lobby needs 2 to %d players, not %d", MaxLobby, n)
	}
	for i, r := range ratings {
		if math.IsNaN(r) || math.IsInf(r, 0) || math.Abs(r) > 1e12 {
			return Split{}, invalidf("rating %d is not a usable number: %v", i+1, r)
		}
	}
	if teamSize == 0 {
		teamSize = n / 2
	}
	if teamSize < 1 || 2*teamSize > n {
		return Split{}, invalidf("team size must be from 1 to %d for %d players, not %d", n/2, n, teamSize)
	}
	var sign []int8
	exact := n <= 62 && mitmWork(n, teamSize) <= exactWorkLimit
	if exact {
		sign = balanceExact(ratings, teamSize)
	} else {
		sign = balanceSwap(ratings, teamSize)
	}
	return makeSplit(ratings, sign, exact), nil
}

// BalanceAllSizes returns BalanceLobby's split for every team size from 2 (1
// for lobbies of 2 or 3) to ⌊N/2⌋, smallest first.
func BalanceAllSizes(ratings []float64) ([]Split, error) {
	lo := min(2, len(ratings)/2)
	var out []Split
	for k := max(lo, 1); k <= len(ratings)/2; k++ {
		s, err := BalanceLobby(ratings, k)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		_, err := BalanceLobby(ratings, 0)
		return nil, err
	}
	return out, nil
}

// makeSplit turns signs (+1 team A, −1 team B, 0 out) into a Split,
// mirrored so that A holds the lowest playing index.
func makeSplit(ratings []float64, sign []int8, exact bool) Split {
	for _, s := range sign {
		if s != 0 {
			if s < 0 {
				for i := range sign {
					sign[i] = -sign[i]
				}
			}
			break
		}
	}
	sp := Split{Exact: exact, A: []int{}, B: []int{}, SitOut: []int{}}
	for i, s := range sign {
		switch s {
		case 1:
			sp.A = append(sp.A, i)
			sp.SumA += ratings[i]
		case -1:
			sp.B = append(sp.B, i)
			sp.SumB += ratings[i]
		default:
			sp.SitOut = append(sp.SitOut, i)
		}
	}
	sp.Gap = math.Abs(sp.SumA - sp.SumB)
	return sp
}

// balanceSwap is seed 001's fallback (F10): start from a greedy split
// (strongest first, each to the lighter team with room; the weakest sit
// out), then repeatedly take the single swap — between the teams, or between
// a team and the bench — that most reduces the gap, until none does.
func balanceSwap(ratings []float64, k int) []int8 {
	n := len(ratings)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case ratings[a] > ratings[b]:
			return -1
		case ratings[a] < ratings[b]:
			return 1
		}
		return 0
	})
	sign := make([]int8, n)
	var na, nb int
	var d float64 // ΣA − ΣB
	for _, i := range idx {
		switch {
		case na < k && (nb == k || d <= 0):
			sign[i], na, d = 1, na+1, d+ratings[i]
		case nb < k:
			sign[i], nb, d = -1, nb+1, d-ratings[i]
		}
	}
	for {
		best, bi, bj := math.Abs(d), -1, -1
		for i := range n {
			if sign[i] == 0 {
				continue
			}
			for j := range n {
				if sign[j] == sign[i] {
					continue
				}
				// moving i out of its team and j into it (or into i's place)
				var nd float64
				if sign[j] == 0 {
					nd = d - float64(sign[i])*(ratings[i]-ratings[j])
				} else {
					nd = d - float64(sign[i])*2*(ratings[i]-ratings[j])
				}
				if g := math.Abs(nd); g < best {
					best, bi, bj = g, i, j
				}
			}
		}
		if bi < 0 {
			return sign
		}
		si, sj := sign[bi], sign[bj]
		if sj == 0 {
			d -= float64(si) * (ratings[bi] - ratings[bj])
		} else {
			d -= float64(si) * 2 * (ratings[bi] - ratings[bj])
		}
		sign[bi], sign[bj] = sj, si
	}
}
