package chart

import (
	"errors"
	"fmt"
	"io"
	"math"
	"sync"
	"time"

	gochart "github.com/wcharczuk/go-chart/v2"
	"github.com/wcharczuk/go-chart/v2/drawing"
)

// Chart is the frame shared by every kind of chart: title, axis names, size
// in pixels, and optional fixed axis ranges (nil lets the data decide).
type Chart struct {
	Title          string
	XLabel, YLabel string
	// Width and Height default to 800×480.
	Width, Height int
	// XRange and YRange, when set, fix an axis to [min, max].
	XRange, YRange *[2]float64
	// XTicks and YTicks, when set, are the values labelled on an axis.
	XTicks, YTicks []float64
}

// Series is one named line or point set of (X[i], Y[i]).
type Series struct {
	Name string
	X, Y []float64
	// Points draws markers; Line draws the connecting line. A series with
	// neither set draws a line.
	Points, Line bool
	// Dashed draws the line dashed, for references such as a diagonal.
	Dashed bool
}

// TimeSeries is one named line over time, such as a rating history.
type TimeSeries struct {
	Name string
	T    []time.Time
	Y    []float64
}

// ErrNoData is returned when there is nothing to draw.
var ErrNoData = errors.New("chart: no data to draw")

var palette = []drawing.Color{
	{R: 0x1f, G: 0x77, B: 0xb4, A: 255}, {R: 0xff, G: 0x7f, B: 0x0e, A: 255},
	{R: 0x2c, G: 0xa0, B: 0x2c, A: 255}, {R: 0xd6, G: 0x27, B: 0x28, A: 255},
	{R: 0x94, G: 0x67, B: 0xbd, A: 255}, {R: 0x8c, G: 0x56, B: 0x4b, A: 255},
	{R: 0xe3, G: 0x77, B: 0xc2, A: 255}, {R: 0x7f, G: 0x7f, B: 0x7f, A: 255},
}

func color(i int) drawing.Color { return palette[i%len(palette)] }

func (c Chart) size() (w, h int) {
	w, h = c.Width, c.Height
	if w <= 0 {
		w = 800
	}
	if h <= 0 {
		h = 480
	}
	return w, h
}

// spec is a chart as laid out before go-chart draws it: the axes, their
// ticks and the legend. Tests check it rather than pixels.
type spec struct {
	Chart
	X, Y axis
	// XTime marks a time axis (TimeLines): X is in Unix nanoseconds and
	// XTickLabels label its ticks as dates.
	XTime       bool
	XTickLabels []string
	Legend      []legendEntry
}

// layout lays out c over series: round ticks on both axes unless c fixes
// them, and a legend beside the plot when there is more than one entry.
func layout(c Chart, series []Series, legend []legendEntry) spec {
	xlo, xhi, ylo, yhi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, s := range series {
		for i := range s.X {
			xlo, xhi = math.Min(xlo, s.X[i]), math.Max(xhi, s.X[i])
			ylo, yhi = math.Min(ylo, s.Y[i]), math.Max(yhi, s.Y[i])
		}
	}
	sp := spec{Chart: c, X: layoutAxis(c.XRange, c.XTicks, xlo, xhi), Y: layoutAxis(c.YRange, c.YTicks, ylo, yhi)}
	if len(legend) > 1 {
		sp.Legend = legend
	}
	return sp
}

func (sp spec) frame(series []gochart.Series) gochart.Chart {
	w, h := sp.size()
	pad := gochart.Box{Top: 50, Left: 20, Right: 20, Bottom: 20}
	if len(sp.Legend) > 0 {
		pad.Right += legendWidth(sp.Legend)
	}
	g := gochart.Chart{
		Title:      sp.Title,
		TitleStyle: gochart.Style{FontSize: 13},
		Width:      w,
		Height:     h,
		Background: gochart.Style{Padding: pad},
		XAxis:      gochart.XAxis{Name: sp.XLabel},
		YAxis: gochart.YAxis{Name: sp.YLabel, Range: &gochart.ContinuousRange{Min: sp.Y.Min, Max: sp.Y.Max},
			Ticks: tickLabels(sp.Y.Ticks)},
		Series: series,
	}
	g.XAxis.Range = &gochart.ContinuousRange{Min: sp.X.Min, Max: sp.X.Max}
	if sp.XTime {
		for i, v := range sp.X.Ticks {
			g.XAxis.Ticks = append(g.XAxis.Ticks, gochart.Tick{Value: v, Label: sp.XTickLabels[i]})
		}
	} else {
		g.XAxis.Ticks = tickLabels(sp.X.Ticks)
	}
	if len(sp.Legend) > 0 {
		g.Elements = []gochart.Renderable{legendRight(sp.Legend)}
	}
	return g
}

// fontOnce loads go-chart's default font before any chart renders. go-chart
// checks whether it has loaded it without synchronization, so renders that
// start together in a fresh process (several /profile at once) raced on
// the first load; after Do, every render reads the loaded font.
var fontOnce sync.Once

func loadFont() {
	fontOnce.Do(func() { gochart.GetDefaultFont() })
}

func render(w io.Writer, g gochart.Chart) error {
	loadFont()
	if err := g.Render(gochart.PNG, w); err != nil {
		return fmt.Errorf("chart: render %q: %w", g.Title, err)
	}
	return nil
}

func checkSeries(s Series) error {
	if len(s.X) != len(s.Y) {
		return fmt.Errorf("chart: series %q has %d x and %d y values", s.Name, len(s.X), len(s.Y))
	}
	for i := range s.X {
		if math.IsNaN(s.X[i]) || math.IsInf(s.X[i], 0) || math.IsNaN(s.Y[i]) || math.IsInf(s.Y[i], 0) {
			return fmt.Errorf("chart: series %q has a non-finite value at %d", s.Name, i)
		}
	}
	return nil
}

// Lines writes a PNG of the series as lines, points or both.
func Lines(w io.Writer, c Chart, series ...Series) error {
	sp, out, err := linesSpec(c, series, func(i int) int { return i }, func(int) bool { return true })
	if err != nil {
		return err
	}
	return render(w, sp.frame(out))
}

// linesSpec lays out series, drawn in colour colourOf(i); the legend names
// the series for which inLegend(i).
func linesSpec(c Chart, series []Series, colourOf func(i int) int, inLegend func(i int) bool) (spec, []gochart.Series, error) {
	var out []gochart.Series
	var legend []legendEntry
	var drawn []Series
	for i, s := range series {
		if err := checkSeries(s); err != nil {
			return spec{}, nil, err
		}
		if len(s.X) == 0 {
			continue
		}
		col := color(colourOf(i))
		st := gochart.Style{StrokeColor: col, DotColor: col, StrokeWidth: 2}
		if s.Points {
			st.DotWidth = 4
			if !s.Line {
				st.StrokeWidth = gochart.Disabled
			}
		}
		if s.Dashed {
			st.StrokeDashArray = []float64{6, 4}
		}
		out = append(out, gochart.ContinuousSeries{Name: s.Name, XValues: s.X, YValues: s.Y, Style: st})
		drawn = append(drawn, s)
		if inLegend(i) {
			legend = append(legend, legendEntry{Name: s.Name, Color: col, Dashed: s.Dashed})
		}
	}
	if len(out) == 0 {
		return spec{}, nil, ErrNoData
	}
	return layout(c, drawn, legend), out, nil
}

// Scatter writes a PNG of the series as points only.
func Scatter(w io.Writer, c Chart, series ...Series) error {
	pts := make([]Series, len(series))
	for i, s := range series {
		s.Points, s.Line = true, false
		pts[i] = s
	}
	return Lines(w, c, pts...)
}

// TimeLines writes a PNG of lines over time, one per series.
func TimeLines(w io.Writer, c Chart, series ...TimeSeries) error {
	sp, out, err := timeLinesSpec(c, series)
	if err != nil {
		return err
	}
	return render(w, sp.frame(out))
}

// timeLinesSpec lays out TimeLines: the data's time extent (or c.XRange,
// in Unix nanoseconds) with readable date ticks (timeTicks).
func timeLinesSpec(c Chart, series []TimeSeries) (spec, []gochart.Series, error) {
	var out []gochart.Series
	var legend []legendEntry
	var ys []Series
	var first, last time.Time
	for i, s := range series {
		if len(s.T) != len(s.Y) {
			return spec{}, nil, fmt.Errorf("chart: series %q has %d times and %d values", s.Name, len(s.T), len(s.Y))
		}
		if len(s.T) == 0 {
			continue
		}
		st := gochart.Style{StrokeColor: color(i), DotColor: color(i), StrokeWidth: 2}
		if len(s.T) == 1 {
			st.DotWidth = 4
		}
		out = append(out, gochart.TimeSeries{Name: s.Name, XValues: s.T, YValues: s.Y, Style: st})
		legend = append(legend, legendEntry{Name: s.Name, Color: color(i)})
		ys = append(ys, Series{X: make([]float64, len(s.Y)), Y: s.Y})
		for _, t := range s.T {
			if first.IsZero() || t.Before(first) {
				first = t
			}
			if last.IsZero() || t.After(last) {
				last = t
			}
		}
	}
	if len(out) == 0 {
		return spec{}, nil, ErrNoData
	}
	sp := layout(c, ys, legend)
	sp.XTime = true
	if c.XRange != nil {
		first, last = time.Unix(0, int64(c.XRange[0])), time.Unix(0, int64(c.XRange[1]))
	}
	ticks := timeTicks(first, last)
	sp.X = axis{Min: float64(ticks[0].At.UnixNano()), Max: float64(ticks[len(ticks)-1].At.UnixNano())}
	for _, t := range ticks {
		sp.X.Ticks = append(sp.X.Ticks, float64(t.At.UnixNano()))
		sp.XTickLabels = append(sp.XTickLabels, t.Label)
	}
	return sp, out, nil
}

// Bar is one bar of a histogram: its label and height.
type Bar struct {
	Label string
	Value float64
}

// Bars writes a PNG bar chart, one bar per entry, in order. The value
// axis starts at 0 with round ticks, whole numbers when every bar is one
// (counts), and the category axis is titled c.XLabel.
func Bars(w io.Writer, c Chart, bars []Bar) error {
	sp, err := barsSpec(c, bars)
	if err != nil {
		return err
	}
	width, height := sp.size()
	vals := make([]gochart.Value, len(bars))
	for i, b := range bars {
		vals[i] = gochart.Value{Label: b.Label, Value: b.Value, Style: gochart.Style{FillColor: color(0), StrokeColor: color(0)}}
	}
	bw := max(4, (width-120)/len(bars)-4)
	g := gochart.BarChart{
		Title:      sp.Title,
		Width:      width,
		Height:     height,
		BarWidth:   bw,
		BarSpacing: 4,
		Background: gochart.Style{Padding: gochart.Box{Top: 40, Left: 20, Right: 20, Bottom: 50}},
		YAxis: gochart.YAxis{Name: sp.YLabel, Range: &gochart.ContinuousRange{Min: sp.Y.Min, Max: sp.Y.Max},
			Ticks: tickLabels(sp.Y.Ticks)},
		Bars: vals,
	}
	if sp.XLabel != "" {
		g.Elements = []gochart.Renderable{xTitle(sp.XLabel)}
	}
	loadFont()
	if err := g.Render(gochart.PNG, w); err != nil {
		return fmt.Errorf("chart: render %q: %w", c.Title, err)
	}
	return nil
}

// barsSpec lays out a bar chart: a value axis from 0 (or below, for
// negative bars) to a round value above the tallest bar.
func barsSpec(c Chart, bars []Bar) (spec, error) {
	if len(bars) == 0 {
		return spec{}, ErrNoData
	}
	lo, hi, whole := 0.0, 0.0, true
	for _, b := range bars {
		if math.IsNaN(b.Value) || math.IsInf(b.Value, 0) {
			return spec{}, fmt.Errorf("chart: bar %q is not finite", b.Label)
		}
		lo, hi = math.Min(lo, b.Value), math.Max(hi, b.Value)
		whole = whole && b.Value == math.Trunc(b.Value)
	}
	if hi == lo {
		hi = lo + 1
	}
	y := layoutAxis(c.YRange, c.YTicks, lo, hi)
	if whole && c.YTicks == nil && len(y.Ticks) > 1 && y.Ticks[1]-y.Ticks[0] < 1 {
		y = layoutAxis(nil, NiceTicks(lo, math.Max(hi, lo+1), int(math.Max(hi, 1))), lo, hi)
	}
	return spec{Chart: c, Y: y}, nil
}

// xTitle draws an axis title centred under the plot, which go-chart's
// bar charts do not have.
func xTitle(text string) gochart.Renderable {
	return func(r gochart.Renderer, plot gochart.Box, defaults gochart.Style) {
		r.SetFont(defaults.GetFont())
		r.SetFontSize(10)
		r.SetFontColor(drawing.ColorBlack)
		tb := r.MeasureText(text)
		r.Text(text, plot.Left+(plot.Width()-tb.Width())/2, plot.Bottom+42)
	}
}

// Histogram writes a PNG histogram of values in about the given number of
// bins with round edges covering the values; each bar is labelled by its
// lower edge.
func Histogram(w io.Writer, c Chart, values []float64, bins int) error {
	bars, err := histogramBars(values, bins)
	if err != nil {
		return err
	}
	return Bars(w, c, bars)
}

// histogramBars counts values into bins between round edges (NiceTicks),
// so that labels read 0, 50, 100 rather than 5.71, 11.4.
func histogramBars(values []float64, bins int) ([]Bar, error) {
	if len(values) == 0 {
		return nil, ErrNoData
	}
	if bins <= 0 {
		bins = 10
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, errors.New("chart: histogram value is not finite")
		}
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	edges := NiceTicks(lo, hi, bins) // the top value counts in the last bin
	step := edges[1] - edges[0]
	labels := tickLabels(edges)
	bars := make([]Bar, len(edges)-1)
	for i := range bars {
		bars[i].Label = labels[i].Label
	}
	for _, v := range values {
		bars[min(len(bars)-1, int((v-edges[0])/step))].Value++
	}
	return bars, nil
}

// Reliability writes a reliability diagram: the observed frequency against
// the mean predicted probability per bin, with the diagonal of perfect
// calibration. Bins with no matches are left out.
func Reliability(w io.Writer, title string, meanP, observed []float64, counts []int) error {
	var s Series
	for i := range meanP {
		if i < len(counts) && counts[i] == 0 {
			continue
		}
		s.X = append(s.X, meanP[i])
		s.Y = append(s.Y, observed[i])
	}
	s.Name, s.Points, s.Line = "model", true, true
	tenths := []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1}
	c := Chart{Title: title, XLabel: "predicted P(team 1 wins)", YLabel: "observed team 1 win rate",
		Width: 640, Height: 640, XRange: &[2]float64{0, 1}, YRange: &[2]float64{0, 1}, XTicks: tenths, YTicks: tenths}
	diag := Series{Name: "perfect calibration", X: []float64{0, 1}, Y: []float64{0, 1}, Dashed: true}
	if len(s.X) == 0 {
		return ErrNoData
	}
	return Lines(w, c, diag, s)
}
