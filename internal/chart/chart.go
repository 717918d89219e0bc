package chart

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
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

func axisRange(r *[2]float64) gochart.Range {
	if r == nil {
		return nil
	}
	return &gochart.ContinuousRange{Min: r[0], Max: r[1]}
}

func ticks(values []float64) []gochart.Tick {
	if len(values) == 0 {
		return nil
	}
	out := make([]gochart.Tick, len(values))
	for i, v := range values {
		out[i] = gochart.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', 4, 64)}
	}
	return out
}

func (c Chart) frame(series []gochart.Series) gochart.Chart {
	w, h := c.size()
	g := gochart.Chart{
		Title:      c.Title,
		TitleStyle: gochart.Style{FontSize: 13},
		Width:      w,
		Height:     h,
		Background: gochart.Style{Padding: gochart.Box{Top: 50, Left: 20, Right: 20, Bottom: 20}},
		XAxis:      gochart.XAxis{Name: c.XLabel, Range: axisRange(c.XRange), Ticks: ticks(c.XTicks)},
		YAxis:      gochart.YAxis{Name: c.YLabel, Range: axisRange(c.YRange), Ticks: ticks(c.YTicks)},
		Series:     series,
	}
	if len(series) > 1 {
		// Inside the plot, top left.
		g.Elements = []gochart.Renderable{gochart.Legend(&g)}
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
	return lines(w, c, series, func(i int) int { return i })
}

// lines draws series i in colour colourOf(i).
func lines(w io.Writer, c Chart, series []Series, colourOf func(i int) int) error {
	var out []gochart.Series
	for i, s := range series {
		if err := checkSeries(s); err != nil {
			return err
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
	}
	if len(out) == 0 {
		return ErrNoData
	}
	return render(w, c.frame(out))
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
	var out []gochart.Series
	for i, s := range series {
		if len(s.T) != len(s.Y) {
			return fmt.Errorf("chart: series %q has %d times and %d values", s.Name, len(s.T), len(s.Y))
		}
		if len(s.T) == 0 {
			continue
		}
		st := gochart.Style{StrokeColor: color(i), DotColor: color(i), StrokeWidth: 2}
		if len(s.T) == 1 {
			st.DotWidth = 4
		}
		out = append(out, gochart.TimeSeries{Name: s.Name, XValues: s.T, YValues: s.Y, Style: st})
	}
	if len(out) == 0 {
		return ErrNoData
	}
	return render(w, c.frame(out))
}

// Bar is one bar of a histogram: its label and height.
type Bar struct {
	Label string
	Value float64
}

// Bars writes a PNG bar chart, one bar per entry, in order.
func Bars(w io.Writer, c Chart, bars []Bar) error {
	if len(bars) == 0 {
		return ErrNoData
	}
	width, height := c.size()
	vals := make([]gochart.Value, len(bars))
	for i, b := range bars {
		if math.IsNaN(b.Value) || math.IsInf(b.Value, 0) {
			return fmt.Errorf("chart: bar %q is not finite", b.Label)
		}
		vals[i] = gochart.Value{Label: b.Label, Value: b.Value, Style: gochart.Style{FillColor: color(0), StrokeColor: color(0)}}
	}
	bw := max(4, (width-120)/len(bars)-4)
	g := gochart.BarChart{
		Title:      c.Title,
		Width:      width,
		Height:     height,
		BarWidth:   bw,
		BarSpacing: 4,
		Background: gochart.Style{Padding: gochart.Box{Top: 40, Left: 20, Right: 20, Bottom: 20}},
		YAxis:      gochart.YAxis{Name: c.YLabel, Range: axisRange(c.YRange)},
		Bars:       vals,
	}
	loadFont()
	if err := g.Render(gochart.PNG, w); err != nil {
		return fmt.Errorf("chart: render %q: %w", c.Title, err)
	}
	return nil
}

// Histogram writes a PNG histogram of values in the given number of
// equal-width bins over [min, max] of the values.
func Histogram(w io.Writer, c Chart, values []float64, bins int) error {
	if len(values) == 0 {
		return ErrNoData
	}
	if bins <= 0 {
		bins = 10
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return errors.New("chart: histogram value is not finite")
		}
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if hi == lo {
		hi = lo + 1
	}
	counts := make([]float64, bins)
	step := (hi - lo) / float64(bins)
	for _, v := range values {
		counts[min(bins-1, int((v-lo)/step))]++
	}
	bars := make([]Bar, bins)
	for i := range bars {
		bars[i] = Bar{Label: fmt.Sprintf("%.3g", lo+step*float64(i)), Value: counts[i]}
	}
	return Bars(w, c, bars)
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
