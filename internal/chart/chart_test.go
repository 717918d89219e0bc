package chart

import (
	"bytes"
	"errors"
	"image"
	"image/png"
	"math"
	"testing"
	"time"
)

// decode checks that buf is a PNG of the given size that draws something
// besides the background.
func decode(t *testing.T, buf *bytes.Buffer, w, h int) image.Image {
	t.Helper()
	img, err := png.Decode(buf)
	if err != nil {
		t.Fatalf("Got(png.Decode) error %v, want a PNG", err)
	}
	if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
		t.Errorf("Got(size) = %dx%d, want %dx%d", b.Dx(), b.Dy(), w, h)
	}
	colors := map[[4]uint32]bool{}
	for y := 0; y < img.Bounds().Dy(); y += 3 {
		for x := 0; x < img.Bounds().Dx(); x += 3 {
			r, g, b, a := img.At(x, y).RGBA()
			colors[[4]uint32{r, g, b, a}] = true
		}
	}
	if len(colors) < 3 {
		t.Errorf("Got(%d distinct colours), want a drawn chart", len(colors))
	}
	return img
}

func TestCharts(t *testing.T) {
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		draw func(*bytes.Buffer) error
		w, h int
	}{
		{"lines", func(b *bytes.Buffer) error {
			return Lines(b, Chart{Title: "t", XLabel: "x", YLabel: "y"},
				Series{Name: "a", X: []float64{0, 1, 2}, Y: []float64{1, 3, 2}},
				Series{Name: "b", X: []float64{0, 2}, Y: []float64{2, 2}, Dashed: true})
		}, 800, 480},
		{"scatter", func(b *bytes.Buffer) error {
			return Scatter(b, Chart{Width: 300, Height: 200}, Series{Name: "a", X: []float64{0, 1, 2}, Y: []float64{1, 3, 2}})
		}, 300, 200},
		{"time lines", func(b *bytes.Buffer) error {
			return TimeLines(b, Chart{Title: "rating"}, TimeSeries{Name: "p", T: []time.Time{day, day.AddDate(0, 0, 3), day.AddDate(0, 1, 0)}, Y: []float64{1500, 1540, 1510}})
		}, 800, 480},
		{"histogram", func(b *bytes.Buffer) error {
			return Histogram(b, Chart{Title: "waits", YLabel: "matches"}, []float64{1, 2, 2, 3, 3, 3, 10}, 5)
		}, 800, 480},
		{"reliability", func(b *bytes.Buffer) error {
			return Reliability(b, "calibration", []float64{0.15, 0.35, 0.5, 0.8}, []float64{0.2, 0.3, 0.55, 0.7}, []int{5, 7, 0, 9})
		}, 640, 640},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := tt.draw(&buf); err != nil {
				t.Fatalf("Got(draw) error %v, want nil", err)
			}
			decode(t, &buf, tt.w, tt.h)
		})
	}
}

func TestChartErrors(t *testing.T) {
	var buf bytes.Buffer
	if err := Lines(&buf, Chart{}); !errors.Is(err, ErrNoData) {
		t.Errorf("Got(Lines no series) = %v, want ErrNoData", err)
	}
	if err := Lines(&buf, Chart{}, Series{X: []float64{1}, Y: []float64{1, 2}}); err == nil {
		t.Error("Got(Lines mismatched) = nil, want an error")
	}
	if err := Lines(&buf, Chart{}, Series{X: []float64{1}, Y: []float64{math.NaN()}}); err == nil {
		t.Error("Got(Lines NaN) = nil, want an error")
	}
	if err := Histogram(&buf, Chart{}, nil, 5); !errors.Is(err, ErrNoData) {
		t.Errorf("Got(Histogram empty) = %v, want ErrNoData", err)
	}
	if err := Reliability(&buf, "", []float64{0.5}, []float64{0.5}, []int{0}); !errors.Is(err, ErrNoData) {
		t.Errorf("Got(Reliability empty bins) = %v, want ErrNoData", err)
	}
}
