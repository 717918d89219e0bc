package chart

import (
	"bytes"
	"slices"
	"time"
)

// HistoryPNG renders a player's rating history as a PNG for /profile: one
// line of the displayed rating over time. Its signature is what
// commands.Deps.Chart expects. A history of one point, or of one constant
// rating, gets padded axes, since go-chart cannot draw a zero-width range.
func HistoryPNG(title string, at []time.Time, rating []float64) ([]byte, error) {
	var buf bytes.Buffer
	if err := TimeLines(&buf, historyChart(title, at, rating), TimeSeries{Name: "rating", T: at, Y: rating}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// historyChart is HistoryPNG's frame: padded axes for a single point or a
// flat line.
func historyChart(title string, at []time.Time, rating []float64) Chart {
	c := Chart{Title: title, XLabel: "date", YLabel: "rating", Width: 800, Height: 400}
	if len(at) > 0 && len(at) == len(rating) {
		first, last := slices.MinFunc(at, time.Time.Compare), slices.MaxFunc(at, time.Time.Compare)
		if !last.After(first) {
			c.XRange = &[2]float64{float64(first.Add(-12 * time.Hour).UnixNano()), float64(first.Add(12 * time.Hour).UnixNano())}
		}
		lo, hi := slices.Min(rating), slices.Max(rating)
		if hi-lo < 1 {
			c.YRange = &[2]float64{lo - 25, hi + 25}
		}
	}
	return c
}
