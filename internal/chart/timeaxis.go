package chart

import "time"

// maxTimeTicks is the most date ticks a time axis gets: an 800 px chart
// fits eight "Jan 2 15:04" labels with room between them.
const maxTimeTicks = 8

// timeStep is one candidate spacing of date ticks: a count of a calendar
// unit, and how a tick at that spacing is labelled.
type timeStep struct {
	unit  string // "minute", "hour", "day", "week", "month" or "year"
	n     int
	label string // time.Format layout
}

var timeSteps = []timeStep{
	{"minute", 5, "Jan 2 15:04"}, {"minute", 15, "Jan 2 15:04"}, {"minute", 30, "Jan 2 15:04"},
	{"hour", 1, "Jan 2 15:04"}, {"hour", 3, "Jan 2 15:04"}, {"hour", 6, "Jan 2 15:04"}, {"hour", 12, "Jan 2 15:04"},
	{"day", 1, "Jan 2"}, {"day", 2, "Jan 2"}, {"week", 1, "Jan 2"}, {"week", 2, "Jan 2"},
	{"month", 1, "Jan 2006"}, {"month", 2, "Jan 2006"}, {"month", 3, "Jan 2006"}, {"month", 6, "Jan 2006"},
	{"year", 1, "2006"}, {"year", 2, "2006"}, {"year", 5, "2006"}, {"year", 10, "2006"}, {"year", 50, "2006"},
}

// timeTick is one labelled date on a time axis.
type timeTick struct {
	At    time.Time
	Label string
}

// timeTicks picks readable date ticks covering [first, last] (UTC): the
// finest calendar spacing (5 minutes … 50 years) that needs at most
// maxTimeTicks, from the round boundary at or before first (the hour,
// midnight, a Monday, the first of a month, New Year) to the one at or
// after last, labelled as precisely as the spacing needs, so never twice
// the same. The axis then runs from the first tick to the last, as the
// value axes run between round numbers. go-chart's own time ticks split
// the range evenly, which put odd dates, and on short ranges the same
// date twice, on the profile chart.
func timeTicks(first, last time.Time) []timeTick {
	first, last = first.UTC(), last.UTC()
	var ticks []timeTick
	var st timeStep
	for _, st = range timeSteps {
		ticks = ticks[:0]
		t := st.floor(first)
		ticks = append(ticks, timeTick{At: t})
		for t.Before(last) || len(ticks) < 2 {
			t = st.next(t)
			ticks = append(ticks, timeTick{At: t})
			if len(ticks) > maxTimeTicks {
				break
			}
		}
		if len(ticks) <= maxTimeTicks {
			break
		}
	}
	layout := st.label
	if layout == "Jan 2" && ticks[0].At.Year() != ticks[len(ticks)-1].At.Year() {
		layout = "Jan 2 2006"
	}
	for i := range ticks {
		ticks[i].Label = ticks[i].At.Format(layout)
	}
	return ticks
}

// floor returns the last tick boundary at or before t.
func (st timeStep) floor(t time.Time) time.Time {
	y, m, d := t.Date()
	switch st.unit {
	case "minute":
		return t.Truncate(time.Duration(st.n) * time.Minute)
	case "hour":
		h := t.Truncate(time.Hour)
		return h.Add(-time.Duration(h.Hour()%st.n) * time.Hour)
	case "day":
		day := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
		since := int(day.Sub(time.Unix(0, 0).UTC()) / (24 * time.Hour))
		return day.AddDate(0, 0, -(((since % st.n) + st.n) % st.n))
	case "week":
		day := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
		monday := time.Date(1970, 1, 5, 0, 0, 0, 0, time.UTC)
		since := int(day.Sub(monday) / (24 * time.Hour))
		return day.AddDate(0, 0, -(((since % (7 * st.n)) + 7*st.n) % (7 * st.n)))
	case "month":
		idx := y*12 + int(m) - 1
		idx -= idx % st.n
		return time.Date(idx/12, time.Month(idx%12+1), 1, 0, 0, 0, 0, time.UTC)
	default: // year
		return time.Date(y-y%st.n, 1, 1, 0, 0, 0, 0, time.UTC)
	}
}

// next returns the tick boundary after t, a boundary.
func (st timeStep) next(t time.Time) time.Time {
	switch st.unit {
	case "minute":
		return t.Add(time.Duration(st.n) * time.Minute)
	case "hour":
		return t.Add(time.Duration(st.n) * time.Hour)
	case "day":
		return t.AddDate(0, 0, st.n)
	case "week":
		return t.AddDate(0, 0, 7*st.n)
	case "month":
		return t.AddDate(0, st.n, 0)
	default:
		return t.AddDate(st.n, 0, 0)
	}
}
