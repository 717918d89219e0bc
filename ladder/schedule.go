package ladder

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Schedule is a parsed season schedule: five cron fields (minute, hour,
// day of month, month, day of week), read in UTC the way the jobs' cron
// library reads them — lists, ranges a-b, steps /n, * and ?, month and
// weekday names; a day matches the day-of-month field AND the day-of-week
// field when either is * or ?, and either of them otherwise.
type Schedule struct {
	// minute … weekday are bit sets of the values each field allows.
	minute, hour, day, month, weekday uint64
	// anyDay and anyWeekday record a field that began with * or ?.
	anyDay, anyWeekday bool
}

// scheduleHorizon is how far ahead Next looks, as the jobs' cron library
// does: a schedule that fires less often than this is treated as never.
const scheduleHorizon = 5

// ParseSchedule reads a 5-field season schedule. A schedule that can never
// fire — the 30th of February, the 31st of April — is refused as well as a
// malformed one: the season would simply never roll over.
func ParseSchedule(spec string) (Schedule, error) {
	fields := strings.Fields(spec)
	if len(fields) != 5 {
		return Schedule{}, Errorf(CodeInvalid, "season schedule %q must be a 5-field cron expression or empty", spec)
	}
	var s Schedule
	sets := [5]*uint64{&s.minute, &s.hour, &s.day, &s.month, &s.weekday}
	for i, f := range fields {
		bits, err := cronField(i, f)
		if err != nil {
			return Schedule{}, Errorf(CodeInvalid, "season schedule %q: %v", spec, err)
		}
		*sets[i] = bits
	}
	s.anyDay = strings.HasPrefix(fields[2], "*") || strings.HasPrefix(fields[2], "?")
	s.anyWeekday = strings.HasPrefix(fields[4], "*") || strings.HasPrefix(fields[4], "?")
	if !s.fires() {
		return Schedule{}, Errorf(CodeInvalid, "season schedule %q never fires: no month it names has that day", spec)
	}
	return s, nil
}

// fires reports whether some date matches: a weekday field that takes part
// always matches some day; otherwise some named day must exist in some
// named month (the 29th of February counts: leap years have it).
func (s Schedule) fires() bool {
	if !s.anyWeekday && s.weekday != 0 {
		return true
	}
	for m := 1; m <= 12; m++ {
		if s.month&(1<<m) == 0 {
			continue
		}
		last := time.Date(2024, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day() // 2024 is a leap year
		for d := 1; d <= last; d++ {
			if s.day&(1<<d) != 0 {
				return true
			}
		}
	}
	return false
}

// Next returns the first time the schedule fires strictly after t, in
// UTC, or the zero time when it does not fire within scheduleHorizon years.
func (s Schedule) Next(t time.Time) time.Time {
	t = t.UTC().Truncate(time.Minute).Add(time.Minute)
	end := t.AddDate(scheduleHorizon, 0, 0)
	for t.Before(end) {
		switch {
		case s.month&(1<<int(t.Month())) == 0:
			t = time.Date(t.Year(), t.Month()+1, 1, 0, 0, 0, 0, time.UTC)
		case !s.dayMatches(t):
			t = time.Date(t.Year(), t.Month(), t.Day()+1, 0, 0, 0, 0, time.UTC)
		case s.hour&(1<<t.Hour()) == 0:
			t = t.Truncate(time.Hour).Add(time.Hour)
		case s.minute&(1<<t.Minute()) == 0:
			t = t.Add(time.Minute)
		default:
			return t
		}
	}
	return time.Time{}
}

func (s Schedule) dayMatches(t time.Time) bool {
	day := s.day&(1<<t.Day()) != 0
	weekday := s.weekday&(1<<int(t.Weekday())) != 0
	if s.anyDay || s.anyWeekday {
		return day && weekday
	}
	return day || weekday
}

// NextSeasonClose returns when a guild's season schedule next fires after
// t; the zero time and no error when the schedule is off ("").
func NextSeasonClose(schedule string, t time.Time) (time.Time, error) {
	if strings.TrimSpace(schedule) == "" {
		return time.Time{}, nil
	}
	s, err := ParseSchedule(schedule)
	if err != nil {
		return time.Time{}, err
	}
	next := s.Next(t)
	if next.IsZero() {
		return time.Time{}, Errorf(CodeInvalid, "season schedule %q does not fire within %d years", schedule, scheduleHorizon)
	}
	return next, nil
}

// cronField reads field i of a schedule into a bit set of the values it
// allows, checking each against the field's range (cronBounds).
func cronField(i int, f string) (uint64, error) {
	b := cronBounds[i]
	value := func(v string) (int, bool) {
		if n, err := strconv.Atoi(v); err == nil {
			return n, n >= b.lo && n <= b.hi
		}
		if k := strings.Index(b.names, strings.ToUpper(v)); len(v) == 3 && k >= 0 && k%3 == 0 {
			return b.lo + k/3, true
		}
		return 0, false
	}
	var set uint64
	for _, part := range strings.Split(f, ",") {
		rng, stepText, stepped := strings.Cut(part, "/")
		step := 1
		if stepped {
			n, err := strconv.Atoi(stepText)
			if err != nil || n < 1 {
				return 0, fmt.Errorf("%s step %q is not a positive number", b.name, stepText)
			}
			step = n
		}
		lo, hi := b.lo, b.hi
		if rng != "*" && rng != "?" {
			from, to, ranged := strings.Cut(rng, "-")
			a, okA := value(from)
			z, okZ := a, true
			switch {
			case ranged:
				z, okZ = value(to)
			case stepped:
				z = b.hi // "5/15" is 5 to the end of the range, every 15
			}
			if !okA || !okZ || z < a {
				return 0, fmt.Errorf("%s %q is not within %d-%d", b.name, part, b.lo, b.hi)
			}
			lo, hi = a, z
		}
		for v := lo; v <= hi; v += step {
			set |= 1 << v
		}
	}
	return set, nil
}
