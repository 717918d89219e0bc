package web

import (
	"fmt"
	"html/template"
	"math"
	"strconv"
	"strings"

	"github.com/ladderbot/ladderbot/ladder"
)

// Chart geometry in SVG user units; the SVG scales to its container's width.
const (
	chartW, chartH                 = 480, 260
	chartL, chartR, chartT, chartB = 48, 10, 12, 30
)

// ratingChartSVG draws a player's rating history as an inline SVG, server
// side, so the page needs no JavaScript: the shaded band is rating ± RD, the
// line the rating after each match, one circle per match with a <title> that
// browsers show on hover or long-press. Points are spaced by match index, not
// time, so a burst of games stays readable. An empty history draws a note.
func ratingChartSVG(points []ladder.HistoryPoint) template.HTML {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %d %d" role="img" aria-label="Rating history, %d matches" xmlns="http://www.w3.org/2000/svg">`,
		chartW, chartH, len(points))
	if len(points) == 0 {
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">No rated matches yet</text></svg>`, chartW/2, chartH/2)
		return template.HTML(b.String())
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range points {
		lo, hi = min(lo, p.Rating-p.RD), max(hi, p.Rating+p.RD)
	}
	lo, hi = niceFloor(lo), niceCeil(hi)
	if hi-lo < 100 {
		hi = lo + 100
	}
	x := func(i int) float64 {
		if len(points) == 1 {
			return (chartL + chartW - chartR) / 2
		}
		return chartL + float64(i)*float64(chartW-chartL-chartR)/float64(len(points)-1)
	}
	y := func(v float64) float64 {
		return chartT + (hi-v)*float64(chartH-chartT-chartB)/(hi-lo)
	}
	// Grid lines and labels every 100 (or 200, 500 when the range is wide).
	step := 100.0
	for (hi-lo)/step > 6 {
		step *= 2
	}
	for v := math.Ceil(lo/step) * step; v <= hi; v += step {
		fmt.Fprintf(&b, `<line class="grid" x1="%d" x2="%d" y1="%s" y2="%s"/>`, chartL, chartW-chartR, f1(y(v)), f1(y(v)))
		fmt.Fprintf(&b, `<text class="ylabel" x="%d" y="%s" text-anchor="end">%.0f</text>`, chartL-6, f1(y(v)+4), v)
	}
	// RD band: along the upper edge, back along the lower one.
	b.WriteString(`<polygon class="band" points="`)
	for i, p := range points {
		fmt.Fprintf(&b, "%s,%s ", f1(x(i)), f1(y(p.Rating+p.RD)))
	}
	for i := len(points) - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "%s,%s ", f1(x(i)), f1(y(points[i].Rating-points[i].RD)))
	}
	b.WriteString(`"/><polyline class="line" points="`)
	for i, p := range points {
		fmt.Fprintf(&b, "%s,%s ", f1(x(i)), f1(y(p.Rating)))
	}
	b.WriteString(`"/>`)
	for i, p := range points {
		fmt.Fprintf(&b, `<circle class="pt" cx="%s" cy="%s" r="3"><title>%s: %.1f ± %.1f</title></circle>`,
			f1(x(i)), f1(y(p.Rating)), template.HTMLEscapeString(pointLabel(p)), p.Rating, p.RD)
	}
	first, last := points[0].At, points[len(points)-1].At
	fmt.Fprintf(&b, `<text class="xlabel" x="%d" y="%d">%s</text>`, chartL, chartH-8, first.UTC().Format("2006-01-02"))
	fmt.Fprintf(&b, `<text class="xlabel" x="%d" y="%d" text-anchor="end">%s</text>`, chartW-chartR, chartH-8, last.UTC().Format("2006-01-02"))
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

func pointLabel(p ladder.HistoryPoint) string {
	if p.MatchID == 0 {
		return "adjustment " + p.At.UTC().Format("2006-01-02")
	}
	return "match #" + strconv.FormatInt(p.MatchID, 10) + " " + p.At.UTC().Format("2006-01-02")
}

func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

func niceFloor(v float64) float64 { return math.Floor(v/50) * 50 }
func niceCeil(v float64) float64  { return math.Ceil(v/50) * 50 }
