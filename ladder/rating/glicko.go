package rating

import (
	"math"
	"time"
)

// Glicko is per-player Glicko-1 against a composite opponent (docs/spec.md 2.2):
// every player is rated as if in a one-game rating period against one
// opponent whose rating is the other team's mean and whose RD is the other
// team's RMS RD. As "glicko" it has no certainty boost and no rating scale.
//
// As "glicko-boost" it adds seed 000's certainty boost per player: a player
// counts as R + Boost·(RD0 − RD) in every team mean and in their own
// expected score, so proven players (low RD) weigh more than newcomers, and
// every rating change is multiplied by Scale. On the ATP doubles history
// this beats every other model (see README, "Rating models and evaluation").
type Glicko struct {
	// R0 and RD0 are a new player's rating and RD; RD0 is also the ceiling
	// RD regrows to while idle.
	R0, RD0 float64
	// RDMin is the RD floor.
	RDMin float64
	// C is the RD growth per idle day: RD² grows by C² per day.
	C float64
	// Boost is the certainty boost per point of RD below RD0 (0 for "glicko").
	Boost float64
	// Scale multiplies every rating change (1 for "glicko").
	Scale float64
	// name is the registry name: "glicko" or "glicko-boost".
	name string
}

// Name returns "glicko" or "glicko-boost".
func (m *Glicko) Name() string {
	if m.name == "" {
		return "glicko"
	}
	return m.name
}

// New returns a new player at (R0, RD0).
func (m *Glicko) New() State { return State{Rating: m.R0, Dev: m.RD0} }

// Display returns the rating and RD unchanged (without the boost).
func (m *Glicko) Display(s State) (rating, dev float64) { return s.Rating, s.Dev }

func (m *Glicko) grownRD(s *State, at time.Time) float64 {
	if s.Last.IsZero() {
		return s.Dev
	}
	return math.Min(m.RD0, math.Sqrt(s.Dev*s.Dev+m.C*m.C*idleDays(s.Last, at)))
}

// composite returns a team's mean (boosted) rating and RMS RD, growing RDs
// for inactivity when grow is set.
func (m *Glicko) composite(t []State, at time.Time, grow bool) (r, rd float64) {
	var sumR, sumV float64
	for i := range t {
		d := t[i].Dev
		if grow {
			d = m.grownRD(&t[i], at)
		}
		sumR += t[i].Rating + m.Boost*(m.RD0-d)
		sumV += d * d
	}
	n := float64(len(t))
	return sumR / n, math.Sqrt(sumV / n)
}

// Predict returns Glicko-1's expected score of the composite of a against
// the composite of b, with both deviations: 1/(1 + 10^(−g(√(RD_A²+RD_B²))·ΔR/400)).
// It is symmetric, so Predict(a, b) + Predict(b, a) = 1.
func (m *Glicko) Predict(a, b []State, at time.Time) float64 {
	ra, rda := m.composite(a, at, true)
	rb, rdb := m.composite(b, at, true)
	return glickoE(ra, rb, math.Sqrt(rda*rda+rdb*rdb))
}

// Update rates every player with Glicko-1 against the other team's composite.
func (m *Glicko) Update(a, b []State, score float64, at time.Time) {
	for i := range a {
		a[i].Dev = m.grownRD(&a[i], at)
	}
	for i := range b {
		b[i].Dev = m.grownRD(&b[i], at)
	}
	ra, rda := m.composite(a, at, false)
	rb, rdb := m.composite(b, at, false)
	m.updateTeam(a, rb, rdb, score, at)
	m.updateTeam(b, ra, rda, 1-score, at)
}

func (m *Glicko) updateTeam(t []State, rOpp, rdOpp, s float64, at time.Time) {
	g := glickoG(rdOpp)
	for i := range t {
		p := &t[i]
		e := glickoEG(p.Rating+m.Boost*(m.RD0-p.Dev), rOpp, g)
		denom := 1/(p.Dev*p.Dev) + glickoQ*glickoQ*g*g*e*(1-e)
		p.Rating += m.Scale * glickoQ / denom * g * (s - e)
		p.Dev = math.Max(m.RDMin, math.Sqrt(1/denom))
		p.Games++
		p.Last = at
	}
}

// SetBounds is the range a moderator may set a rating to: RD within
// [RDMin, 350], Glicko-1's traditional maximum (RD0 is the idle ceiling,
// which a set may exceed up to 350), and the rating within R0 ± 2500.
func (m *Glicko) SetBounds() (rMin, rMax, devMin, devMax float64) {
	return m.R0 - 2500, m.R0 + 2500, m.RDMin, math.Max(350, m.RD0)
}
