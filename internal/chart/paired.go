package chart

import (
	"io"

	gochart "github.com/wcharczuk/go-chart/v2"
)

// PairedLines is Lines for series that come in pairs drawn in one colour,
// such as a player's rating trajectory and the dashed line of their hidden
// true skill in `ladderbot simulate --plot`. The legend names each pair once,
// by its first series; the chart's title says what the second one is.
func PairedLines(w io.Writer, c Chart, pairs ...[2]Series) error {
	sp, out, err := pairedSpec(c, pairs)
	if err != nil {
		return err
	}
	return render(w, sp.frame(out))
}

func pairedSpec(c Chart, pairs [][2]Series) (spec, []gochart.Series, error) {
	series := make([]Series, 0, 2*len(pairs))
	for _, p := range pairs {
		series = append(series, p[0], p[1])
	}
	return linesSpec(c, series, func(i int) int { return i / 2 }, func(i int) bool { return i%2 == 0 })
}
