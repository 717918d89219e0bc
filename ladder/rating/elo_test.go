package rating

import (
	"math"
	"testing"
)

func TestElo(t *testing.T) {
	m, _ := NewModel("elo", nil)
	tests := []struct {
		name      string
		a, b      []float64
		score     float64
		wantP     float64
		wantDelta float64
	}{
		{"even 2v2, a wins", []float64{1500, 1500}, []float64{1500, 1500}, 1, 0.5, 16},
		{"favourite wins", []float64{1700, 1500}, []float64{1500, 1500}, 1, 1 / (1 + math.Pow(10, -0.25)), 32 * (1 - 1/(1+math.Pow(10, -0.25)))},
		{"favourite draws", []float64{1700, 1500}, []float64{1500, 1500}, 0.5, 1 / (1 + math.Pow(10, -0.25)), 32 * (0.5 - 1/(1+math.Pow(10, -0.25)))},
		{"3v1", []float64{1400, 1500, 1600}, []float64{1600}, 0, 1 / (1 + math.Pow(10, 0.25)), -32 / (1 + math.Pow(10, 0.25))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var a, b []State
			for _, r := range tt.a {
				a = append(a, State{Rating: r})
			}
			for _, r := range tt.b {
				b = append(b, State{Rating: r})
			}
			if p := m.Predict(a, b, t0); !near(p, tt.wantP, 1e-12) {
				t.Errorf("Got(Predict) = %.12f, want %.12f", p, tt.wantP)
			}
			m.Update(a, b, tt.score, t0)
			for i := range a {
				if !near(a[i].Rating-tt.a[i], tt.wantDelta, 1e-9) {
					t.Errorf("Got(A[%d] delta) = %.9f, want %.9f", i, a[i].Rating-tt.a[i], tt.wantDelta)
				}
			}
			for i := range b {
				if !near(b[i].Rating-tt.b[i], -tt.wantDelta, 1e-9) {
					t.Errorf("Got(B[%d] delta) = %.9f, want %.9f", i, b[i].Rating-tt.b[i], -tt.wantDelta)
				}
			}
		})
	}
}
