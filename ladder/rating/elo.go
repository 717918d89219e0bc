package rating

import (
	"math"
	"time"
)

// Elo is plain team Elo (docs/spec.md 2.2): a team is its mean rating, the expected
// score is logistic with scale 400, and every player moves by K·(S − E).
type Elo struct {
	// R0 is a new player's rating.
	R0 float64
	// K is the constant K factor.
	K float64
}

// Name returns "elo".
func (m *Elo) Name() string { return "elo" }

// New returns a new player at R0.
func (m *Elo) New() State { return State{Rating: m.R0} }

// Display returns the rating; Elo has no deviation.
func (m *Elo) Display(s State) (rating, dev float64) { return s.Rating, 0 }

func meanRating(t []State) float64 {
	var sum float64
	for i := range t {
		sum += t[i].Rating
	}
	return sum / float64(len(t))
}

// Predict returns 1/(1 + 10^((R_B − R_A)/400)) of the team means.
func (m *Elo) Predict(a, b []State, at time.Time) float64 {
	return 1 / (1 + math.Pow(10, (meanRating(b)-meanRating(a))/400))
}

// Update moves every player of a by K·(S − E_A) and of b by the opposite.
func (m *Elo) Update(a, b []State, score float64, at time.Time) {
	d := m.K * (score - m.Predict(a, b, at))
	for i := range a {
		a[i].Rating += d
		a[i].Games++
		a[i].Last = at
	}
	for i := range b {
		b[i].Rating -= d
		b[i].Games++
		b[i].Last = at
	}
}
