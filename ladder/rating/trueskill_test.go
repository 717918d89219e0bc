package rating

import (
	"math"
	"testing"
)

// TestTrueSkillReference checks docs/spec.md 2.2's 1v1 numbers and a 2v2 case
// computed by hand from the exact two-team formulas.
func TestTrueSkillReference(t *testing.T) {
	m, _ := NewModel("trueskill", nil)
	tests := []struct {
		name         string
		a, b         []State
		score        float64
		wantA, wantB []State
		tol          float64
	}{
		{
			name: "docs/spec.md 2.2 1v1 from defaults", a: []State{m.New()}, b: []State{m.New()}, score: 1, tol: 1e-4,
			wantA: []State{{Rating: 29.2055, Dev: 7.1948}}, wantB: []State{{Rating: 20.7945, Dev: 7.1948}},
		},
		{
			name: "same, b wins", a: []State{m.New()}, b: []State{m.New()}, score: 0, tol: 1e-4,
			wantA: []State{{Rating: 20.7945, Dev: 7.1948}}, wantB: []State{{Rating: 29.2055, Dev: 7.1948}},
		},
		{
			name: "2v2 by hand", score: 1, tol: 1e-9,
			a:     []State{{Rating: 30, Dev: 4}, {Rating: 20, Dev: 6}},
			b:     []State{{Rating: 25, Dev: 5}, {Rating: 22, Dev: 3}},
			wantA: []State{{Rating: 30.836095317913987, Dev: 3.8793870152780747}, {Rating: 21.880761051359666, Dev: 5.58237806464463}},
			wantB: []State{{Rating: 23.693805102035455, Dev: 4.761356340720685}, {Rating: 21.529537688791997, Dev: 2.9502277931326373}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m.Update(tt.a, tt.b, tt.score, t0)
			for i, w := range tt.wantA {
				if !near(tt.a[i].Rating, w.Rating, tt.tol) || !near(tt.a[i].Dev, w.Dev, tt.tol) {
					t.Errorf("Got(A[%d]) = %.12f/%.12f, want %.12f/%.12f", i, tt.a[i].Rating, tt.a[i].Dev, w.Rating, w.Dev)
				}
			}
			for i, w := range tt.wantB {
				if !near(tt.b[i].Rating, w.Rating, tt.tol) || !near(tt.b[i].Dev, w.Dev, tt.tol) {
					t.Errorf("Got(B[%d]) = %.12f/%.12f, want %.12f/%.12f", i, tt.b[i].Rating, tt.b[i].Dev, w.Rating, w.Dev)
				}
			}
		})
	}
	a := []State{{Rating: 30, Dev: 4}, {Rating: 20, Dev: 6}}
	b := []State{{Rating: 25, Dev: 5}, {Rating: 22, Dev: 3}}
	if p := m.Predict(a, b, t0); !near(p, 0.5950755904703767, 1e-12) {
		t.Errorf("Got(Predict 2v2) = %.15f, want 0.595075590470377", p)
	}
}

// TestTrueSkillTail checks that a hopeless upset stays finite.
func TestTrueSkillTail(t *testing.T) {
	m, _ := NewModel("trueskill", nil)
	for _, gap := range []float64{100, 1000, 1e6} {
		a := []State{{Rating: 25 + gap, Dev: 0.5}}
		b := []State{{Rating: 25, Dev: 0.5}}
		m.Update(a, b, 0, t0)
		if math.IsNaN(a[0].Rating) || math.IsInf(a[0].Rating, 0) || !(a[0].Dev > 0) || a[0].Rating >= 25+gap {
			t.Errorf("Got(upset by %g) = %g/%g, want finite, lower, σ > 0", gap, a[0].Rating, a[0].Dev)
		}
	}
}
