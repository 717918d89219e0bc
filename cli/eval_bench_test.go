package cli

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// history200k writes a 200,000-match 2v2 history among 5,000 players with
// a time of day on every row, as a real sport's results export has.
func history200k(b *testing.B) string {
	b.Helper()
	rng := rand.New(rand.NewPCG(200, 1))
	skill := make([]float64, 5000)
	for i := range skill {
		skill[i] = rng.NormFloat64() * 200
	}
	var sb strings.Builder
	sb.WriteString("date,team1_p1,team1_p2,team2_p1,team2_p2,winner\n")
	at := time.Date(2005, 1, 1, 9, 0, 0, 0, time.UTC)
	for i := range 200_000 {
		var p [4]int
		for j := range p {
		again:
			p[j] = rng.IntN(len(skill))
			for k := range j {
				if p[k] == p[j] {
					goto again
				}
			}
		}
		d := (skill[p[0]] + skill[p[1]] - skill[p[2]] - skill[p[3]]) / 2
		w := 2
		if rng.Float64() < 1/(1+math.Pow(10, -d/400)) {
			w = 1
		}
		fmt.Fprintf(&sb, "%s,player-%d,player-%d,player-%d,player-%d,%d\n", at.Add(time.Duration(i)*7*time.Minute).Format(time.RFC3339), p[0], p[1], p[2], p[3], w)
	}
	path := filepath.Join(b.TempDir(), "history.csv")
	if err := os.WriteFile(path, []byte(sb.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkEval200k is a whole `ladderbot eval --json` on 200,000 matches
// but the process start: read and check the file, replay, score.
func BenchmarkEval200k(b *testing.B) {
	path := history200k(b)
	for b.Loop() {
		if code := Main([]string{"eval", "--data", path, "--json"}, nil, io.Discard, io.Discard); code != 0 {
			b.Fatalf("eval = %d", code)
		}
	}
}
