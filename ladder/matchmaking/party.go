package matchmaking

import (
	"math"
	"slices"
)

// PartyOn reports whether the queue rates entries by seed 003's musigma
// party rating. It is on when either weight is positive; both zero (the
// default) keeps the plain mean of the members, so queues that never set
// the weights match exactly as before.
func (s Settings) PartyOn() bool { return s.PartyMaxWeight > 0 || s.PartyMedianWeight > 0 }

// PartyRating is an entry's rating for matching under seed 003's musigma
// extension: (w_max·best + w_med·median)/(w_max + w_med) − d·mean RD, with
// best the highest member rating, median the middle one (the mean of the
// two middle ones for an even count), d = OrdinalDeviations and RD the
// Glicko RD, our equivalent of the seed's sigma. Weighting the best member
// models a strong player carrying the premade; the RD term rates uncertain
// groups conservatively. A solo entry is a party of one: R − d·RD. With the
// weights off it is the members' mean rating, today's rule.
func (s Settings) PartyRating(members []Member) float64 {
	n := len(members)
	if n == 0 {
		return 0
	}
	var sum, sumRD float64
	rs := make([]float64, n)
	for i, m := range members {
		rs[i] = m.Rating
		sum += m.Rating
		sumRD += m.RD
	}
	if !s.PartyOn() {
		return sum / float64(n)
	}
	slices.Sort(rs)
	best := rs[n-1]
	med := rs[n/2]
	if n%2 == 0 {
		med = (rs[n/2-1] + rs[n/2]) / 2
	}
	w := s.PartyMaxWeight + s.PartyMedianWeight
	return (s.PartyMaxWeight*best+s.PartyMedianWeight*med)/w - s.OrdinalDeviations*sumRD/float64(n)
}

// partyShift is what each member's rating moves by so that the entry's
// members add up to size × PartyRating: the matcher then uses the party
// rating both to find neighbours and to balance the teams, and the quality
// it reports is computed on the same numbers. Zero when the weights are off.
func (s Settings) partyShift(members []Member) float64 {
	if !s.PartyOn() || len(members) == 0 {
		return 0
	}
	var sum float64
	for _, m := range members {
		sum += m.Rating
	}
	d := s.PartyRating(members) - sum/float64(len(members))
	if math.IsNaN(d) || math.IsInf(d, 0) {
		return 0
	}
	return d
}

// validParty checks the party-rating settings (part of Validate).
func (s Settings) validParty() error {
	finite := func(x float64) bool { return x >= 0 && !math.IsInf(x, 0) }
	switch {
	case !finite(s.PartyMaxWeight) || !finite(s.PartyMedianWeight):
		return invalidf("party weights must be finite numbers ≥ 0, not %g and %g", s.PartyMaxWeight, s.PartyMedianWeight)
	case !finite(s.OrdinalDeviations):
		return invalidf("ordinal_deviations must be a finite number ≥ 0, not %g", s.OrdinalDeviations)
	}
	return nil
}
