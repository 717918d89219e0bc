package rating

import (
	"math"
	"time"
)

// synEloSlots is how many past rounds a SynElo state remembers in
// State.Recent: 16 bits each, the rating change and the surprise o − e.
const synEloSlots = 4

// SynElo is the dynamic-K team Elo of seed 001 (F1–F5, docs/spec.md 2.2): teams are
// compared by the sums of their ratings on a logistic scale Θ (F1), every
// player moves by K_i(S − P) with the rating floor and banker's rounding
// (F2), and K_i grows with the player's convergence score C (F3) and shrinks
// with the Gaussian compression G around R0 (F4, F5).
//
// The seed computes C over a window of W = 500 rounds; a player's state here
// is fixed-size, so the window is the last Window ≤ 4 rounds, kept exactly
// in State.Recent (each round's applied rating change, from which the
// window's ratings are rebuilt backwards from the current rating, and its
// o − e to 1/127). A player with no rounds yet has C = 1: nothing has
// converged. The seed's shadow period and graduation cap are display rules
// and live outside the model.
type SynElo struct {
	// R0 is the starting rating and the centre of the compression.
	R0 float64
	// RMin is the rating floor.
	RMin float64
	// KMin and KMax bound the K factor.
	KMin, KMax float64
	// Theta is the logistic scale of F1; 0 means the seed's prior
	// 400·⌊median{1..k}⌋ for k the larger team of the match.
	Theta float64
	// Window is how many past rounds feed the convergence score (1..4).
	Window int
	// WVel, WWre and WVol weigh the three signals of F3.
	WVel, WWre, WVol float64
	// Sigma is the width of the Gaussian K compression (F4).
	Sigma float64
}

// Name returns "synelo".
func (m *SynElo) Name() string { return "synelo" }

// New returns a new player at R0.
func (m *SynElo) New() State { return State{Rating: m.R0} }

// Display returns the rating; SynElo has no deviation.
func (m *SynElo) Display(s State) (rating, dev float64) { return s.Rating, 0 }

// theta is F1's Θ for a match between teams of na and nb players.
func (m *SynElo) theta(na, nb int) float64 {
	if m.Theta > 0 {
		return m.Theta
	}
	k := max(na, nb)
	return 400 * float64((k+1)/2) // ⌊median{1..k}⌋ = ⌊(k+1)/2⌋
}

func sumRating(t []State) float64 {
	var s float64
	for i := range t {
		s += t[i].Rating
	}
	return s
}

// Predict is F1: P_A = 1/(1 + e^(−(Σ_A − Σ_B)/Θ)).
func (m *SynElo) Predict(a, b []State, at time.Time) float64 {
	return 1 / (1 + math.Exp(-(sumRating(a)-sumRating(b))/m.theta(len(a), len(b))))
}

// Update applies F2 with the K of F5 to every player.
func (m *SynElo) Update(a, b []State, score float64, at time.Time) {
	pa := m.Predict(a, b, at)
	for i := range a {
		m.updatePlayer(&a[i], score, pa, at)
	}
	for i := range b {
		m.updatePlayer(&b[i], 1-score, 1-pa, at)
	}
}

func (m *SynElo) updatePlayer(p *State, s, e float64, at time.Time) {
	k := m.K(*p)
	r := math.Max(m.RMin, math.RoundToEven(p.Rating+k*(s-e)))
	delta := math.Max(-127, math.Min(127, math.Round(r-p.Rating)))
	surprise := math.Round((s - e) * 127)
	entry := uint64(uint8(int8(delta)))<<8 | uint64(uint8(int8(surprise)))
	p.Recent = p.Recent<<16 | entry
	p.Rating = r
	p.Games++
	p.Last = at
}

// K is F5: K = K_min + (K_max − K_min)·C·G for the player's current state.
func (m *SynElo) K(s State) float64 {
	g := math.Exp(-(s.Rating - m.R0) * (s.Rating - m.R0) / (2 * m.Sigma * m.Sigma))
	return m.KMin + (m.KMax-m.KMin)*m.Convergence(s)*g
}

// Convergence is F3's C in [0, 1] over the player's remembered rounds.
func (m *SynElo) Convergence(s State) float64 {
	n := min(s.Games, m.Window, synEloSlots)
	if n <= 0 {
		return 1
	}
	// w[j] is the rating after the j-th oldest remembered round; the newest
	// is the current rating.
	var w [synEloSlots]float64
	var surprise float64
	r := s.Rating
	for j := n - 1; j >= 0; j-- {
		entry := s.Recent >> (16 * uint(n-1-j))
		w[j] = r
		r -= float64(int8(uint8(entry >> 8)))
		surprise += float64(int8(uint8(entry))) / 127
	}
	half := n / 2
	var vel float64
	if half > 0 {
		var oldSum, newSum float64
		for j := 0; j < half; j++ {
			oldSum += w[j]
			newSum += w[n-half+j]
		}
		vel = math.Abs(newSum-oldSum) / float64(half) / m.KMax
	}
	wre := math.Abs(surprise/float64(n)) / 0.10
	var mean, ss float64
	for j := 0; j < n; j++ {
		mean += w[j]
	}
	mean /= float64(n)
	for j := 0; j < n; j++ {
		ss += (w[j] - mean) * (w[j] - mean)
	}
	vol := math.Sqrt(ss/float64(n)) / m.KMax
	return math.Min(1, math.Max(0, m.WVel*vel+m.WWre*wre+m.WVol*vol))
}
