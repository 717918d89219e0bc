package rating

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
)

// benchEval is the whole of `ladderbot eval` but the process: parse the CSV,
// intern the players, replay with the default model and score.
func benchEval(b *testing.B, csv []byte) {
	b.Helper()
	b.SetBytes(int64(len(csv)))
	for b.Loop() {
		recs, err := ReadMatchCSV(bytes.NewReader(csv))
		if err != nil {
			b.Fatal(err)
		}
		d, err := NewDataset(recs)
		if err != nil {
			b.Fatal(err)
		}
		d.Evaluate(NewTeamGlicko(), 0.8)
	}
}

// BenchmarkEvalATP evaluates the 25,782-match ATP doubles history (target
// under 0.3 s).
func BenchmarkEvalATP(b *testing.B) {
	csv, err := os.ReadFile(atpPath)
	if err != nil {
		testdb.Skip(b, noDevData)
	}
	benchEval(b, csv)
}

// syntheticCSV returns n 2v2 matches among players/… players with hidden
// skills, one day apart every 50 matches.
func syntheticCSV(n, players int) []byte {
	rng := rand.New(rand.NewPCG(7, 11))
	skill := make([]float64, players)
	for i := range skill {
		skill[i] = rng.NormFloat64()
	}
	var buf bytes.Buffer
	buf.WriteString("seq,date,team1_p1,team1_p2,team2_p1,team2_p2,winner\n")
	day := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		var p [4]int
		for j := range p {
		again:
			p[j] = rng.IntN(players)
			for k := 0; k < j; k++ {
				if p[k] == p[j] {
					goto again
				}
			}
		}
		d := skill[p[0]] + skill[p[1]] - skill[p[2]] - skill[p[3]]
		w := 2
		if rng.Float64() < 1/(1+math.Exp(-d)) {
			w = 1
		}
		fmt.Fprintf(&buf, "%d,%s,u%d,u%d,u%d,u%d,%d\n", i, day.AddDate(0, 0, i/50).Format(time.DateOnly), p[0], p[1], p[2], p[3], w)
	}
	return buf.Bytes()
}

// BenchmarkEval100k evaluates 100,000 synthetic 2v2 matches among 5,000
// players (target under 1 s).
func BenchmarkEval100k(b *testing.B) {
	benchEval(b, syntheticCSV(100_000, 5_000))
}

// BenchmarkReplay measures the replay alone, per model, on the synthetic
// history (ns per match = ns/op ÷ 100,000).
func BenchmarkReplay(b *testing.B) {
	recs, err := ReadMatchCSV(bytes.NewReader(syntheticCSV(100_000, 5_000)))
	if err != nil {
		b.Fatal(err)
	}
	d, err := NewDataset(recs)
	if err != nil {
		b.Fatal(err)
	}
	preds := make([]float64, d.Len())
	for _, name := range ModelNames() {
		m, _ := NewModel(name, nil)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				d.Predict(m, d.Len(), preds)
			}
			b.ReportMetric(float64(d.Len())*float64(b.N)/b.Elapsed().Seconds(), "matches/s")
		})
	}
}
