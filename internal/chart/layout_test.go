package chart

import (
	"fmt"
	"reflect"
	"testing"
)

func TestNiceTicks(t *testing.T) {
	tests := []struct {
		lo, hi float64
		n      int
		want   []float64
	}{
		{0, 29.85, 6, []float64{0, 5, 10, 15, 20, 25, 30}},
		{780, 2030, 6, []float64{500, 1000, 1500, 2000, 2500}},
		{9, 8221, 6, []float64{0, 2000, 4000, 6000, 8000, 10000}},
		{0.12, 0.87, 5, []float64{0, 0.2, 0.4, 0.6, 0.8, 1}},
		{1500, 1500, 4, []float64{1400, 1450, 1500, 1550, 1600}},
		{-3, 3, 6, []float64{-3, -2, -1, 0, 1, 2, 3}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%g..%g", tt.lo, tt.hi), func(t *testing.T) {
			if got := NiceTicks(tt.lo, tt.hi, tt.n); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Got(NiceTicks(%g, %g, %d)) = %v, want %v", tt.lo, tt.hi, tt.n, got, tt.want)
			}
		})
	}
	if got := tickLabels([]float64{0, 0.2, 0.4}); got[1].Label != "0.2" || got[2].Label != "0.4" {
		t.Errorf("Got(tickLabels tenths) = %v, want 0.2 and 0.4", got)
	}
	if got := tickLabels([]float64{500, 1000}); got[0].Label != "500" || got[1].Label != "1000" {
		t.Errorf("Got(tickLabels hundreds) = %v, want 500 and 1000, no decimals", got)
	}
}

// TestPairedLegend is the simulator's trajectories chart: eight pairs give
// a legend of the eight players, beside the plot, and round axes.
func TestPairedLegend(t *testing.T) {
	var pairs [][2]Series
	var want []string
	for i := range 8 {
		name := fmt.Sprintf("Player %d", i+1)
		want = append(want, name)
		pairs = append(pairs, [2]Series{
			{Name: name, X: []float64{0.3, 29.85}, Y: []float64{1500 + 40*float64(i), 1480}},
			{Name: name + " true", X: []float64{0.3, 29.85}, Y: []float64{780 + 150*float64(i), 780 + 150*float64(i)}, Dashed: true},
		})
	}
	sp, out, err := pairedSpec(Chart{Title: "t"}, pairs)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, e := range sp.Legend {
		got = append(got, e.Name)
		if e.Dashed || e.Color != color(i) {
			t.Errorf("Got(legend entry %d) = %+v, want solid in colour %d", i, e, i)
		}
	}
	if !reflect.DeepEqual(got, want) || len(out) != 16 {
		t.Errorf("Got(legend) = %q with %d lines, want %q with 16", got, len(out), want)
	}
	if x := (axis{0, 30, []float64{0, 5, 10, 15, 20, 25, 30}}); !reflect.DeepEqual(sp.X, x) {
		t.Errorf("Got(x axis) = %+v, want %+v", sp.X, x)
	}
	if sp.Y.Min != 600 || sp.Y.Max != 2000 || len(sp.Y.Ticks) != 8 {
		t.Errorf("Got(y axis) = %+v, want 600 to 2000 by 200", sp.Y)
	}
	g := sp.frame(out)
	if g.Background.Padding.Right < legendWidth(sp.Legend) || len(g.Elements) != 1 {
		t.Errorf("Got(frame) right padding %d and %d elements, want room for the legend (%d) and one legend", g.Background.Padding.Right, len(g.Elements), legendWidth(sp.Legend))
	}
}

// TestHistogramAxes is the simulator's waits chart: round bin edges as
// labels, a count axis from 0 with whole ticks, and the x title kept.
func TestHistogramAxes(t *testing.T) {
	values := []float64{9, 9, 12, 40, 41, 95, 517}
	bars, err := histogramBars(values, 20)
	if err != nil {
		t.Fatal(err)
	}
	if len(bars) != 11 || bars[0].Label != "0" || bars[1].Label != "50" || bars[10].Label != "500" {
		t.Errorf("Got(bins) = %+v, want 11 bins labelled 0, 50 … 500", bars)
	}
	if bars[0].Value != 5 || bars[1].Value != 1 || bars[10].Value != 1 || bars[5].Value != 0 {
		t.Errorf("Got(counts) = %+v, want 5 in [0,50), 1 in [50,100), 1 in [500,550]", bars)
	}
	sp, err := barsSpec(Chart{XLabel: "wait (s)", YLabel: "tickets"}, bars)
	if err != nil {
		t.Fatal(err)
	}
	if want := (axis{0, 5, []float64{0, 1, 2, 3, 4, 5}}); !reflect.DeepEqual(sp.Y, want) || sp.XLabel != "wait (s)" {
		t.Errorf("Got(bars spec) y %+v x title %q, want %+v and the title", sp.Y, sp.XLabel, want)
	}
	big, _ := barsSpec(Chart{}, []Bar{{"0", 8221}, {"50", 9}})
	if big.Y.Min != 0 || big.Y.Max != 10000 {
		t.Errorf("Got(large counts y axis) = %+v, want 0 to 10000", big.Y)
	}
}
