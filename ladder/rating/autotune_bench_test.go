package rating

import (
	"bytes"
	"context"
	"testing"
)

// BenchmarkAutoTune100k is one self-tuning round of team-glicko on a
// 100,000-match synthetic log: the pattern search on the first 80% (at most
// 80 replays) and the two replays of the adoption rule. Self-tuning needs
// well under a minute on one core.
func BenchmarkAutoTune100k(b *testing.B) {
	recs, err := ReadMatchCSV(bytes.NewReader(syntheticCSV(100_000, 5_000)))
	if err != nil {
		b.Fatal(err)
	}
	d, err := NewDataset(recs)
	if err != nil {
		b.Fatal(err)
	}
	var evals int
	for b.Loop() {
		st, err := d.SelfTune(context.Background(), "team-glicko", nil, d.Len(), SelfTuneOptions{})
		if err != nil {
			b.Fatal(err)
		}
		evals = st.Evals
	}
	b.ReportMetric(float64(evals), "replays")
}
