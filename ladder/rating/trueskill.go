package rating

import (
	"math"
	"time"
)

// TrueSkill is exact two-team TrueSkill without draws (docs/spec.md 2.2): a team's
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
// for a win without a draw margin. In the lower tail Φ underflows and
// loses digits first, so below tailT they come from Laplace's continued
// fraction of the Mills ratio instead (see millsTail).
func truncV(t float64) float64 {
	if t < tailT {
		d := millsTail(-t)
		return -t + 1/d
	}
	return normPDF(t) / normCDF(t)
}

func truncW(t float64) float64 {
	if t < tailT {
		// v + t is exactly 1/d here; forming it as v + t would subtract
		// two numbers that agree to about log10(t²) digits.
		d := millsTail(-t)
		return math.Min(1, math.Max(0, (-t+1/d)/d))
	}
	v := truncV(t)
	return math.Min(1, math.Max(0, v*(v+t)))
}

// tailT is where truncV and truncW leave φ/Φ for the continued fraction.
// Below it φ/Φ loses digits: exp and erfc of large arguments carry the
// relative error of their argument times its size, and w = v(v + t)
// subtracts nearly equal numbers, so at t = −30 w was off by 1e−10 and
// the asymptotic series that served below −30 by up to 1.4e−7.
// At x = 5 the fraction has converged to the last bit with 24 terms;
// tailTerms leaves a margin.
const (
	tailT     = -5
	tailTerms = 32
)

// millsTail returns D(x) = x + 2/(x + 3/(x + 4/(x + …))), the tail of
// Laplace's continued fraction Φ(−x)/φ(x) = 1/(x + 1/D(x)), for x ≥ 5.
// Then v(−x) = x + 1/D and v(−x) − x = 1/D without cancellation. The
// fraction, evaluated backwards from a fixed depth, converges for every
// x > 0, and the faster the larger x is.
func millsTail(x float64) float64 {
	f := x
	for k := tailTerms; k >= 2; k-- {
		f = x + float64(k)/f
	}
	return f
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
