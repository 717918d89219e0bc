package chart

import (
	"bytes"
	"errors"
	"image/png"
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
