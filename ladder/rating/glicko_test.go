package rating

import "testing"

// TestGlickoComposite checks per-player Glicko-1 against the composite
// opponent on docs/spec.md 2.1's mixed teams, computed by hand (no boost, no scale).
func TestGlickoComposite(t *testing.T) {
	m, _ := NewModel("glicko", nil)
	a := []State{played(1600, 50), played(1450, 120)}
	b := []State{played(1550, 80), played(1500, 40)}
	if p := m.Predict(a, b, t0); !near(p, 0.5, 1e-12) {
		t.Errorf("Got(Predict equal means) = %g, want 0.5", p)
	}
	m.Update(a, b, 1, t0)
	want := []State{
		{Rating: 1605.479292205889, Dev: 49.530627309439396}, {Rating: 1494.2560503942318, Dev: 113.91509645228803},
		{Rating: 1531.973512618736, Dev: 78.12306335488165}, {Rating: 1495.9334524862288, Dev: 39.759054724294494},
	}
	for i, s := range append(a, b...) {
		if !near(s.Rating, want[i].Rating, 1e-9) || !near(s.Dev, want[i].Dev, 1e-9) {
			t.Errorf("Got(player %d) = %.9f/%.9f, want %.9f/%.9f", i, s.Rating, s.Dev, want[i].Rating, want[i].Dev)
		}
	}
}

func TestGlickoInactivity(t *testing.T) {
	m := &Glicko{R0: 1500, RD0: 350, RDMin: 30, C: 10}
	s := played(1500, 50)
	if got := m.grownRD(&s, t0.AddDate(0, 0, 100)); !near(got, 111.8034, 1e-4) {
		t.Errorf("Got(grownRD 50 after 100 days) = %.4f, want 111.8034", got)
	}
	if got := m.grownRD(&s, t0.AddDate(10, 0, 0)); got != 350 {
		t.Errorf("Got(grownRD after 10 years) = %.4f, want 350", got)
	}
}

// TestGlickoBoost checks glicko-boost with its defaults (boost 2, scale
// 0.75, rd0 150) on docs/spec.md 2.1's mixed teams, computed by hand.
func TestGlickoBoost(t *testing.T) {
	m, _ := NewModel("glicko-boost", nil)
	if m.Name() != "glicko-boost" {
		t.Fatalf("Got(Name) = %q, want glicko-boost", m.Name())
	}
	a := []State{played(1600, 50), played(1450, 120)}
	b := []State{played(1550, 80), played(1500, 40)}
	// b's lower RDs earn it the larger boost, so it is favoured.
	if p := m.Predict(a, b, t0); !near(p, 0.43258457230132147, 1e-12) {
		t.Errorf("Got(Predict) = %.15f, want 0.432584572301321", p)
	}
	m.Update(a, b, 1, t0)
	want := []State{
		{Rating: 1603.8345967278187, Dev: 49.542762068523885}, {Rating: 1492.1188623394346, Dev: 115.15483683193634},
		{Rating: 1536.130154274779, Dev: 78.13132370951008}, {Rating: 1496.1408289118112, Dev: 39.76549028357891},
	}
	for i, s := range append(a, b...) {
		if !near(s.Rating, want[i].Rating, 1e-9) || !near(s.Dev, want[i].Dev, 1e-9) {
			t.Errorf("Got(player %d) = %.9f/%.9f, want %.9f/%.9f", i, s.Rating, s.Dev, want[i].Rating, want[i].Dev)
		}
	}
	if r, d := m.Display(State{Rating: 1600, Dev: 40}); r != 1600 || d != 40 {
		t.Errorf("Got(Display) = %g, %g, want the rating without the boost, 1600, 40", r, d)
	}
}
