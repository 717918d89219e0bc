package ladder

import (
	"strconv"
	"strings"
)

// ParseDivisions reads "Name:min, Name:min, …", lowest first: the list of
// /config divisions and of the dashboard's settings form.
func ParseDivisions(s string) ([]Division, error) {
	var out []Division
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, min, ok := strings.Cut(part, ":")
		v, err := strconv.ParseFloat(strings.TrimSpace(min), 64)
		if !ok || err != nil || strings.TrimSpace(name) == "" {
			return nil, Errorf(CodeInvalid, "division %q: write Name:minimum, as in Gold:1550", part)
		}
		out = append(out, Division{Name: strings.TrimSpace(name), Min: v})
	}
	return out, nil
}

// FormatDivisions writes divisions as ParseDivisions reads them.
func FormatDivisions(ds []Division) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = d.Name + ":" + strconv.FormatFloat(d.Min, 'g', -1, 64)
	}
	return strings.Join(parts, ", ")
}

// ParseSeasonSchedule reads /config season's schedule: a 5-field cron
// expression, or "off" (or nothing) for seasons moderators end by hand.
// The expression itself is checked when the guild is stored.
func ParseSeasonSchedule(s string) string {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, "off") {
		return ""
	}
	return s
}
