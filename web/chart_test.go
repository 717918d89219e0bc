package web

import (
	"encoding/xml"
	"github.com/ladderbot/ladderbot/i18n"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

func TestRatingChartSVG(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name        string
		points      []ladder.HistoryPoint
		wantCircles int
		wantText    []string
	}{
		{"empty", nil, 0, []string{"No rated matches yet"}},
		{"one match", []ladder.HistoryPoint{{MatchID: 7, At: t0, Rating: 1540.16, RD: 122.86}}, 1,
			[]string{"match #7 2026-03-01: 1540.2 ± 122.9", "2026-03-01"}},
		{"three with an adjustment", []ladder.HistoryPoint{
			{MatchID: 1, At: t0, Rating: 1540, RD: 122},
			{MatchID: 0, At: t0.Add(24 * time.Hour), Rating: 1800, RD: 60},
			{MatchID: 3, At: t0.Add(48 * time.Hour), Rating: 1790, RD: 58},
		}, 3, []string{"adjustment 2026-03-02", "match #3 2026-03-03", ">1800<"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svg := string(ratingChartSVG(i18n.English(), tt.points))
			// It must be well-formed XML: browsers drop a broken inline SVG.
			dec := xml.NewDecoder(strings.NewReader(svg))
			for {
				if _, err := dec.Token(); err != nil {
					if err.Error() != "EOF" {
						t.Fatalf("Got(ratingChartSVG) not well-formed: %v\n%s", err, svg)
					}
					break
				}
			}
			if got := strings.Count(svg, "<circle"); got != tt.wantCircles {
				t.Errorf("Got(circles) = %d, want %d", got, tt.wantCircles)
			}
			for _, want := range tt.wantText {
				if !strings.Contains(svg, want) {
					t.Errorf("Got(svg) lacks %q:\n%s", want, svg)
				}
			}
		})
	}
}

func TestRatingChartSVGStaysInsideTheViewBox(t *testing.T) {
	var pts []ladder.HistoryPoint
	for i := range 200 {
		pts = append(pts, ladder.HistoryPoint{MatchID: int64(i + 1), Rating: 1000 + float64(i*i%900), RD: float64(25 + i%300)})
	}
	svg := string(ratingChartSVG(i18n.English(), pts))
	for _, attr := range []struct {
		name string
		max  float64
	}{{`cx="`, chartW}, {`cy="`, chartH}} {
		for rest := svg; ; {
			i := strings.Index(rest, attr.name)
			if i < 0 {
				break
			}
			rest = rest[i+len(attr.name):]
			v, err := strconv.ParseFloat(rest[:strings.IndexByte(rest, '"')], 64)
			if err != nil || v < 0 || v > attr.max {
				t.Fatalf("Got(%s%v\") outside the %d×%d view box (%v)", attr.name, v, chartW, chartH, err)
			}
		}
	}
}

// TestRatingChartLayout checks the player chart's axes: round rating ticks
// over every rating ± RD, at most four dated match positions without a
// repeated date, a titled time axis, and a note when 200 of 555 matches show.
func TestRatingChartLayout(t *testing.T) {
	t0 := time.Date(2026, 1, 5, 20, 0, 0, 0, time.UTC)
	var pts []ladder.HistoryPoint
	for i := range 200 {
		pts = append(pts, ladder.HistoryPoint{MatchID: int64(356 + i), At: t0.Add(time.Duration(i) * 6 * time.Hour), Rating: 1400 + float64(i), RD: 60})
	}
	l := ratingChartLayout(pts)
	if l.YMin != 1300 || l.YMax != 1700 || !slices.Equal(l.YTicks, []float64{1300, 1400, 1500, 1600, 1700}) {
		t.Errorf("Got(y axis) = %v..%v ticks %v, want 1300..1700 by 100", l.YMin, l.YMax, l.YTicks)
	}
	want := []xTick{{0, "Jan 5"}, {66, "Jan 22"}, {132, "Feb 7"}, {199, "Feb 24"}}
	if !slices.Equal(l.XTicks, want) || l.XTitle != "matches, oldest to newest" {
		t.Errorf("Got(x axis) = %v %q, want %v and a title", l.XTicks, l.XTitle, want)
	}
	evening := []ladder.HistoryPoint{{MatchID: 1, At: t0, Rating: 1500, RD: 90}, {MatchID: 2, At: t0.Add(time.Hour), Rating: 1520, RD: 85}, {MatchID: 3, At: t0.Add(2 * time.Hour), Rating: 1510, RD: 80}}
	same := ratingChartLayout(evening) // three matches on one evening: one date
	if len(same.XTicks) != 1 || same.XTicks[0] != (xTick{0, "Jan 5"}) {
		t.Errorf("Got(x ticks of one evening) = %v, want one Jan 5", same.XTicks)
	}
	if got := historyNote(i18n.English(), pts, 555); got != "The chart shows the last 200 of 555 matches." {
		t.Errorf("Got(historyNote 200 of 555) = %q", got)
	}
	if got := historyNote(i18n.English(), pts, 200); got != "" {
		t.Errorf("Got(historyNote of the whole history) = %q, want none", got)
	}
	svg := string(ratingChartSVG(i18n.English(), pts))
	for _, w := range []string{">Jan 22</text>", `class="xtitle"`, ">matches, oldest to newest</text>", ">1700</text>"} {
		if !strings.Contains(svg, w) {
			t.Errorf("Got(svg) lacks %q", w)
		}
	}
}
