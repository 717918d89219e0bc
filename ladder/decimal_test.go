package ladder

import "testing"

// TestParseDecimal: a decimal comma is read where it cannot be a
// thousands separator; the rest is strconv.ParseFloat's.
func TestParseDecimal(t *testing.T) {
	for in, want := range map[string]float64{"0.5": 0.5, " 0,5 ": 0.5, "1500,25": 1500.25, "-0,75": -0.75, "1500": 1500, "1500.0": 1500, "0,5000": 0.5, "1e3": 1000} {
		if got, err := ParseDecimal(in); err != nil || got != want {
			t.Errorf("ParseDecimal(%q) = %v, %v, want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"1,500", "0,500", "1.500,5", "1,5,0", ",", "", "abc", "0,5x"} {
		if got, err := ParseDecimal(in); err == nil {
			t.Errorf("ParseDecimal(%q) = %v, want an error", in, got)
		}
	}
}
