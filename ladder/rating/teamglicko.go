package rating

import (
	"math"
	"time"
)

// glickoQ is Glicko-1's q = ln(10)/400 (seed 000, docs/spec.md 2.1).
const glickoQ = math.Ln10 / 400

// glickoG is Glicko-1's g(RD) = 1/√(1 + 3q²RD²/π²), which shrinks a rating
// difference by the uncertainty of the opponent (seed 000, docs/spec.md 2.1).
func glickoG(rd float64) float64 {
	return 1 / math.Sqrt(1+3*glickoQ*glickoQ*rd*rd/(math.Pi*math.Pi))
}

// glickoE is Glicko-1's expected score of r against an opponent rated rOpp
// with deviation rdOpp: 1/(1 + 10^(−g(rdOpp)(r − rOpp)/400)).
// It is computed as 1/(1 + e^(−g·q·(r − rOpp))), the same number, since
// 10^(x/400) = e^(q·x), and Exp is several times cheaper than Pow.
func glickoE(r, rOpp, rdOpp float64) float64 {
	return glickoEG(r, rOpp, glickoG(rdOpp))
}

// glickoEG is glickoE with g(rdOpp) already computed.
func glickoEG(r, rOpp, g float64) float64 {
	return 1 / (1 + math.Exp(-g*glickoQ*(r-rOpp)))
}

// idleDays returns the fractional days between last and at, 0 for a player
// who never played or for a match dated before the last one.
func idleDays(last, at time.Time) float64 {
	if last.IsZero() {
		return 0
	}
	d := at.Sub(last).Seconds() / 86400
	if d < 0 || math.IsNaN(d) {
		return 0
	}
	return d
}

// TeamGlicko is the default model, the team extension of Glicko-1 of seed
// 000 exactly as docs/spec.md 2.1 pins it: RD regrows while idle, a team is rated by
// its mean rating plus a certainty boost with its RMS RD, and every player
// moves by a Glicko-1 step scaled by scale·max(1/scale, RD/rd_max).
type TeamGlicko struct {
	// R0 and RD0 are a new player's rating and RD; RD0 is also the ceiling
	// RD regrows to while idle.
	R0, RD0 float64
	// RDMin is the RD floor and RDMax the seed's RD_max used in the rating
	// factor and the boost.
	RDMin, RDMax float64
	// Scale is the seed's rating scale.
	Scale float64
	// Boost weighs the certainty boost b(RD) = Boost·(RDMax − RD).
	Boost float64
	// C is the RD growth per idle day: RD² grows by C² per day.
	C float64
}

// NewTeamGlicko returns team-glicko with the docs/spec.md 2.1 defaults.
func NewTeamGlicko() *TeamGlicko {
	return &TeamGlicko{R0: 1500, RD0: 130, RDMin: 25, RDMax: 350, Scale: 2, Boost: 0.5, C: 6.6775}
}

// Name returns "team-glicko".
func (m *TeamGlicko) Name() string { return "team-glicko" }

// New returns a new player at (r0, rd0).
func (m *TeamGlicko) New() State { return State{Rating: m.R0, Dev: m.RD0} }

// Display returns the rating and RD unchanged.
func (m *TeamGlicko) Display(s State) (rating, dev float64) { return s.Rating, s.Dev }

// GrownRD is docs/spec.md 2.1 step 1: before a match at time at, RD becomes
// min(rd0, √(RD² + c²·days)) for a player who has played before.
// Exported because the matchmaker rates queued players with the RD they
// would enter a match with.
func (m *TeamGlicko) GrownRD(s *State, at time.Time) float64 {
	if s.Last.IsZero() {
		return s.Dev
	}
	days := idleDays(s.Last, at)
	if days == 0 {
		return math.Min(m.RD0, s.Dev)
	}
	return math.Min(m.RD0, math.Sqrt(s.Dev*s.Dev+m.C*m.C*days))
}

// team is docs/spec.md 2.1 step 2: RD_T = √(ΣRD_i²/n) and R_T = ΣR_i/n + b(RD_T),
// with each RD first grown for inactivity when grow is set (Update grows the
// states in place before it calls team).
func (m *TeamGlicko) team(t []State, at time.Time, grow bool) (r, rd float64) {
	var sumR, sumV float64
	for i := range t {
		d := t[i].Dev
		if grow {
			d = m.GrownRD(&t[i], at)
		}
		sumR += t[i].Rating
		sumV += d * d
	}
	n := float64(len(t))
	rd = math.Sqrt(sumV / n)
	return sumR/n + m.Boost*(m.RDMax-rd), rd
}

// Predict returns E_A of docs/spec.md 2.1 step 3, the chance that a beats b.
func (m *TeamGlicko) Predict(a, b []State, at time.Time) float64 {
	ra, _ := m.team(a, at, true)
	rb, rdb := m.team(b, at, true)
	return glickoE(ra, rb, rdb)
}

// Update applies docs/spec.md 2.1 steps 1–4 in place: score is 1 when a wins, 0.5
// for a draw, 0 when b wins.
func (m *TeamGlicko) Update(a, b []State, score float64, at time.Time) {
	for i := range a {
		a[i].Dev = m.GrownRD(&a[i], at)
	}
	for i := range b {
		b[i].Dev = m.GrownRD(&b[i], at)
	}
	ra, rda := m.team(a, at, false)
	rb, rdb := m.team(b, at, false)
	ga, gb := glickoG(rda), glickoG(rdb)
	m.updateTeam(a, gb, glickoEG(ra, rb, gb), score, at)
	m.updateTeam(b, ga, glickoEG(rb, ra, ga), 1-score, at)
}

// updateTeam is docs/spec.md 2.1 step 4 for the players of one team, against an
// opponent team whose RD gives gOpp, with expected score e and result s.
func (m *TeamGlicko) updateTeam(t []State, gOpp, e, s float64, at time.Time) {
	invD2 := glickoQ * glickoQ * gOpp * gOpp * e * (1 - e)
	for i := range t {
		p := &t[i]
		rd := p.Dev
		denom := 1/(rd*rd) + invD2
		factor := math.Max(1/m.Scale, rd/m.RDMax)
		p.Rating += m.Scale * factor * glickoQ / denom * gOpp * (s - e)
		p.Dev = math.Max(m.RDMin, math.Sqrt(1/denom))
		p.Games++
		p.Last = at
	}
}

// SetBounds is the range a moderator may set a rating to (docs/spec.md 2.1): RD
// within [RDMin, RDMax], the model's own floor and the seed's RD_max, and
// the rating within R0 ± 2500. An RD above RD_max makes rdFactor exceed 1
// and the next win move a player by millions.
func (m *TeamGlicko) SetBounds() (rMin, rMax, devMin, devMax float64) {
	return m.R0 - 2500, m.R0 + 2500, m.RDMin, m.RDMax
}
