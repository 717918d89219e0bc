package ladder

import (
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// Division is a named band of the leaderboard: every rating at or above Min
// and below the next division's Min (docs/spec.md 4).
type Division struct {
	Name string  `json:"name"`
	Min  float64 `json:"min"`
}

// DefaultDivisions returns docs/spec.md 4's default divisions, lowest first:
// Bronze < 1400 ≤ Silver < 1550 ≤ Gold < 1700 ≤ Platinum < 1850 ≤ Diamond.
func DefaultDivisions() []Division {
	return []Division{
		{"Bronze", 0},
		{"Silver", 1400},
		{"Gold", 1550},
		{"Platinum", 1700},
		{"Diamond", 1850},
	}
}

// DivisionFor returns the name of the division of rating in divs (sorted by
// Min ascending), or "" when divs is empty.
func DivisionFor(divs []Division, rating float64) string {
	name := ""
	for _, d := range divs {
		if rating >= d.Min {
			name = d.Name
		}
	}
	if name == "" && len(divs) > 0 {
		name = divs[0].Name
	}
	return name
}

// DivisionRange returns the rating range [lo, hi) of the division named name
// (case-insensitive) in divs, and false when no division has that name.
func DivisionRange(divs []Division, name string) (lo, hi float64, ok bool) {
	for i, d := range divs {
		if strings.EqualFold(d.Name, name) {
			lo, hi = d.Min, 1e308
			if i == 0 {
				lo = -1e308
			}
			if i+1 < len(divs) {
				hi = divs[i+1].Min
			}
			return lo, hi, true
		}
	}
	return 0, 0, false
}

// validateDivisions checks that divs has names and strictly increasing bounds.
// MaxDivisions and MaxDivisionName bound a guild's divisions: Discord
// offers at most 25 choices in a menu or an autocomplete (/config roles
// division), that option takes at most 32 characters, and each division
// may become a role of its name.
const (
	MaxDivisions    = 25
	MaxDivisionName = 32
)

func validateDivisions(divs []Division) error {
	if len(divs) == 0 {
		return Errorf(CodeInvalid, "at least one division is needed")
	}
	if len(divs) > MaxDivisions {
		return Errorf(CodeInvalid, "at most %d divisions are allowed, not %d", MaxDivisions, len(divs))
	}
	if !slices.IsSortedFunc(divs, func(a, b Division) int {
		switch {
		case a.Min < b.Min:
			return -1
		case a.Min > b.Min:
			return 1
		}
		return 0
	}) {
		return Errorf(CodeInvalid, "divisions must be listed from the lowest rating up")
	}
	seen := map[string]bool{}
	for i, d := range divs {
		n := strings.ToLower(strings.TrimSpace(d.Name))
		if n == "" {
			return Errorf(CodeInvalid, "division %d has no name", i+1)
		}
		if k := utf8.RuneCountInString(d.Name); k > MaxDivisionName {
			return Errorf(CodeInvalid, "division name %q is %d characters long; at most %d are allowed", d.Name, k, MaxDivisionName)
		}
		if err := CheckText("division name", d.Name); err != nil {
			return err
		}
		if seen[n] {
			return Errorf(CodeInvalid, "division %q is listed twice", d.Name)
		}
		if math.IsNaN(d.Min) || math.IsInf(d.Min, 0) {
			// NaN would also pass the order check and could not be stored as JSON.
			return Errorf(CodeInvalid, "division %q must start at a finite rating", d.Name)
		}
		if i > 0 && d.Min == divs[i-1].Min {
			return Errorf(CodeInvalid, "divisions %q and %q start at the same rating", divs[i-1].Name, d.Name)
		}
		seen[n] = true
	}
	return nil
}
