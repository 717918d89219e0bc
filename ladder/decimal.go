package ladder

import (
	"strconv"
	"strings"
)

// ParseDecimal reads a number a person typed into a form: the machine
// form with a dot everywhere, and a decimal comma where it cannot be a
// thousands separator. Four of the five languages write 0,5, and a
// phone's decimal keyboard in those languages has no dot, so "0,5" and
// "1500,25" (one comma, no dot, not three digits after it) are 0.5 and
// 1500.25. "1,500" stays an error: in English it is 1500, in German 1.5,
// and a number read the wrong way round would change a rating silently.
func ParseDecimal(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if whole, frac, ok := strings.Cut(s, ","); ok && !strings.ContainsAny(s, ".") && !strings.Contains(frac, ",") && len(frac) != 3 {
		s = whole + "." + frac
	}
	return strconv.ParseFloat(s, 64)
}
