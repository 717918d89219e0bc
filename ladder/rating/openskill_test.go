package rating

import "testing"

// TestOpenSkillReference checks Plackett-Luce against docs/spec.md 2.2's numbers
// (the openskill libraries, defaults, 2v2) and the seed 003 rate example
// (beta 5, epsilon 0.001, no tau).
func TestOpenSkillReference(t *testing.T) {
	def, _ := NewModel("openskill", nil)
	seed, _ := NewModel("openskill", map[string]float64{"mu": 30, "sigma": 10, "beta": 5, "kappa": 0.001, "tau": 0})
	tests := []struct {
		name         string
		m            Model
		a, b         []State
		wantA, wantB []State
	}{
		{
			name:  "docs/spec.md 2.2 defaults 2v2",
			m:     def,
			a:     []State{def.New(), def.New()},
			b:     []State{def.New(), def.New()},
			wantA: []State{{Rating: 26.964294621803063, Dev: 8.177962604389991}, {Rating: 26.964294621803063, Dev: 8.177962604389991}},
			wantB: []State{{Rating: 23.035705378196937, Dev: 8.177962604389991}, {Rating: 23.035705378196937, Dev: 8.177962604389991}},
		},
		{
			name:  "seed 003 rate example",
			m:     seed,
			a:     []State{{Rating: 35, Dev: 5.1}, {Rating: 32.1, Dev: 2.9}},
			b:     []State{{Rating: 30.5, Dev: 4.4}, {Rating: 29.5, Dev: 9.4}},
			wantA: []State{{Rating: 35.703050324698204, Dev: 5.065653319815339}, {Rating: 32.32732230798585, Dev: 2.8936994946797667}},
			wantB: []State{{Rating: 29.976699181616407, Dev: 4.360939109491974}, {Rating: 27.111629116096374, Dev: 9.012856163163935}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.m.Update(tt.a, tt.b, 1, t0)
			for i, w := range tt.wantA {
				if !near(tt.a[i].Rating, w.Rating, 1e-9) || !near(tt.a[i].Dev, w.Dev, 1e-9) {
					t.Errorf("Got(A[%d]) = %.15f/%.15f, want %.15f/%.15f", i, tt.a[i].Rating, tt.a[i].Dev, w.Rating, w.Dev)
				}
			}
			for i, w := range tt.wantB {
				if !near(tt.b[i].Rating, w.Rating, 1e-9) || !near(tt.b[i].Dev, w.Dev, 1e-9) {
					t.Errorf("Got(B[%d]) = %.15f/%.15f, want %.15f/%.15f", i, tt.b[i].Rating, tt.b[i].Dev, w.Rating, w.Dev)
				}
			}
		})
	}
}

func TestOpenSkillDrawAndDisplay(t *testing.T) {
	m, _ := NewModel("openskill", nil)
	a := []State{{Rating: 27, Dev: 8}}
	b := []State{{Rating: 23, Dev: 8}}
	m.Update(a, b, 0.5, t0)
	// A tie against a weaker team lowers the favourite and raises the underdog.
	if a[0].Rating >= 27 || b[0].Rating <= 23 {
		t.Errorf("Got(draw) = %.4f, %.4f, want below 27 and above 23", a[0].Rating, b[0].Rating)
	}
	if !near(a[0].Rating-27, 23-b[0].Rating, 1e-12) {
		t.Errorf("Got(draw shifts) = %.6f, %.6f, want equal and opposite", a[0].Rating-27, b[0].Rating-23)
	}
	if r, d := m.Display(State{Rating: 25, Dev: 25.0 / 3}); !near(r, 0, 1e-12) || d != 25.0/3 {
		t.Errorf("Got(Display(25, 8.33)) = %g, %g, want 0, 8.33", r, d)
	}
	// Equal teams are an even match; the prediction is the PL probability.
	if p := m.Predict([]State{m.New()}, []State{m.New()}, t0); p != 0.5 {
		t.Errorf("Got(Predict even) = %g, want 0.5", p)
	}
}
