package joins

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // time zones by name even where the system has no zoneinfo

	"github.com/ladderbot/ladderbot/ladder"
)

// Window is one stretch of open hours on some days of the week: from
// Start to End minutes after local midnight; an End at or before Start
// runs past midnight into the next day.
type Window struct {
	Days       [7]bool // indexed by time.Weekday
	Start, End int     // minutes, 0..1440
}

// Hours are a queue's open hours: windows in a time zone. No windows is
// always open.
type Hours struct {
	Windows []Window
	Loc     *time.Location
}

// MaxWindows bounds how many windows one queue's hours hold.
const MaxWindows = 14

var dayNames = []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}

// ParseHours reads open hours as /config queue schedule takes them:
// windows separated by ';', each "DAYS HH:MM-HH:MM" where DAYS is '*'
// (or left out) for every day, or days and day ranges such as
// "mon-fri" or "sat,sun"; an end at or before the start runs past
// midnight. "" or "off" is no schedule (always open). tz is an IANA time
// zone such as "Europe/Berlin"; "" is UTC.
func ParseHours(text, tz string) (Hours, error) {
	loc, err := ParseTimeZone(tz)
	if err != nil {
		return Hours{}, err
	}
	h := Hours{Loc: loc}
	text = strings.TrimSpace(text)
	if text == "" || strings.EqualFold(text, "off") {
		return h, nil
	}
	for part := range strings.SplitSeq(text, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		w, err := parseWindow(part)
		if err != nil {
			return Hours{}, err
		}
		h.Windows = append(h.Windows, w)
	}
	if len(h.Windows) > MaxWindows {
		return Hours{}, ladder.Errorf(ladder.CodeInvalid, "hours may hold at most %d windows, not %d", MaxWindows, len(h.Windows))
	}
	return h, nil
}

// ParseTimeZone reads an IANA time zone name; "" is UTC.
func ParseTimeZone(tz string) (*time.Location, error) {
	tz = strings.TrimSpace(tz)
	if tz == "" {
		return time.UTC, nil
	}
	if strings.EqualFold(tz, "local") {
		return nil, ladder.Errorf(ladder.CodeInvalid, "timezone must be a place like Europe/Berlin, not %q", tz)
	}
	loc, err := time.LoadLocation(tz)
	if err != nil {
		return nil, ladder.Errorf(ladder.CodeInvalid, "timezone must be a time zone like Europe/Berlin or America/New_York, not %q", tz)
	}
	return loc, nil
}

func parseWindow(s string) (Window, error) {
	fields := strings.Fields(s)
	var w Window
	var span string
	switch len(fields) {
	case 1:
		span = fields[0]
		for d := range w.Days {
			w.Days[d] = true
		}
	case 2:
		days, err := parseDays(fields[0])
		if err != nil {
			return Window{}, err
		}
		w.Days, span = days, fields[1]
	default:
		return Window{}, ladder.Errorf(ladder.CodeInvalid, "%q is not a window: write DAYS HH:MM-HH:MM, e.g. mon-fri 18:00-23:00", s)
	}
	from, to, ok := strings.Cut(span, "-")
	if !ok {
		return Window{}, ladder.Errorf(ladder.CodeInvalid, "%q is not a time span: write HH:MM-HH:MM, e.g. 18:00-23:00", span)
	}
	var err error
	if w.Start, err = parseClock(from); err != nil {
		return Window{}, err
	}
	if w.End, err = parseClock(to); err != nil {
		return Window{}, err
	}
	if w.Start == 1440 {
		return Window{}, ladder.Errorf(ladder.CodeInvalid, "a window cannot start at 24:00; start it at 00:00")
	}
	if w.Start == w.End {
		return Window{}, ladder.Errorf(ladder.CodeInvalid, "the window %q is empty: its start and end are the same", s)
	}
	return w, nil
}

func parseDays(s string) ([7]bool, error) {
	var days [7]bool
	if s == "*" || strings.EqualFold(s, "daily") {
		for d := range days {
			days[d] = true
		}
		return days, nil
	}
	for part := range strings.SplitSeq(strings.ToLower(s), ",") {
		from, to, isRange := strings.Cut(part, "-")
		a := slices.Index(dayNames, from)
		b := a
		if isRange {
			b = slices.Index(dayNames, to)
		}
		if a < 0 || b < 0 {
			return days, ladder.Errorf(ladder.CodeInvalid, "%q is not a day: use mon, tue, wed, thu, fri, sat, sun, ranges like mon-fri, or *", part)
		}
		for d := a; ; d = (d + 1) % 7 {
			days[d] = true
			if d == b {
				break
			}
		}
	}
	return days, nil
}

func parseClock(s string) (int, error) {
	hh, mm, ok := strings.Cut(strings.TrimSpace(s), ":")
	h, err1 := strconv.Atoi(hh)
	m, err2 := strconv.Atoi(mm)
	if !ok || err1 != nil || err2 != nil || len(mm) != 2 || h < 0 || m < 0 || m > 59 || h > 24 || h == 24 && m != 0 {
		return 0, ladder.Errorf(ladder.CodeInvalid, "%q is not a time of day: write HH:MM from 00:00 to 24:00", s)
	}
	return h*60 + m, nil
}

// String writes the hours back as ParseHours reads them; "" when always open.
func (h Hours) String() string {
	parts := make([]string, len(h.Windows))
	for i, w := range h.Windows {
		parts[i] = fmt.Sprintf("%s %02d:%02d-%02d:%02d", daysText(w.Days), w.Start/60, w.Start%60, w.End/60, w.End%60)
	}
	return strings.Join(parts, "; ")
}

func daysText(days [7]bool) string {
	if !slices.Contains(days[:], false) {
		return "*"
	}
	return strings.Join(dayParts(days, func(d int) string { return dayNames[d] },
		func(from, to string) string { return from + "-" + to }), ",")
}

// dayParts lists the days set, Monday first as people write weeks, each
// by name, runs of three or more as one range.
func dayParts(days [7]bool, name func(int) string, span func(from, to string) string) []string {
	var parts []string
	order := []int{1, 2, 3, 4, 5, 6, 0}
	for i := 0; i < len(order); {
		if !days[order[i]] {
			i++
			continue
		}
		j := i
		for j+1 < len(order) && days[order[j+1]] {
			j++
		}
		if j-i >= 2 {
			parts = append(parts, span(name(order[i]), name(order[j])))
		} else {
			for k := i; k <= j; k++ {
				parts = append(parts, name(order[k]))
			}
		}
		i = j + 1
	}
	return parts
}

// Scheduled reports whether the hours restrict the queue at all.
func (h Hours) Scheduled() bool { return len(h.Windows) > 0 }

// span is one open stretch in absolute time.
type span struct{ from, to time.Time }

// spans are the open stretches that touch [t−1 day, t+8 days], merged
// where they overlap or meet, in order.
func (h Hours) spans(t time.Time) []span {
	loc := h.Loc
	if loc == nil {
		loc = time.UTC
	}
	lt := t.In(loc)
	var out []span
	for off := -1; off <= 8; off++ {
		y, m, d := lt.AddDate(0, 0, off).Date()
		wd := time.Date(y, m, d, 12, 0, 0, 0, loc).Weekday()
		for _, w := range h.Windows {
			if !w.Days[wd] {
				continue
			}
			from := time.Date(y, m, d, w.Start/60, w.Start%60, 0, 0, loc)
			endDay := d
			if w.End <= w.Start {
				endDay++
			}
			to := time.Date(y, m, endDay, w.End/60, w.End%60, 0, 0, loc)
			if to.After(from) {
				out = append(out, span{from, to})
			}
		}
	}
	slices.SortFunc(out, func(a, b span) int { return a.from.Compare(b.from) })
	merged := out[:0]
	for _, s := range out {
		if n := len(merged); n > 0 && !s.from.After(merged[n-1].to) {
			if s.to.After(merged[n-1].to) {
				merged[n-1].to = s.to
			}
			continue
		}
		merged = append(merged, s)
	}
	return merged
}

// week bounds how far ahead At looks for a change.
const week = 7 * 24 * time.Hour

// State is whether the queue is open at a time and when that changes.
type State struct {
	Open bool
	// Next is when the queue next opens (closed) or closes (open); zero
	// when it does not change within a week.
	Next time.Time
}

// At returns the queue's state at t.
func (h Hours) At(t time.Time) State {
	if !h.Scheduled() {
		return State{Open: true}
	}
	for _, s := range h.spans(t) {
		if !t.Before(s.from) && t.Before(s.to) {
			if s.to.Sub(t) > week {
				// Open all week (every hour of every day): no close ahead
				// that the horizon can see.
				return State{Open: true}
			}
			return State{Open: true, Next: s.to}
		}
		if s.from.After(t) {
			return State{Next: s.from}
		}
	}
	return State{}
}

// Local is t as the queue's players read it in the hours' zone, e.g.
// "Mon 18:00 Europe/Berlin": a message's data or an error's argument that
// words its weekday in the reader's language.
func (h Hours) Local(t time.Time) LocalTime {
	loc := h.Loc
	if loc == nil {
		loc = time.UTC
	}
	return LocalTime{At: t.In(loc)}
}

// Zone is the name of the hours' time zone, "UTC" when none is set.
func (h Hours) Zone() string {
	if h.Loc == nil {
		return time.UTC.String()
	}
	return h.Loc.String()
}

// LocalTime is a time in a queue's zone, shown with its weekday, clock and
// zone. It is an i18n.Phrased (weekday.*, hours.at); String is the
// English text for logs.
type LocalTime struct{ At time.Time }

// String is the time in English, "Mon 18:00 Europe/Berlin".
func (t LocalTime) String() string {
	return t.At.Format("Mon 15:04") + " " + t.At.Location().String()
}

// Phrase words the time with tr, a catalog's renderer.
func (t LocalTime) Phrase(tr func(id string, kv ...any) string) string {
	return tr("hours.at", "Day", tr(dayKeys[t.At.Weekday()]), "Time", t.At.Format("15:04"), "Zone", t.At.Location().String())
}

// dayKeys are the catalog IDs of the weekdays' short names, by
// time.Weekday.
var dayKeys = [7]string{"weekday.sun", "weekday.mon", "weekday.tue", "weekday.wed", "weekday.thu", "weekday.fri", "weekday.sat"}

// WeekdayKey is the catalog ID of a weekday's short name ("Mon", "Mo").
func WeekdayKey(d time.Weekday) string { return dayKeys[d] }

// Phrase words the hours for people with tr, a catalog's renderer: the
// windows with the weekdays' short names in the reader's language,
// Monday first, e.g. "Mon–Fri 18:00–23:00; Sat, Sun 12:00–23:00" (the
// zone is Loc's to say). String stays the setting's own syntax.
func (h Hours) Phrase(tr func(id string, kv ...any) string) string {
	if !h.Scheduled() {
		return tr("hours.always")
	}
	parts := make([]string, len(h.Windows))
	for i, w := range h.Windows {
		parts[i] = tr("hours.window", "Days", daysPhrase(w.Days, tr),
			"From", fmt.Sprintf("%02d:%02d", w.Start/60, w.Start%60), "To", fmt.Sprintf("%02d:%02d", w.End/60, w.End%60))
	}
	return strings.Join(parts, "; ")
}

// daysPhrase is daysText for people: "every day", or the days' short
// names Monday first with runs of three or more as ranges.
func daysPhrase(days [7]bool, tr func(id string, kv ...any) string) string {
	if !slices.Contains(days[:], false) {
		return tr("hours.every_day")
	}
	return strings.Join(dayParts(days, func(d int) string { return tr(dayKeys[d]) },
		func(from, to string) string { return tr("hours.days", "From", from, "To", to) }), ", ")
}
