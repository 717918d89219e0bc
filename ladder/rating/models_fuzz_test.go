package rating

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// fuzzStates returns n plausible states of model m drawn from rng: ratings
// around the model's start, deviations between a small floor and the
// start, some players new and some idle for up to two years. SynElo
// ratings are whole numbers, as its banker's rounding keeps them.
func fuzzStates(m Model, rng *rand.Rand, n int, at time.Time) []State {
	out := make([]State, n)
	for i := range out {
		s := m.New()
		if rng.IntN(4) == 0 {
			out[i] = s
			continue
		}
		switch m.(type) {
		case *TeamGlicko, *Glicko, *Elo:
			s.Rating += 1200 * (rng.Float64() - 0.5)
			s.Dev = 25 + rng.Float64()*(s.Dev-25)
		case *SynElo:
			s.Rating = math.Round(100 + 2900*rng.Float64())
			s.Games = rng.IntN(10)
			s.Recent = rng.Uint64() & 0x7f7f7f7f7f7f7f7f // changes and surprises within ±127
		default:
			s.Rating += 40 * (rng.Float64() - 0.5)
			s.Dev = 0.5 + rng.Float64()*(s.Dev-0.5)
		}
		s.Games++
		s.Last = at.Add(-time.Duration(rng.Float64() * 2 * 365 * 24 * float64(time.Hour)))
		out[i] = s
	}
	return out
}

func finiteState(s State) bool {
	return !math.IsNaN(s.Rating) && !math.IsInf(s.Rating, 0) && !math.IsNaN(s.Dev) && !math.IsInf(s.Dev, 0)
}

// checkInvariants verifies STYLE.md's invariants for one match: finite
// outputs, deviations within their bounds, winners never lose rating (nor
// losers gain), swapping the teams mirrors the result, and a prediction and
// its mirror sum to 1 (team-glicko: only when both teams have the same RD,
// since docs/spec.md 2.1 predicts E_A with g(RD_B)).
func checkInvariants(t *testing.T, m Model, a, b []State, score float64, at time.Time) {
	t.Helper()
	pa, pb := m.Predict(a, b, at), m.Predict(b, a, at)
	if !(pa >= 0 && pa <= 1) || !(pb >= 0 && pb <= 1) {
		t.Fatalf("Got(Predict) = %v, %v, want within [0, 1]", pa, pb)
	}
	tg, isTG := m.(*TeamGlicko)
	if isTG {
		_, rda := tg.team(a, at, true)
		_, rdb := tg.team(b, at, true)
		if rda == rdb && !near(pa+pb, 1, 1e-9) {
			t.Errorf("Got(P(a)+P(b)) = %.12f, want 1 for equal team RDs", pa+pb)
		}
	} else if !near(pa+pb, 1, 1e-9) {
		t.Errorf("Got(P(a)+P(b)) = %.12f, want 1", pa+pb)
	}
	a1, b1 := append([]State(nil), a...), append([]State(nil), b...)
	m.Update(a1, b1, score, at)
	a2, b2 := append([]State(nil), a...), append([]State(nil), b...)
	m.Update(b2, a2, 1-score, at)
	for _, side := range []struct {
		before, after, mirror []State
		s                     float64
	}{{a, a1, a2, score}, {b, b1, b2, 1 - score}} {
		for i, s := range side.after {
			old := side.before[i]
			if !finiteState(s) {
				t.Fatalf("Got(state) = %+v, want finite", s)
			}
			if side.s == 1 && s.Rating < old.Rating || side.s == 0 && s.Rating > old.Rating {
				t.Errorf("Got(rating after result %g) = %.9f from %.9f, want no move against the result", side.s, s.Rating, old.Rating)
			}
			if m := side.mirror[i]; !near(m.Rating, s.Rating, 1e-9*math.Max(1, math.Abs(s.Rating))) || !near(m.Dev, s.Dev, 1e-9*math.Max(1, s.Dev)) || m.Games != s.Games || !m.Last.Equal(s.Last) || m.Recent != s.Recent {
				t.Errorf("Got(mirrored update) = %+v, want %+v", m, s)
			}
			if s.Games != old.Games+1 || !s.Last.Equal(at) {
				t.Errorf("Got(Games, Last) = %d, %v, want %d, %v", s.Games, s.Last, old.Games+1, at)
			}
			checkDev(t, m, old, s, at)
		}
	}
}

// checkDev checks a deviation against the model's bounds.
func checkDev(t *testing.T, m Model, old, s State, at time.Time) {
	t.Helper()
	switch m := m.(type) {
	case *TeamGlicko:
		if s.Dev < m.RDMin || s.Dev > math.Max(m.RD0, old.Dev) {
			t.Errorf("Got(RD) = %g, want within [%g, %g]", s.Dev, m.RDMin, m.RD0)
		}
	case *Glicko:
		if s.Dev < m.RDMin || s.Dev > math.Max(m.RD0, old.Dev) {
			t.Errorf("Got(RD) = %g, want within [%g, %g]", s.Dev, m.RDMin, m.RD0)
		}
	case *TrueSkill:
		if !(s.Dev > 0) || s.Dev > math.Sqrt(old.Dev*old.Dev+m.Tau*m.Tau)+1e-12 {
			t.Errorf("Got(sigma) = %g, want in (0, %g]", s.Dev, math.Sqrt(old.Dev*old.Dev+m.Tau*m.Tau))
		}
	case *OpenSkill:
		if !(s.Dev > 0) || s.Dev > math.Sqrt(old.Dev*old.Dev+m.Tau*m.Tau)+1e-12 {
			t.Errorf("Got(sigma) = %g, want in (0, %g]", s.Dev, math.Sqrt(old.Dev*old.Dev+m.Tau*m.Tau))
		}
	case *Elo, *SynElo:
		if s.Dev != old.Dev {
			t.Errorf("Got(Dev) = %g, want unchanged %g", s.Dev, old.Dev)
		}
	}
}

// FuzzModels checks the invariants for every model, team sizes 1..8 and
// all three results, on states drawn from the fuzzed seed.
func FuzzModels(f *testing.F) {
	for i := range ModelNames() {
		f.Add(uint8(i), uint8(2), uint8(2), uint8(0), uint64(1))
		f.Add(uint8(i), uint8(1), uint8(3), uint8(1), uint64(7))
		f.Add(uint8(i), uint8(8), uint8(8), uint8(2), uint64(42))
		f.Add(uint8(i), uint8(4), uint8(1), uint8(0), uint64(99))
	}
	names := ModelNames()
	f.Fuzz(func(t *testing.T, model, na, nb, result uint8, seed uint64) {
		m, err := NewModel(names[int(model)%len(names)], nil)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
		at := t0.Add(time.Duration(seed%1000) * time.Hour)
		a := fuzzStates(m, rng, 1+int(na)%MaxTeamSize, at)
		b := fuzzStates(m, rng, 1+int(nb)%MaxTeamSize, at)
		checkInvariants(t, m, a, b, [3]float64{1, 0.5, 0}[result%3], at)
	})
}

// FuzzTeamGlicko checks team-glicko's invariants on raw 2v2 values:
// ratings and RDs anywhere in their bounds, any idle time.
func FuzzTeamGlicko(f *testing.F) {
	f.Add(1500.0, 130.0, 1500.0, 130.0, 1500.0, 130.0, 1500.0, 130.0, 0.0, uint8(0))
	f.Add(1600.0, 50.0, 1450.0, 120.0, 1550.0, 80.0, 1500.0, 40.0, 3.5, uint8(1))
	f.Add(3000.0, 25.0, 2900.0, 25.0, 500.0, 130.0, 0.0, 25.0, 400.0, uint8(2))
	f.Add(-1e4, 25.0, 1e4, 130.0, 1500.0, 60.0, 1500.0, 129.9, 0.01, uint8(0))
	m := NewTeamGlicko()
	f.Fuzz(func(t *testing.T, r1, d1, r2, d2, r3, d3, r4, d4, days float64, result uint8) {
		for _, x := range []float64{r1, r2, r3, r4} {
			if math.IsNaN(x) || math.Abs(x) > 1e5 {
				t.Skip()
			}
		}
		clampRD := func(d float64) float64 {
			if math.IsNaN(d) {
				return m.RD0
			}
			return math.Min(m.RD0, math.Max(m.RDMin, d))
		}
		if math.IsNaN(days) || days < 0 || days > 1e4 {
			days = 0
		}
		at := t0.Add(time.Duration(days * 24 * float64(time.Hour)))
		a := []State{played(r1, clampRD(d1)), played(r2, clampRD(d2))}
		b := []State{played(r3, clampRD(d3)), played(r4, clampRD(d4))}
		checkInvariants(t, m, a, b, [3]float64{1, 0.5, 0}[result%3], at)
	})
}

// TestUpdateAllocs checks that no model allocates in Predict or Update,
// for team sizes 1, 2 and 8.
func TestUpdateAllocs(t *testing.T) {
	for _, name := range ModelNames() {
		m, _ := NewModel(name, nil)
		for _, n := range []int{1, 2, MaxTeamSize} {
			rng := rand.New(rand.NewPCG(1, 2))
			a, b := fuzzStates(m, rng, n, t0), fuzzStates(m, rng, n, t0)
			allocs := testing.AllocsPerRun(100, func() {
				m.Predict(a, b, t0)
				m.Update(a, b, 1, t0)
				m.Update(b, a, 0.5, t0)
			})
			if allocs != 0 {
				t.Errorf("Got(AllocsPerRun %s %dv%d) = %g, want 0", name, n, n, allocs)
			}
		}
	}
}
