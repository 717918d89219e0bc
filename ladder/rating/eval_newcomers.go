package rating

// Newcomers returns, for every match up to end, whether one of its players
// had played fewer than games matches before it: the matches a placement
// mode (seed 002's calibration matches) changes most.
func (d *Dataset) Newcomers(games, end int) []bool {
	played := make([]int, len(d.Players))
	out := make([]bool, end)
	for i := 0; i < end; i++ {
		idx := d.teams[d.off[i]:d.off[i+1]]
		for _, p := range idx {
			if played[p] < games {
				out[i] = true
			}
		}
		for _, p := range idx {
			played[p]++
		}
	}
	return out
}

// ScoreSplit scores preds[start:end] twice: on the matches where pick is
// true and on the others, each with Score's measures.
func (d *Dataset) ScoreSplit(preds []float64, pick []bool, start, end int) (picked, rest EvalResult) {
	var a, b Dataset
	var pa, pb []float64
	for i := start; i < end; i++ {
		dst, pp := &b, &pb
		if pick[i] {
			dst, pp = &a, &pa
		}
		dst.size1 = append(dst.size1, d.size1[i])
		dst.score = append(dst.score, d.score[i])
		*pp = append(*pp, preds[i])
	}
	return a.Score(pa, 0, len(pa)), b.Score(pb, 0, len(pb))
}
