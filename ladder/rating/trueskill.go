package rating

import (
	"math"
	"time"
)

// TrueSkill is exact two-team TrueSkill without draws (SPEC 2.2): a team's
// performance is the sum of its players' performances, and the result
// truncates the difference of the two team performances at zero.
type TrueSkill struct {
	// Mu and Sigma are a new player's mean and deviation.
	Mu, Sigma float64
	// Beta is the per-player performance deviation.
	Beta float64
	// Tau is the dynamics noise added to every σ before a match.
	Tau float64
}

// Name returns "trueskill".
func (m *TrueSkill) Name() string { return "trueskill" }

// New returns a new player at (Mu, Sigma).
func (m *TrueSkill) New() State { return State{Rating: m.Mu, Dev: m.Sigma} }

// Display returns mu and sigma.
func (m *TrueSkill) Display(s State) (rating, dev float64) { return s.Rating, s.Dev }

// normPDF and normCDF are the standard normal density and distribution.
func normPDF(x float64) float64 { return math.Exp(-x*x/2) / math.Sqrt(2*math.Pi) }
func normCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// truncV and truncW are TrueSkill's v(t) = φ(t)/Φ(t) and w(t) = v(v + t)
// for a win without a draw margin. Far in the lower tail Φ underflows, so
// the asymptotic series of the Mills ratio takes over.
func truncV(t float64) float64 {
	if t < -30 {
		t2 := t * t
		return -t / (1 - 1/t2 + 3/(t2*t2) - 15/(t2*t2*t2))
	}
	return normPDF(t) / normCDF(t)
}

func truncW(t float64) float64 {
	v := truncV(t)
	return math.Min(1, math.Max(0, v*(v+t)))
}

// teamSums returns a team's summed means and summed variances, each
// variance raised by tau2 (TrueSkill and OpenSkill).
func teamSums(t []State, tau2 float64) (mu, v float64) {
	for i := range t {
		mu += t[i].Rating
		v += t[i].Dev*t[i].Dev + tau2
	}
	return mu, v
}

// Predict returns Φ((μ_A − μ_B)/√(Σσ² + nβ²)) over all n players.
func (m *TrueSkill) Predict(a, b []State, at time.Time) float64 {
	mua, va := teamSums(a, 0)
	mub, vb := teamSums(b, 0)
	n := float64(len(a) + len(b))
	return normCDF((mua - mub) / math.Sqrt(va+vb+n*m.Beta*m.Beta))
}

// Update applies the exact two-team TrueSkill update after adding τ² to
// every variance. A draw (score 0.5), which this model has no margin for,
// moves players by the mean of the win and the loss updates.
func (m *TrueSkill) Update(a, b []State, score float64, at time.Time) {
	tau2 := m.Tau * m.Tau
	mua, va := teamSums(a, tau2)
	mub, vb := teamSums(b, tau2)
	c2 := va + vb + float64(len(a)+len(b))*m.Beta*m.Beta
	c := math.Sqrt(c2)
	t := (mua - mub) / c
	// v and w from a's side: a win truncates at t, a loss at −t.
	v := score*truncV(t) - (1-score)*truncV(-t)
	w := score*truncW(t) + (1-score)*truncW(-t)
	m.updateTeam(a, v, w, c, c2, tau2, at)
	m.updateTeam(b, -v, w, c, c2, tau2, at)
}

func (m *TrueSkill) updateTeam(t []State, v, w, c, c2, tau2 float64, at time.Time) {
	for i := range t {
		p := &t[i]
		s2 := p.Dev*p.Dev + tau2
		p.Rating += s2 / c * v
		p.Dev = math.Sqrt(s2 * math.Max(1-s2/c2*w, 1e-12))
		p.Games++
		p.Last = at
	}
}
