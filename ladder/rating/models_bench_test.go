package rating

import (
	"math/rand/v2"
	"testing"
	"time"
)

// BenchmarkUpdate measures one Update per op for every model and team size
// 1, 2 and 8 (target: team-glicko 2v2 at 3 million updates/s, 0 allocs).
func BenchmarkUpdate(b *testing.B) {
	for _, name := range ModelNames() {
		m, _ := NewModel(name, nil)
		for _, n := range []int{1, 2, MaxTeamSize} {
			b.Run(name+"/"+string(rune('0'+n))+"v"+string(rune('0'+n)), func(b *testing.B) {
				rng := rand.New(rand.NewPCG(3, 4))
				at := t0
				a, c := fuzzStates(m, rng, n, at), fuzzStates(m, rng, n, at)
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					// Alternate results and let a little time pass, so the
					// states stay plausible and inactivity code runs.
					at = at.Add(time.Hour)
					m.Update(a, c, float64(i&1), at)
					i++
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "updates/s")
			})
		}
	}
}

// BenchmarkPredict measures one 2v2 prediction per op for every model.
func BenchmarkPredict(b *testing.B) {
	for _, name := range ModelNames() {
		m, _ := NewModel(name, nil)
		b.Run(name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(3, 4))
			a, c := fuzzStates(m, rng, 2, t0), fuzzStates(m, rng, 2, t0)
			b.ReportAllocs()
			var sink float64
			for b.Loop() {
				sink += m.Predict(a, c, t0)
			}
			_ = sink
		})
	}
}
