package rating

import (
	"testing"
	"time"
)

// gxeScale is a step of a model's rating scale: about a third of a fresh
// player's deviation, or 100 points where the model has none.
var gxeScale = map[string]float64{
	"team-glicko": 100, "glicko": 100, "glicko-boost": 100,
	"elo": 100, "synelo": 100,
	"openskill": 3, "trueskill": 3,
}

func TestModelGXE(t *testing.T) {
	for _, name := range ModelNames() {
		t.Run(name, func(t *testing.T) {
			m, err := NewModel(name, nil)
			if err != nil {
				t.Fatalf("NewModel(%s) = %v", name, err)
			}
			step, ok := gxeScale[name]
			if !ok {
				t.Fatalf("model %s has no gxeScale entry; add one", name)
			}
			fresh := m.New()
			if got := ModelGXE(m, fresh); !near(got, 50, 1e-9) {
				t.Errorf("Got(ModelGXE(%s, New())) = %.9f, want 50", name, got)
			}
			// Monotone in the rating and strictly inside (0, 100), from far
			// below to far above a fresh player.
			last := 0.0
			for k := -6; k <= 6; k++ {
				s := fresh
				s.Rating += float64(k) * step
				s.Games, s.Last = 10, time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
				got := ModelGXE(m, s)
				if !(got > 0 && got < 100) {
					t.Errorf("Got(ModelGXE(%s, rating %g)) = %g, want in (0, 100)", name, s.Rating, got)
				}
				if got <= last {
					t.Errorf("Got(ModelGXE(%s, rating %g)) = %g, want above %g (one step lower)", name, s.Rating, got, last)
				}
				last = got
			}
			// No inactivity artefacts: a year idle changes nothing.
			s := fresh
			s.Rating += 2 * step
			s.Games, s.Last = 10, time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
			old := ModelGXE(m, s)
			s.Last = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
			if got := ModelGXE(m, s); got != old {
				t.Errorf("Got(ModelGXE(%s)) = %g last played 2026, %g last played 2025, want equal", name, got, old)
			}
		})
	}
}

func TestModelGXEValues(t *testing.T) {
	at := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name  string
		model string
		s     State
		want  float64
	}{
		// The Glicko-scale models are docs/spec.md 4's GXE(R, RD), boost or not.
		{"team-glicko is GXE", "team-glicko", State{Rating: 1700, Dev: 50, Games: 9, Last: at}, GXE(1700, 50)},
		{"glicko is GXE", "glicko", State{Rating: 1700, Dev: 50, Games: 9, Last: at}, GXE(1700, 50)},
		{"glicko-boost is GXE", "glicko-boost", State{Rating: 1300, Dev: 40, Games: 9, Last: at}, GXE(1300, 40)},
		// 1/(1 + 10^(−200/400)) against a fresh 1500.
		{"elo 1700", "elo", State{Rating: 1700, Games: 9, Last: at}, 75.97469266479578},
		// F1 with Θ = 400 for 1v1: 1/(1 + e^(−200/400)) against a fresh 1000.
		{"synelo 1200", "synelo", State{Rating: 1200, Games: 9, Last: at}, 62.245933120185455},
		// c = √(3² + (25/3)² + 2·(25/6)²); 1/(1 + e^(−5/c)) against 25/8.33.
		{"openskill mu 30", "openskill", State{Rating: 30, Dev: 3, Games: 9, Last: at}, 61.53870567327409},
		// Φ(5/c) with the same c (two players' β²).
		{"trueskill mu 30", "trueskill", State{Rating: 30, Dev: 3, Games: 9, Last: at}, 68.0827472334568},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := NewModel(tt.model, nil)
			if err != nil {
				t.Fatalf("NewModel(%s) = %v", tt.model, err)
			}
			if got := ModelGXE(m, tt.s); !near(got, tt.want, 1e-9) {
				t.Errorf("Got(ModelGXE(%s, %+v)) = %.9f, want %.9f", tt.model, tt.s, got, tt.want)
			}
		})
	}
}

func BenchmarkModelGXE(b *testing.B) {
	for _, name := range []string{"team-glicko", "trueskill", "openskill"} {
		m, _ := NewModel(name, nil)
		s := m.New()
		s.Rating += 1
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = ModelGXE(m, s)
			}
		})
	}
}
