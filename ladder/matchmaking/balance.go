package matchmaking

import (
	"math"
	"slices"
	"time"
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
	// Exact reports that Gap is the optimum over every split of this size:
	// always up to ExactLobby players; past that only when the bounded
	// search found a perfect split (Gap 0). Otherwise Gap is the best the
	// search found, with no proof that nothing is better.
	Exact bool
}

// MaxLobby is the largest lobby BalanceLobby accepts.
const MaxLobby = 1000

// BalanceLobby returns the optimal split of the lobby into two teams of
// teamSize (0 means ⌊N/2⌋) minimizing |ΣA − ΣB| (docs/spec.md 3, seed 001 F7–F10),
// the rest sitting out. Up to ExactLobby players the search is exact, at
// every team size (docs/spec.md 3) — a meet-in-the-middle over each
// half's signed sums, grouped by how many players each team gets. The
// default team size is fast (32 players: 0.1 million half assignments);
// the slowest case, 32 players in teams of 11 with 10 sitting out, sorts
// 48 million in about 100 MB and takes seconds, which is why the API caps
// how many balance requests run at once. Past ExactLobby a bounded search
// (balanceBounded) returns the best split it finds and says so with Exact
// false.
//
// Invalid input (fewer than 2 ratings, more than MaxLobby, a rating that is
// not a finite number, or a team size outside 1..⌊N/2⌋) is a invalid-input error (*Error).
func BalanceLobby(ratings []float64, teamSize int) (Split, error) {
	return balanceLobby(ratings, teamSize, &searcher{budget: boundedWork, deadline: time.Now().Add(boundedTime)})
}

// balanceLobby is BalanceLobby with the bounded search drawing on s's
// budget, which several team sizes may share.
func balanceLobby(ratings []float64, teamSize int, s *searcher) (Split, error) {
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
	if n <= ExactLobby {
		return makeSplit(ratings, balanceExact(ratings, teamSize), true), nil
	}
	sp := makeSplit(ratings, balanceBounded(ratings, teamSize, s), false)
	sp.Exact = sp.Gap == 0 // nothing beats a perfect split
	return sp, nil
}

// BalanceAllSizes returns BalanceLobby's split for every team size from 2 (1
// for lobbies of 2 or 3) to ⌊N/2⌋, smallest first. The sizes that need
// the bounded search share one search's budget and time bound, so the
// whole answer takes no longer than one bounded split.
func BalanceAllSizes(ratings []float64) ([]Split, error) {
	lo := min(2, len(ratings)/2)
	var out []Split
	shared := &searcher{budget: boundedWork, deadline: time.Now().Add(boundedTime)}
	for k := max(lo, 1); k <= len(ratings)/2; k++ {
		// Each size gets an equal share of what is left.
		left := len(ratings)/2 - k + 1
		share := shared.budget / left
		part := &searcher{budget: share, deadline: shared.deadline}
		sp, err := balanceLobby(ratings, k, part)
		if err != nil {
			return nil, err
		}
		shared.budget -= share - part.budget
		out = append(out, sp)
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

// balanceGreedy is seed 001's starting split (F10): strongest first, each
// to the lighter team with room; the weakest sit out.
func balanceGreedy(ratings []float64, k int) []int8 {
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
	return sign
}

// balanceSwap is seed 001's fallback (F10): the greedy split, then
// repeatedly the single swap — between the teams, or between a team and
// the bench — that most reduces the gap, until none does. The bounded
// search starts from it; tests compare against it.
func balanceSwap(ratings []float64, k int) []int8 {
	sign := balanceGreedy(ratings, k)
	s := searcher{ratings: ratings, budget: math.MaxInt, deadline: time.Now().Add(time.Hour)}
	s.descend(sign)
	return sign
}
