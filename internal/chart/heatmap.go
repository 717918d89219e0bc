package chart

import (
	"fmt"
	"image"
	imgcolor "image/color"
	"image/draw"
	"image/png"
	"io"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Heat is a grid of counts to draw as a heatmap: Rows × Cols cells,
// Values[r][c] the count of row r and column c. The texts are the
// caller's, in the reader's language.
type Heat struct {
	Title      string
	Rows, Cols []string
	Values     [][]int
	// ColEvery labels every n-th column (default 1).
	ColEvery int
	// Note is the line under the grid, such as what the darkest cell
	// holds (Top); "" for none.
	Note string
}

// Top is the largest count, the darkest cell's.
func (h Heat) Top() int {
	top := 0
	for _, row := range h.Values {
		for _, v := range row {
			top = maxInt(top, v)
		}
	}
	return top
}

// heatFont is Go Regular, whose glyphs cover the accented Latin letters
// of every catalog's weekday names and titles. A parsed font is safe for
// concurrent use; each drawing makes its own face, which is not.
var heatFont = func() *opentype.Font {
	f, err := opentype.Parse(goregular.TTF)
	if err != nil {
		panic("chart: the embedded Go font does not parse: " + err.Error())
	}
	return f
}()

// heatFontSize is the text size in pixels.
const heatFontSize = 12

// Heatmap cell and margin sizes in pixels.
const (
	heatCell   = 26
	heatLeft   = 44
	heatTop    = 30
	heatBottom = 40
	heatRight  = 12
)

// Heatmap draws h as a PNG: white for zero, deepening blue up to the
// largest count, each non-empty cell with its count, rows labelled on the
// left, columns below, and the note under them.
func Heatmap(w io.Writer, h Heat) error {
	if len(h.Rows) == 0 || len(h.Cols) == 0 || len(h.Values) != len(h.Rows) {
		return ErrNoData
	}
	top := 0
	for r, row := range h.Values {
		if len(row) != len(h.Cols) {
			return fmt.Errorf("chart: heatmap row %d has %d values, want %d", r, len(row), len(h.Cols))
		}
		for _, v := range row {
			if v < 0 {
				return fmt.Errorf("chart: heatmap count %d is negative", v)
			}
			top = maxInt(top, v)
		}
	}
	every := maxInt(h.ColEvery, 1)
	W := heatLeft + len(h.Cols)*heatCell + heatRight
	H := heatTop + len(h.Rows)*heatCell + heatBottom
	img := image.NewRGBA(image.Rect(0, 0, W, H))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	ink := imgcolor.RGBA{0x33, 0x33, 0x33, 0xff}
	face, err := opentype.NewFace(heatFont, &opentype.FaceOptions{Size: heatFontSize, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return fmt.Errorf("chart: heatmap font: %w", err)
	}
	defer face.Close()
	text := func(s string, x, y int, c imgcolor.Color) {
		d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: face, Dot: fixed.P(x, y)}
		d.DrawString(s)
	}
	width := func(s string) int { return font.MeasureString(face, s).Round() }
	// A line wider than the picture starts further left, then is cut
	// with an ellipsis, so it never runs off the edge.
	line := func(s string, x, y int) {
		room := W - heatRight
		if x+width(s) > room {
			x = heatRight
		}
		for x+width(s) > room && s != "" {
			r := []rune(s)
			s = string(r[:len(r)-1])
			if x+width(s+"…") <= room {
				s += "…"
				break
			}
		}
		text(s, x, y, ink)
	}
	line(h.Title, heatLeft, 18)
	grid := imgcolor.RGBA{0xdd, 0xdd, 0xdd, 0xff}
	for r, row := range h.Values {
		y0 := heatTop + r*heatCell
		text(h.Rows[r], maxInt(2, heatLeft-6-width(h.Rows[r])), y0+heatCell/2+4, ink)
		for c, v := range row {
			x0 := heatLeft + c*heatCell
			fill := imgcolor.RGBA{0xff, 0xff, 0xff, 0xff}
			if v > 0 && top > 0 {
				// 10% to 100% of the way from a pale to a deep blue.
				f := 0.1 + 0.9*float64(v)/float64(top)
				fill = imgcolor.RGBA{uint8(235 - f*(235-0x1f)), uint8(243 - f*(243-0x4e)), uint8(251 - f*(251-0x9a)), 0xff}
			}
			draw.Draw(img, image.Rect(x0+1, y0+1, x0+heatCell, y0+heatCell), image.NewUniform(fill), image.Point{}, draw.Src)
			draw.Draw(img, image.Rect(x0, y0, x0+heatCell+1, y0+1), image.NewUniform(grid), image.Point{}, draw.Src)
			draw.Draw(img, image.Rect(x0, y0, x0+1, y0+heatCell+1), image.NewUniform(grid), image.Point{}, draw.Src)
			if v > 0 {
				s := fmt.Sprint(v)
				c := imgcolor.Color(ink)
				if float64(v) > 0.55*float64(top) {
					c = imgcolor.White
				}
				text(s, x0+(heatCell-width(s))/2+1, y0+heatCell/2+5, c)
			}
		}
	}
	for c, name := range h.Cols {
		if c%every == 0 {
			x0 := heatLeft + c*heatCell
			text(name, x0+(heatCell-width(name))/2, heatTop+len(h.Rows)*heatCell+15, ink)
		}
	}
	if h.Note != "" {
		line(h.Note, heatLeft, H-8)
	}
	return png.Encode(w, img)
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// HeatmapSize is the size in pixels of a heatmap of rows × cols cells.
func HeatmapSize(rows, cols int) (w, h int) {
	return heatLeft + cols*heatCell + heatRight, heatTop + rows*heatCell + heatBottom
}
