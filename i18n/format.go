package i18n

import (
	"math"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/number"
)

// Int formats a count with the language's digit grouping: 1,234 · 1.234 ·
// 1 234.
func (l *Lang) Int(n int) string { return l.printer.Sprint(number.Decimal(n)) }

// Number formats x with exactly decimals fraction digits and the language's
// decimal mark and grouping.
func (l *Lang) Number(x float64, decimals int) string {
	return l.printer.Sprint(number.Decimal(x, number.Scale(decimals)))
}

// Rating formats a rating or a deviation: no fraction, no grouping (players
// read 1500, never 1.500), so only the digits' shape is the language's.
func (l *Lang) Rating(x float64) string {
	return l.printer.Sprint(number.Decimal(math.Round(x), number.Scale(0), number.NoSeparator()))
}

// Signed formats a rating change with its sign and one decimal, ±0 when
// it rounds to nothing.
func (l *Lang) Signed(d float64) string {
	if math.Abs(d) < 0.05 {
		return "±0"
	}
	s := l.printer.Sprint(number.Decimal(math.Abs(d), number.Scale(1), number.NoSeparator()))
	if d < 0 {
		return "-" + s
	}
	return "+" + s
}

// Percent formats a probability (0.53) as the language writes a
// percentage: 53% · 53 % · 53 %.
func (l *Lang) Percent(p float64) string {
	return l.printer.Sprint(number.Percent(p, number.Scale(0)))
}

// Date formats the calendar day of t (in UTC) with the layout of the
// catalog's format.date.
func (l *Lang) Date(t time.Time) string { return t.UTC().Format(l.T("format.date")) }

// DateTime formats t (in UTC) with the layout of format.datetime.
func (l *Lang) DateTime(t time.Time) string { return t.UTC().Format(l.T("format.datetime")) }

// Duration formats d in words to the two largest units that are not
// zero, rounded to the second: "2 hours 5 minutes", "45 Sekunden".
func (l *Lang) Duration(d time.Duration) string {
	d = d.Round(time.Second)
	if d < 0 {
		d = -d
	}
	units := []struct {
		id   string
		size time.Duration
	}{
		{"unit.day", 24 * time.Hour}, {"unit.hour", time.Hour}, {"unit.minute", time.Minute}, {"unit.second", time.Second},
	}
	var parts []string
	for i, u := range units {
		n := int(d / u.size)
		d -= time.Duration(n) * u.size
		if n == 0 {
			continue
		}
		parts = append(parts, l.N(u.id, n))
		if i+1 < len(units) {
			// the next unit only, so "2 hours 5 minutes", never seconds too
			if m := int(d / units[i+1].size); m > 0 {
				parts = append(parts, l.N(units[i+1].id, m))
			}
		}
		break
	}
	if len(parts) == 0 {
		return l.N("unit.second", 0)
	}
	return strings.Join(parts, " ")
}

// PercentN is Percent with decimals fraction digits.
func (l *Lang) PercentN(p float64, decimals int) string {
	return l.printer.Sprint(number.Percent(p, number.Scale(decimals)))
}

// Float formats x with as many fraction digits as it needs (at most six):
// 0.5 · 0,5 · 12; the language's decimal mark, no grouping.
func (l *Lang) Float(x float64) string {
	s := strconv.FormatFloat(x, 'f', -1, 64)
	decimals := 0
	if i := strings.IndexByte(s, '.'); i >= 0 {
		decimals = min(len(s)-i-1, 6)
	}
	return l.printer.Sprint(number.Decimal(x, number.Scale(decimals), number.NoSeparator()))
}
