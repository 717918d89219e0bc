package chart

import "io"

// PairedLines is Lines for series that come in pairs drawn in one colour,
// such as a player's rating trajectory and the dashed line of their hidden
// true skill in `ladderbot simulate --plot`.
func PairedLines(w io.Writer, c Chart, pairs ...[2]Series) error {
	series := make([]Series, 0, 2*len(pairs))
	for _, p := range pairs {
		series = append(series, p[0], p[1])
	}
	return lines(w, c, series, func(i int) int { return i / 2 })
}
