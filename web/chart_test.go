package web

import (
	"encoding/xml"
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
			svg := string(ratingChartSVG(tt.points))
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
	svg := string(ratingChartSVG(pts))
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
