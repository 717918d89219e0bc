package rating

import "math"

// PairExperience returns, for every match, the partnership term
// (seeds 002 and 003: players who queue together are stronger than the sum
// of their solo skills): how much more the players of team 1 have played
// together than those of team 2, as the mean over a team's pairs of
// ln(1 + matches that pair played as teammates before this one), team 1's
// minus team 2's. A one-player team has no pairs and counts 0.
//
// It depends only on earlier matches, so it is prequential like a replay,
// and the Calibrator learns its weight online beside the model's logit;
// ratings are unchanged.
func (d *Dataset) PairExperience() []float64 {
	together := make(map[uint64]int32)
	out := make([]float64, d.Len())
	for i := range out {
		idx := d.teams[d.off[i]:d.off[i+1]]
		n1 := int(d.size1[i])
		a, b := idx[:n1], idx[n1:]
		out[i] = pairTerm(together, a) - pairTerm(together, b)
		pairCount(together, a)
		pairCount(together, b)
	}
	return out
}

func pairKey(p, q int32) uint64 {
	if p > q {
		p, q = q, p
	}
	return uint64(uint32(p))<<32 | uint64(uint32(q))
}

// pairTerm is the mean over the team's pairs of ln(1 + times together).
func pairTerm(together map[uint64]int32, team []int32) float64 {
	var sum float64
	pairs := 0
	for i := range team {
		for j := i + 1; j < len(team); j++ {
			sum += math.Log1p(float64(together[pairKey(team[i], team[j])]))
			pairs++
		}
	}
	if pairs == 0 {
		return 0
	}
	return sum / float64(pairs)
}

func pairCount(together map[uint64]int32, team []int32) {
	for i := range team {
		for j := i + 1; j < len(team); j++ {
			together[pairKey(team[i], team[j])]++
		}
	}
}
