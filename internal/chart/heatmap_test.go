package chart

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHeatmap draws a week of hours and checks the picture: its size, an
// empty cell white, the busiest cell the darkest. Set CHART_OUT to keep
// the PNG to look at.
func TestHeatmap(t *testing.T) {
	days := []string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}
	hours := make([]string, 24)
	for i := range hours {
		hours[i] = string(rune('0'+i/10)) + string(rune('0'+i%10))
	}
	vals := make([][]int, 7)
	for d := range vals {
		vals[d] = make([]int, 24)
		for hr := 18; hr < 23; hr++ {
			vals[d][hr] = 3 * (hr - 17)
		}
	}
	vals[5][21] = 40
	var buf bytes.Buffer
	if err := Heatmap(&buf, Heat{Title: "Rated matches by hour (UTC)", Rows: days, Cols: hours, Values: vals, ColEvery: 3}); err != nil {
		t.Fatalf("Heatmap() = %v", err)
	}
	if dir := os.Getenv("CHART_OUT"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, "heatmap.png"), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatalf("png.Decode() = %v", err)
	}
	if b := img.Bounds(); b.Dx() != heatLeft+24*heatCell+heatRight || b.Dy() != heatTop+7*heatCell+heatBottom {
		t.Errorf("Got(size) = %v", b)
	}
	at := func(row, col int) (r, g, b uint32) {
		// A corner of the cell, clear of its number.
		r, g, b, _ = img.At(heatLeft+col*heatCell+3, heatTop+row*heatCell+3).RGBA()
		return
	}
	if r, g, b := at(0, 3); r != 0xffff || g != 0xffff || b != 0xffff {
		t.Errorf("Got(empty cell) = %x %x %x, want white", r, g, b)
	}
	dr, _, _ := at(5, 21)
	lr, _, _ := at(0, 18)
	if dr >= lr {
		t.Errorf("Got(busiest cell red %x) not darker than a quiet one (%x)", dr, lr)
	}
	if err := Heatmap(&buf, Heat{}); err != ErrNoData {
		t.Errorf("Heatmap(empty) = %v, want ErrNoData", err)
	}
	if err := Heatmap(&buf, Heat{Rows: []string{"a"}, Cols: []string{"x"}, Values: [][]int{{-1}}}); err == nil {
		t.Errorf("Heatmap(negative) = nil, want an error")
	}
}

// TestHeatmapAccents: the heatmap's font draws accented letters (the
// weekdays of Spanish and Portuguese, sáb), and a title too long for the
// picture is cut inside it.
func TestHeatmapAccents(t *testing.T) {
	draw := func(title, row string) []byte {
		t.Helper()
		var buf bytes.Buffer
		h := Heat{Title: title, Rows: []string{row}, Cols: []string{"00"}, Values: [][]int{{1}}, Note: "1"}
		if err := Heatmap(&buf, h); err != nil {
			t.Fatalf("Heatmap() = %v", err)
		}
		return buf.Bytes()
	}
	if bytes.Equal(draw("t", "sáb"), draw("t", "sab")) {
		t.Errorf("Got(sáb drawn like sab), want the accent drawn")
	}
	long := strings.Repeat("Partidas pontuadas por hora ", 10)
	img, err := png.Decode(bytes.NewReader(draw(long, "x")))
	if err != nil {
		t.Fatal(err)
	}
	w := img.Bounds().Dx()
	for x := w - heatRight + 2; x < w; x++ {
		for y := 0; y < heatTop; y++ {
			if r, g, b, _ := img.At(x, y).RGBA(); r != 0xffff || g != 0xffff || b != 0xffff {
				t.Fatalf("Got(ink at %d,%d), want the long title cut before the margin", x, y)
			}
		}
	}
}
