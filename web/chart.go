package web

import (
	"fmt"
	"html"
	"html/template"
	"math"
	"strconv"
	"strings"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// Chart geometry in SVG user units; the SVG scales to its container's width.
const (
	chartW, chartH                 = 480, 260
	chartL, chartR, chartT, chartB = 48, 10, 12, 44
)

// chartLayout is the player chart's axes as drawn, kept apart from the SVG
// so tests check ranges and ticks rather than markup.
type chartLayout struct {
	YMin, YMax float64
	YTicks     []float64
	// XTicks are match positions (0 is the oldest point shown) with the
	// date of that match; at most four, none repeating its neighbour's date.
	XTicks []xTick
	XTitle string
}

type xTick struct {
	Index int
	Label string
}

// xTitle names the time axis: points are spaced by match, not by time.
const xTitle = "matches, oldest to newest"

// ratingChartLayout picks the axes for points (not empty): a rating range
// in round 50s covering every rating ± RD, labelled every 100 (200, 400
// when wide), and a few dated positions along the matches.
func ratingChartLayout(points []ladder.HistoryPoint) chartLayout {
	return chartLayoutWith(points, "Jan 2", "Jan 2006", xTitle)
}

// chartLayoutIn is ratingChartLayout with its dates and axis title in
// language lang (the catalog's format.day_month, format.month_year and
// web.chart_axis).
func chartLayoutIn(lang *i18n.Lang, points []ladder.HistoryPoint) chartLayout {
	return chartLayoutWith(points, lang.T("format.day_month"), lang.T("format.month_year"), lang.T("web.chart_axis"))
}

func chartLayoutWith(points []ladder.HistoryPoint, dayFormat, yearFormat, title string) chartLayout {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range points {
		lo, hi = min(lo, p.Rating-p.RD), max(hi, p.Rating+p.RD)
	}
	lo, hi = niceFloor(lo), niceCeil(hi)
	if hi-lo < 100 {
		hi = lo + 100
	}
	l := chartLayout{YMin: lo, YMax: hi, XTitle: title}
	step := 100.0
	for (hi-lo)/step > 6 {
		step *= 2
	}
	for v := math.Ceil(lo/step) * step; v <= hi; v += step {
		l.YTicks = append(l.YTicks, v)
	}
	n := len(points)
	format := dayFormat
	if points[0].At.UTC().Year() != points[n-1].At.UTC().Year() {
		format = yearFormat
	}
	last := ""
	for k := range min(n, 4) {
		i := 0
		if n > 1 {
			i = k * (n - 1) / max(min(n, 4)-1, 1)
		}
		label := points[i].At.UTC().Format(format)
		if label == last {
			continue
		}
		last = label
		l.XTicks = append(l.XTicks, xTick{Index: i, Label: label})
	}
	return l
}

// historyNote says when the chart shows only the latest points of a longer
// history (the page asks for 200): "" when it shows every match.
func historyNote(l *i18n.Lang, points []ladder.HistoryPoint, games int) string {
	matches := 0
	for _, p := range points {
		if p.MatchID != 0 {
			matches++
		}
	}
	if games <= matches {
		return ""
	}
	return l.T("web.chart_note", "Shown", l.Int(matches), "Games", l.Int(games))
}

// ratingChartSVG draws a player's rating history as an inline SVG, server
// side, so the page needs no JavaScript: the shaded band is rating ± RD, the
// line the rating after each match, one circle per match with a <title> that
// browsers show on hover or long-press. Points are spaced by match index, not
// time, so a burst of games stays readable. An empty history draws a note.
func ratingChartSVG(lang *i18n.Lang, points []ladder.HistoryPoint) template.HTML {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %d %d" role="img" aria-label="%s" xmlns="http://www.w3.org/2000/svg">`,
		chartW, chartH, html.EscapeString(lang.N("web.chart_label", len(points))))
	if len(points) == 0 {
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%s</text></svg>`, chartW/2, chartH/2, html.EscapeString(lang.T("web.chart_empty")))
		return template.HTML(b.String())
	}
	l := chartLayoutIn(lang, points)
	lo, hi := l.YMin, l.YMax
	x := func(i int) float64 {
		if len(points) == 1 {
			return (chartL + chartW - chartR) / 2
		}
		return chartL + float64(i)*float64(chartW-chartL-chartR)/float64(len(points)-1)
	}
	y := func(v float64) float64 {
		return chartT + (hi-v)*float64(chartH-chartT-chartB)/(hi-lo)
	}
	for _, v := range l.YTicks {
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
			f1(x(i)), f1(y(p.Rating)), template.HTMLEscapeString(pointLabel(lang, p)), p.Rating, p.RD)
	}
	for k, t := range l.XTicks {
		anchor := "middle"
		switch {
		case len(points) == 1:
		case k == 0:
			anchor = "start"
		case t.Index == len(points)-1:
			anchor = "end"
		}
		fmt.Fprintf(&b, `<text class="xlabel" x="%s" y="%d" text-anchor="%s">%s</text>`, f1(x(t.Index)), chartH-chartB+18, anchor, html.EscapeString(t.Label))
	}
	fmt.Fprintf(&b, `<text class="xtitle" x="%d" y="%d" text-anchor="middle">%s</text>`, (chartL+chartW-chartR)/2, chartH-4, html.EscapeString(l.XTitle))
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

func pointLabel(lang *i18n.Lang, p ladder.HistoryPoint) string {
	if p.MatchID == 0 {
		return lang.T("web.point_adjustment", "Date", lang.Date(p.At))
	}
	return lang.T("web.point_match", "ID", p.MatchID, "Date", lang.Date(p.At))
}

func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

func niceFloor(v float64) float64 { return math.Floor(v/50) * 50 }
func niceCeil(v float64) float64  { return math.Ceil(v/50) * 50 }
