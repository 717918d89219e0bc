package chart

import (
	"math"
	"strconv"

	gochart "github.com/wcharczuk/go-chart/v2"
	"github.com/wcharczuk/go-chart/v2/drawing"
)

// Axes and legends are laid out here rather than left to go-chart, whose
// own choices were what readers complained about: ticks at the data's extremes
// (5.71, 700.00), a legend drawn over the plot that lost its last entries,
// and a histogram axis starting at the smallest bar with fractional counts.

// NiceTicks returns round tick values covering [lo, hi] with about n
// intervals: steps of 1, 2 or 5 times a power of ten, the first tick at or
// below lo and the last at or above hi, so they double as the axis range.
func NiceTicks(lo, hi float64, n int) []float64 {
	if n < 1 {
		n = 5
	}
	if hi < lo {
		lo, hi = hi, lo
	}
	if hi == lo {
		pad := math.Max(math.Abs(lo)*0.05, 1)
		lo, hi = lo-pad, hi+pad
	}
	step := niceStep((hi - lo) / float64(n))
	first, last := math.Floor(lo/step+1e-9)*step, math.Ceil(hi/step-1e-9)*step
	var out []float64
	for i := 0; ; i++ {
		v := first + float64(i)*step
		if v > last+step/2 {
			break
		}
		out = append(out, cleanZero(roundTo(v, step)))
	}
	return out
}

// niceStep is the smallest of 1, 2, 5 × 10^k at least raw.
func niceStep(raw float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// roundTo removes the float noise of first + i·step (0.30000000000000004).
func roundTo(v, step float64) float64 {
	d := decimals(step)
	p := math.Pow(10, float64(d))
	return math.Round(v*p) / p
}

func cleanZero(v float64) float64 {
	if v == 0 {
		return 0 // not -0
	}
	return v
}

// decimals is how many decimals a tick of this step needs: 0 for 100 or 5,
// 1 for 0.5, 2 for 0.05.
func decimals(step float64) int {
	if step >= 1 {
		return 0
	}
	return int(math.Ceil(-math.Log10(step) - 1e-9))
}

// tickLabels labels values with the decimals their spacing needs.
func tickLabels(values []float64) []gochart.Tick {
	if len(values) == 0 {
		return nil
	}
	d := 0
	if len(values) > 1 {
		d = decimals(values[1] - values[0])
	} else if values[0] != math.Trunc(values[0]) {
		d = 2
	}
	out := make([]gochart.Tick, len(values))
	for i, v := range values {
		out[i] = gochart.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', d, 64)}
	}
	return out
}

// axisIntervals is about how many intervals an axis gets: with steps of
// 1, 2 or 5, between 4 and 8 of them, so the data fills most of the plot.
const axisIntervals = 6

// axis is one axis as drawn: its range and labelled ticks.
type axis struct {
	Min, Max float64
	Ticks    []float64
}

// layoutAxis picks an axis from the caller's fixed range and ticks, or
// round ticks over the data's extent [lo, hi].
func layoutAxis(fixed *[2]float64, ticks []float64, lo, hi float64) axis {
	switch {
	case fixed != nil && len(ticks) > 0:
		return axis{fixed[0], fixed[1], ticks}
	case fixed != nil:
		t := NiceTicks(fixed[0], fixed[1], axisIntervals)
		var in []float64
		for _, v := range t {
			if v >= fixed[0]-1e-9 && v <= fixed[1]+1e-9 {
				in = append(in, v)
			}
		}
		return axis{fixed[0], fixed[1], in}
	case len(ticks) > 0:
		return axis{math.Min(lo, ticks[0]), math.Max(hi, ticks[len(ticks)-1]), ticks}
	}
	t := NiceTicks(lo, hi, axisIntervals)
	return axis{t[0], t[len(t)-1], t}
}

// legendEntry is one line of a legend: a name in a colour, dashed or not.
type legendEntry struct {
	Name   string
	Color  drawing.Color
	Dashed bool
}

// legendWidth is the right margin a legend of these entries takes, in
// pixels: go-chart's 7 px per character of its default 10 px font is a
// safe upper bound, plus the sample line.
func legendWidth(entries []legendEntry) int {
	longest := 0
	for _, e := range entries {
		longest = max(longest, len([]rune(e.Name)))
	}
	return 80 + 7*longest
}

// legendRight draws entries in the right margin, beside the plot, one per
// line, so that no entry covers data and none is cut off.
func legendRight(entries []legendEntry) gochart.Renderable {
	return func(r gochart.Renderer, plot gochart.Box, defaults gochart.Style) {
		x := plot.Right + 60 // past the y axis, which go-chart draws on the right
		y := plot.Top + 6
		r.SetFont(defaults.GetFont())
		r.SetFontSize(10)
		r.SetFontColor(drawing.ColorBlack)
		for _, e := range entries {
			r.SetStrokeColor(e.Color)
			r.SetStrokeWidth(2)
			if e.Dashed {
				r.SetStrokeDashArray([]float64{4, 3})
			} else {
				r.SetStrokeDashArray(nil)
			}
			r.MoveTo(x, y)
			r.LineTo(x+18, y)
			r.Stroke()
			r.Text(e.Name, x+24, y+4)
			y += 16
		}
		r.SetStrokeDashArray(nil)
	}
}
