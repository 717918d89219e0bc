package chart

import (
	"bytes"
	"errors"
	"testing"
)

func TestPairedLines(t *testing.T) {
	var b bytes.Buffer
	pair := [2]Series{{Name: "a", X: []float64{0, 1}, Y: []float64{1, 2}}, {Name: "a true", X: []float64{0, 1}, Y: []float64{2, 2}, Dashed: true}}
	if err := PairedLines(&b, Chart{Title: "t"}, pair); err != nil || !bytes.HasPrefix(b.Bytes(), []byte("\x89PNG")) {
		t.Errorf("Got(PairedLines) = %v with %d bytes, want a PNG", err, b.Len())
	}
	if err := PairedLines(&b, Chart{}); !errors.Is(err, ErrNoData) {
		t.Errorf("Got(PairedLines()) = %v, want ErrNoData", err)
	}
	bad := [2]Series{{Name: "bad", X: []float64{0}, Y: nil}}
	if err := PairedLines(&b, Chart{}, bad); err == nil {
		t.Errorf("Got(PairedLines(mismatched)) = nil, want an error")
	}
}
