package rating

import (
	"math"
	"time"
)

// OpenSkill is the Weng-Lin Bayesian rating with the Plackett-Luce model
// (seed 003, docs/spec.md 2.2), for two teams, as the openskill libraries compute
// it: σ² first grows by τ², team mu and σ² are sums over the players, and
// each player takes the team's update in proportion to their share of the
// team's variance. The leaderboard shows the ordinal mu − 3σ.
type OpenSkill struct {
	// Mu and Sigma are a new player's mean and deviation.
	Mu, Sigma float64
	// Beta is the performance deviation added once per team.
	Beta float64
	// Kappa is the smallest factor a variance may shrink by in one match.
	Kappa float64
	// Tau is the dynamics noise added to every σ before a match.
	Tau float64
}

// Name returns "openskill".
func (m *OpenSkill) Name() string { return "openskill" }

// New returns a new player at (Mu, Sigma).
func (m *OpenSkill) New() State { return State{Rating: m.Mu, Dev: m.Sigma} }

// Display returns the ordinal mu − 3σ and sigma.
func (m *OpenSkill) Display(s State) (rating, dev float64) { return s.Rating - 3*s.Dev, s.Dev }

// Predict returns the Plackett-Luce probability that a ranks first:
// e^(μ_A/c)/(e^(μ_A/c) + e^(μ_B/c)) with c² = σ_A² + σ_B² + 2β².
func (m *OpenSkill) Predict(a, b []State, at time.Time) float64 {
	mua, va := teamSums(a, 0)
	mub, vb := teamSums(b, 0)
	c := math.Sqrt(va + vb + 2*m.Beta*m.Beta)
	return 1 / (1 + math.Exp((mub-mua)/c))
}

// Update applies Weng-Lin Plackett-Luce (their Algorithm 4) for two teams.
// A draw ranks both teams equal, as the libraries do.
func (m *OpenSkill) Update(a, b []State, score float64, at time.Time) {
	tau2 := m.Tau * m.Tau
	mua, va := teamSums(a, tau2)
	mub, vb := teamSums(b, tau2)
	c := math.Sqrt(va + vb + 2*m.Beta*m.Beta)
	pa, pb := plShares((mua - mub) / c) // each team's share of the full sum
	var omegaA, omegaB, deltaA, deltaB float64
	switch {
	case score > 0.5:
		// a ranks first. a's only rank class is the full set {a, b}; b's
		// are {a, b} and {b}, where b's share is 1 and adds 1 − 1 = 0.
		omegaA = 1 - pa
		omegaB = -pb
		deltaA = pa * (1 - pa)
		deltaB = pb * (1 - pb)
	case score < 0.5:
		omegaB = 1 - pb
		omegaA = -pa
		deltaB = pb * (1 - pb)
		deltaA = pa * (1 - pa)
	default: // tied: one rank class of two teams, A_q = 2
		omegaA = ((1 - pa) - pa) / 2
		omegaB = ((1 - pb) - pb) / 2
		deltaA = pa * (1 - pa)
		deltaB = pb * (1 - pb)
	}
	m.updateTeam(a, va, omegaA, deltaA, c, tau2, at)
	m.updateTeam(b, vb, omegaB, deltaB, c, tau2, at)
}

// plShares returns the Plackett-Luce shares e^a/(e^a + e^b) and
// e^b/(e^a + e^b) of two teams from d = a − b. Both exponents are shifted
// by the larger one first (log-sum-exp), so a large mu, where e^a alone
// overflows to +Inf and Inf/Inf is NaN, still gives finite shares; taking
// the difference of the team means before dividing by c keeps the bits a
// large common mu would cost.
func plShares(d float64) (pa, pb float64) {
	ea, eb := 1.0, math.Exp(-d)
	if d < 0 {
		ea, eb = math.Exp(d), 1
	}
	return ea / (ea + eb), eb / (ea + eb)
}

// updateTeam spreads a team's Ω and Δ over its players by their share of
// the team variance: μ += σ²/σ_T²·Ω·σ_T²/c and σ² ·= max(1 − σ²/σ_T²·Δ·γσ_T²/c², κ)
// with γ = σ_T/c.
func (m *OpenSkill) updateTeam(t []State, vt, omega, delta, c, tau2 float64, at time.Time) {
	gamma := math.Sqrt(vt) / c
	om := omega * vt / c
	de := gamma * delta * vt / (c * c)
	for i := range t {
		p := &t[i]
		s2 := p.Dev*p.Dev + tau2
		p.Rating += s2 / vt * om
		p.Dev = math.Sqrt(s2 * math.Max(1-s2/vt*de, m.Kappa))
		p.Games++
		p.Last = at
	}
}
