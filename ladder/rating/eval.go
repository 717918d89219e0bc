package rating

import (
	"fmt"
	"math"
	"slices"
)

// Dataset is a match history prepared for fast replays: player IDs are
// interned once, so a replay touches only slices and allocates nothing per
// match.
type Dataset struct {
	// Records are the matches in replay order.
	Records []MatchRecord
	// Players are the distinct player IDs; players[i] has index i.
	Players []string
	// teams holds every match's player indexes, team 1 then team 2;
	// match i spans teams[off[i]:off[i+1]] and its team 1 has size1[i] players.
	teams []int32
	off   []int32
	size1 []uint8
	score []float64
}

// NewDataset interns the players of recs. Every record must have 1 to
// MaxTeamSize players a side, no player twice, and a winner of 0, 1 or 2,
// as ReadMatchCSV guarantees; otherwise it returns a invalid-input error (*Error).
func NewDataset(recs []MatchRecord) (*Dataset, error) {
	d := &Dataset{Records: recs, off: make([]int32, 1, len(recs)+1), size1: make([]uint8, len(recs)), score: make([]float64, len(recs))}
	n := 0
	for _, r := range recs {
		n += len(r.Team1) + len(r.Team2)
	}
	d.teams = make([]int32, 0, n)
	ids := make(map[string]int32)
	intern := func(id string) int32 {
		if i, ok := ids[id]; ok {
			return i
		}
		i := int32(len(d.Players))
		ids[id] = i
		d.Players = append(d.Players, id)
		return i
	}
	for i, r := range recs {
		if err := checkRecord(r); err != nil {
			return nil, invalidf("match %d (seq %d): %v", i, r.Seq, err)
		}
		for _, id := range r.Team1 {
			d.teams = append(d.teams, intern(id))
		}
		for _, id := range r.Team2 {
			d.teams = append(d.teams, intern(id))
		}
		d.off = append(d.off, int32(len(d.teams)))
		d.size1[i] = uint8(len(r.Team1))
		d.score[i] = r.Score()
	}
	return d, nil
}

// checkRecord checks the shape of one match record.
func checkRecord(r MatchRecord) error {
	if r.Winner < 0 || r.Winner > 2 {
		return fmt.Errorf("winner %d is not 1, 2 or 0", r.Winner)
	}
	for t, team := range [2][]string{r.Team1, r.Team2} {
		if len(team) < 1 || len(team) > MaxTeamSize {
			return fmt.Errorf("team %d has %d players, want 1 to %d", t+1, len(team), MaxTeamSize)
		}
	}
	// At most 2·MaxTeamSize players: comparing each pair allocates
	// nothing, where a set per record was a map for every match.
	var buf [2 * MaxTeamSize]string
	ids := append(append(buf[:0], r.Team1...), r.Team2...)
	for i, id := range ids {
		if slices.Contains(ids[:i], id) {
			return fmt.Errorf("player %q appears twice", id)
		}
	}
	return nil
}

// Len returns the number of matches.
func (d *Dataset) Len() int { return len(d.size1) }

// Predict replays the matches from the first to end (exclusive) with model
// m from new players: for each match it stores P(team 1 wins) from the
// states before it in out[i], then updates (docs/spec.md 2.3). out must have at
// least end entries. The final states, indexed like Players, are returned.
func (d *Dataset) Predict(m Model, end int, out []float64) []State {
	return d.PredictProgress(m, end, out, 0, nil)
}

// PredictProgress is Predict that also calls progress with the number of
// matches done after every step matches (step > 0) and at the end.
func (d *Dataset) PredictProgress(m Model, end int, out []float64, step int, progress func(done int)) []State {
	states := make([]State, len(d.Players))
	for i := range states {
		states[i] = m.New()
	}
	var buf [2 * MaxTeamSize]State
	for i := 0; i < end; i++ {
		idx := d.teams[d.off[i]:d.off[i+1]]
		n1 := int(d.size1[i])
		for j, p := range idx {
			buf[j] = states[p]
		}
		a, b := buf[:n1], buf[n1:len(idx)]
		at := d.Records[i].Date
		out[i] = m.Predict(a, b, at)
		m.Update(a, b, d.score[i], at)
		for j, p := range idx {
			states[p] = buf[j]
		}
		if progress != nil && step > 0 && (i+1)%step == 0 {
			progress(i + 1)
		}
	}
	if progress != nil {
		progress(end)
	}
	return states
}

// CalibrationBin is one of the ten equal-width bins of predicted
// probability in an evaluation: how many scored matches fell in it, their
// mean prediction and team 1's mean result.
type CalibrationBin struct {
	Lo, Hi   float64
	Count    int
	MeanP    float64
	MeanWins float64
}

// EvalResult is the score of a model on the scored part of a history
// (docs/spec.md 2.3).
type EvalResult struct {
	Matches  int
	Scored   int
	LogLoss  float64
	Brier    float64
	Accuracy float64
	ECE      float64
	Bins     [10]CalibrationBin
}

// WarmupStart returns the index of the first scored match: ⌊warmup·n⌋.
func WarmupStart(n int, warmup float64) int {
	return int(math.Floor(warmup * float64(n)))
}

// probClip bounds predictions for the log loss (docs/spec.md 2.3).
const probClip = 1e-6

// Score scores the predictions preds[start:end] against the results of
// matches start..end−1: log loss with p clipped to [1e-6, 1 − 1e-6], Brier,
// accuracy (p = 0.5 and draws count half) and the expected calibration
// error over ten equal-width bins. A draw is a result of 0.5.
func (d *Dataset) Score(preds []float64, start, end int) EvalResult {
	res := EvalResult{Matches: d.Len(), Scored: end - start}
	for b := range res.Bins {
		res.Bins[b].Lo, res.Bins[b].Hi = float64(b)/10, float64(b+1)/10
	}
	if end <= start {
		return res
	}
	for i := start; i < end; i++ {
		p, o := preds[i], d.score[i]
		pc := math.Min(1-probClip, math.Max(probClip, p))
		res.LogLoss -= o*math.Log(pc) + (1-o)*math.Log(1-pc)
		res.Brier += (p - o) * (p - o)
		switch {
		case p == 0.5 || o == 0.5:
			res.Accuracy += 0.5
		case (p > 0.5) == (o == 1):
			res.Accuracy++
		}
		b := min(9, max(0, int(p*10)))
		res.Bins[b].Count++
		res.Bins[b].MeanP += p
		res.Bins[b].MeanWins += o
	}
	n := float64(end - start)
	res.LogLoss /= n
	res.Brier /= n
	res.Accuracy /= n
	for b := range res.Bins {
		bin := &res.Bins[b]
		if bin.Count == 0 {
			continue
		}
		c := float64(bin.Count)
		// The bin's weight c/n times |mean p − mean result|; both are still sums here.
		res.ECE += math.Abs(bin.MeanP-bin.MeanWins) / n
		bin.MeanP /= c
		bin.MeanWins /= c
	}
	return res
}

// Evaluate replays the whole history with m and scores the matches from
// ⌊warmup·n⌋ on (docs/spec.md 2.3). It returns the score and every match's
// prediction of P(team 1 wins).
func (d *Dataset) Evaluate(m Model, warmup float64) (EvalResult, []float64) {
	preds := make([]float64, d.Len())
	d.Predict(m, d.Len(), preds)
	return d.Score(preds, WarmupStart(d.Len(), warmup), d.Len()), preds
}
