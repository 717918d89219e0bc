package chart

import (
	"bytes"
	"errors"
	"image/png"
	"slices"
	"testing"
	"time"
)

func TestHistoryPNG(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		at      []time.Time
		ys      []float64
		wantErr error
	}{
		{name: "one point", at: []time.Time{t0}, ys: []float64{1500}},
		{name: "a history", at: []time.Time{t0, t0.Add(time.Hour), t0.Add(48 * time.Hour)}, ys: []float64{1500, 1540, 1521}},
		{name: "flat", at: []time.Time{t0, t0.Add(time.Hour)}, ys: []float64{1500, 1500}},
		{name: "empty", wantErr: ErrNoData},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := HistoryPNG("alice", tc.at, tc.ys)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("Got(err) = %v, want %v", err, tc.wantErr)
			}
			if tc.wantErr != nil {
				return
			}
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatalf("Got(png.Decode) error = %v, want a PNG", err)
			}
			if got := img.Bounds().Dx(); got != 800 {
				t.Errorf("Got(width) = %d, want 800", got)
			}
		})
	}
}

// TestHistoryTimeTicks checks the date ticks of the profile chart's time
// axis: present on the chart go-chart draws, on round calendar
// boundaries labelled for the span, distinct, and covering the history.
func TestHistoryTimeTicks(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	cases := []struct {
		name        string
		first, last time.Time
		want        []string // the labels, or nil to check only the rules
	}{
		{"six months", at("2025-03-14T18:00:00Z"), at("2025-09-14T10:00:00Z"),
			[]string{"Mar 2025", "Apr 2025", "May 2025", "Jun 2025", "Jul 2025", "Aug 2025", "Sep 2025", "Oct 2025"}},
		{"three days", at("2025-03-14T18:00:00Z"), at("2025-03-17T20:00:00Z"),
			[]string{"Mar 14 12:00", "Mar 15 00:00", "Mar 15 12:00", "Mar 16 00:00", "Mar 16 12:00", "Mar 17 00:00", "Mar 17 12:00", "Mar 18 00:00"}},
		{"three weeks over New Year", at("2025-12-20T00:00:00Z"), at("2026-01-09T00:00:00Z"),
			[]string{"Dec 15 2025", "Dec 22 2025", "Dec 29 2025", "Jan 5 2026", "Jan 12 2026"}},
		{"ten years", at("2016-05-01T00:00:00Z"), at("2026-02-01T00:00:00Z"),
			[]string{"2016", "2018", "2020", "2022", "2024", "2026", "2028"}},
		{"twenty minutes", at("2026-01-01T10:03:00Z"), at("2026-01-01T10:23:00Z"), nil},
		{"one instant", at("2026-01-01T10:03:00Z"), at("2026-01-01T10:03:00Z"), nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts := []time.Time{tc.first, tc.last}
			sp, out, err := timeLinesSpec(historyChart("x", ts, []float64{1500, 1520}), []TimeSeries{{Name: "rating", T: ts, Y: []float64{1500, 1520}}})
			if err != nil {
				t.Fatal(err)
			}
			g := sp.frame(out)
			var labels []string
			for _, tk := range g.XAxis.Ticks {
				labels = append(labels, tk.Label)
			}
			if len(labels) < 2 || len(labels) > maxTimeTicks {
				t.Fatalf("Got(%d date ticks) = %q, want 2 to %d", len(labels), labels, maxTimeTicks)
			}
			if tc.want != nil && !slices.Equal(labels, tc.want) {
				t.Errorf("Got(date ticks) = %q, want %q", labels, tc.want)
			}
			seen := map[string]bool{}
			for i, l := range labels {
				if l == "" || seen[l] {
					t.Errorf("Got(date tick %d) = %q, want a distinct label", i, l)
				}
				seen[l] = true
			}
			lo, hi := g.XAxis.Ticks[0].Value, g.XAxis.Ticks[len(labels)-1].Value
			if lo > float64(tc.first.UnixNano()) || hi < float64(tc.last.UnixNano()) || g.XAxis.Range.GetMin() != lo || g.XAxis.Range.GetMax() != hi {
				t.Errorf("Got(x axis %v…%v, ticks %v…%v), want ticks covering the history and the axis between them", g.XAxis.Range.GetMin(), g.XAxis.Range.GetMax(), lo, hi)
			}
		})
	}
}
