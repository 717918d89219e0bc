package rating

import (
	"math"
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// played returns a state whose last match was at t0.
func played(r, rd float64) State { return State{Rating: r, Dev: rd, Last: t0, Games: 1} }

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// TestTeamGlickoWorkedExamples checks the worked examples of docs/spec.md 2.1 to 1e-4.
func TestTeamGlickoWorkedExamples(t *testing.T) {
	type pr struct{ r, rd float64 }
	tests := []struct {
		name         string
		a, b         []pr
		score        float64
		ra, rda, rb  float64
		rdb, ea      float64
		wantA, wantB []pr
	}{
		{
			name: "four new players, A wins",
			a:    []pr{{1500, 130}, {1500, 130}}, b: []pr{{1500, 130}, {1500, 130}}, score: 1,
			ra: 1610, rda: 130, rb: 1610, rdb: 130, ea: 0.5,
			wantA: []pr{{1540.1606, 122.8583}, {1540.1606, 122.8583}},
			wantB: []pr{{1459.8394, 122.8583}, {1459.8394, 122.8583}},
		},
		{
			name: "mixed teams, A wins",
			a:    []pr{{1600, 50}, {1450, 120}}, b: []pr{{1550, 80}, {1500, 40}}, score: 1,
			ra: 1654.0381, rda: 91.9239, rb: 1668.3772, rdb: 63.2456, ea: 0.479779,
			wantA: []pr{{1607.1971, 49.5104}, {1487.9363, 113.6695}},
			wantB: []pr{{1532.4714, 78.1173}, {1495.4594, 39.7583}},
		},
		{
			name: "mixed teams, draw",
			a:    []pr{{1600, 50}, {1450, 120}}, b: []pr{{1550, 80}, {1500, 40}}, score: 0.5,
			ra: 1654.0381, rda: 91.9239, rb: 1668.3772, rdb: 63.2456, ea: 0.479779,
			wantA: []pr{{1600.2798, 49.5104}, {1451.4746, 113.6695}},
			wantB: []pr{{1549.3323, 78.1173}, {1499.8270, 39.7583}},
		},
		{
			name: "certain team loses to new team",
			a:    []pr{{1500, 30}, {1500, 30}}, b: []pr{{1500, 130}, {1500, 130}}, score: 0,
			ra: 1660, rda: 30, rb: 1610, rdb: 130, ea: 0.566127,
			wantA: []pr{{1497.3056, 29.9065}, {1497.3056, 29.9065}},
			wantB: []pr{{1548.6940, 121.9737}, {1548.6940, 121.9737}},
		},
	}
	m := NewTeamGlicko()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var a, b []State
			for _, p := range tt.a {
				a = append(a, played(p.r, p.rd))
			}
			for _, p := range tt.b {
				b = append(b, played(p.r, p.rd))
			}
			ra, rda := m.team(a, t0, true)
			rb, rdb := m.team(b, t0, true)
			for _, c := range []struct {
				what      string
				got, want float64
			}{{"R_A", ra, tt.ra}, {"RD_A", rda, tt.rda}, {"R_B", rb, tt.rb}, {"RD_B", rdb, tt.rdb}} {
				if !near(c.got, c.want, 1e-4) {
					t.Errorf("Got(%s) = %.6f, want %.4f", c.what, c.got, c.want)
				}
			}
			if got := m.Predict(a, b, t0); !near(got, tt.ea, 1e-6) {
				t.Errorf("Got(Predict) = %.7f, want %.6f", got, tt.ea)
			}
			m.Update(a, b, tt.score, t0)
			for i, w := range tt.wantA {
				if !near(a[i].Rating, w.r, 1e-4) || !near(a[i].Dev, w.rd, 1e-4) {
					t.Errorf("Got(A[%d]) = %.4f/%.4f, want %.4f/%.4f", i, a[i].Rating, a[i].Dev, w.r, w.rd)
				}
			}
			for i, w := range tt.wantB {
				if !near(b[i].Rating, w.r, 1e-4) || !near(b[i].Dev, w.rd, 1e-4) {
					t.Errorf("Got(B[%d]) = %.4f/%.4f, want %.4f/%.4f", i, b[i].Rating, b[i].Dev, w.r, w.rd)
				}
			}
			for _, s := range append(a, b...) {
				if s.Games != 2 || !s.Last.Equal(t0) {
					t.Errorf("Got(Games, Last) = %d, %v, want 2, %v", s.Games, s.Last, t0)
				}
			}
		})
	}
}

// TestTeamGlickoInactivity checks docs/spec.md 2.1 step 1 and its worked example.
func TestTeamGlickoInactivity(t *testing.T) {
	m := NewTeamGlicko()
	tests := []struct {
		name string
		s    State
		at   time.Time
		want float64
	}{
		{"idle 100 days", played(1500, 25), t0.Add(100 * 24 * time.Hour), 71.3015},
		{"idle 400 days hits the ceiling", played(1500, 25), t0.Add(400 * 24 * time.Hour), 130},
		{"same instant", played(1500, 25), t0, 25},
		{"half a day", played(1500, 25), t0.Add(12 * time.Hour), math.Sqrt(25*25 + 6.6775*6.6775/2)},
		{"match dated before the last one", played(1500, 25), t0.Add(-48 * time.Hour), 25},
		{"new player", m.New(), t0, 130},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := m.GrownRD(&tt.s, tt.at); !near(got, tt.want, 1e-4) {
				t.Errorf("Got(GrownRD) = %.4f, want %.4f", got, tt.want)
			}
		})
	}
}

// TestTeamGlickoUpdateGrowsOnce checks that Update applies the idle growth
// once, before rating the match: four players idle for 100 days rate exactly
// like four players who just played with the grown RD.
func TestTeamGlickoUpdateGrowsOnce(t *testing.T) {
	m := NewTeamGlicko()
	at := t0.Add(100 * 24 * time.Hour)
	grown := m.GrownRD(&State{Dev: 25, Last: t0}, at)
	idle := []State{played(1600, 25), played(1500, 25), played(1450, 25), played(1550, 25)}
	fresh := make([]State, len(idle))
	for i, s := range idle {
		fresh[i] = State{Rating: s.Rating, Dev: grown, Last: at, Games: 1}
	}
	if got, want := m.Predict(idle[:2], idle[2:], at), m.Predict(fresh[:2], fresh[2:], at); !near(got, want, 1e-12) {
		t.Errorf("Got(Predict idle) = %.9f, want %.9f", got, want)
	}
	m.Update(idle[:2], idle[2:], 1, at)
	m.Update(fresh[:2], fresh[2:], 1, at)
	for i := range idle {
		if !near(idle[i].Rating, fresh[i].Rating, 1e-9) || !near(idle[i].Dev, fresh[i].Dev, 1e-9) {
			t.Errorf("Got(player %d) = %.6f/%.6f, want %.6f/%.6f", i, idle[i].Rating, idle[i].Dev, fresh[i].Rating, fresh[i].Dev)
		}
	}
}
