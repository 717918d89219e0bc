package web

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/internal/chart"
	"github.com/ladderbot/ladderbot/joins"
	"github.com/ladderbot/ladderbot/ladder"
)

// The community pages: a guild's matches with filters, its stats with the
// busiest-hours heatmap, and two players compared. The same service
// answers the JSON and the bot's commands.

func (s *Server) communityPages(mux *http.ServeMux) {
	if s.community == nil {
		return
	}
	mux.HandleFunc("GET /guilds/{guild}/matches", s.matchesHTML)
	mux.HandleFunc("GET /guilds/{guild}/stats", s.statsHTML)
	mux.HandleFunc("GET /guilds/{guild}/stats/hours.png", s.hoursPNG)
	mux.HandleFunc("GET /guilds/{guild}/compare/{a}/{b}", s.compareHTML)
}

type matchRow struct {
	ID           int64
	When         string
	Queue        string
	Season       int
	Team1, Team2 []personLink
	Result       string
	Class        string
}

type matchesPage struct {
	chrome
	GuildID    string
	Player     string
	PlayerName string
	Queue      string
	Season     int
	From, To   string
	Queues     []ladder.Queue
	Seasons    []ladder.Season
	Rows       []matchRow
	OlderURL   string
	NewerURL   string
}

// matchesHTML serves /guilds/{guild}/matches?player=&queue=&season=&from=&to=&before=&after=.
func (s *Server) matchesHTML(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	guild := r.PathValue("guild")
	hq := community.HistoryQuery{GuildID: guild, Player: q.Get("player"), Queue: q.Get("queue"), Limit: 25}
	var err error
	if hq.Season, err = intParam(q.Get("season"), "season", 1, 1<<30); err == nil {
		var b, a int
		if b, err = intParam(q.Get("before"), "before", 1, 1<<62); err == nil {
			if a, err = intParam(q.Get("after"), "after", 1, 1<<62); err == nil {
				hq.Before, hq.After = int64(b), int64(a)
			}
		}
	}
	if err == nil {
		hq.From, err = dateParam(q.Get("from"), "from")
	}
	if err == nil {
		hq.To, err = endDateParam(q.Get("to"), "to")
	}
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	page, err := s.community.History(r.Context(), hq)
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	qs, err := s.svc.Queues(r.Context(), guild)
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	ss, err := s.svc.Seasons(r.Context(), guild)
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	ids := []string{}
	for _, m := range page.Matches {
		ids = append(ids, m.Team1...)
		ids = append(ids, m.Team2...)
	}
	if hq.Player != "" {
		ids = append(ids, hq.Player)
	}
	slices.Sort(ids)
	names, err := s.svc.PlayerNames(r.Context(), guild, slices.Compact(ids))
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	person := func(u string) personLink {
		if n := names[u]; n != "" {
			return personLink{u, n}
		}
		return personLink{u, u}
	}
	p := matchesPage{GuildID: guild, Player: hq.Player, Queue: hq.Queue, Season: hq.Season, From: q.Get("from"), To: q.Get("to"),
		Queues: qs, Seasons: ss}
	if hq.Player != "" {
		p.PlayerName = person(hq.Player).Name
	}
	l := pageLang(r)
	for _, m := range page.Matches {
		row := matchRow{ID: m.ID, When: l.DateTime(m.At), Queue: m.Queue, Season: m.Season}
		for _, u := range m.Team1 {
			row.Team1 = append(row.Team1, person(u))
		}
		for _, u := range m.Team2 {
			row.Team2 = append(row.Team2, person(u))
		}
		switch m.Winner {
		case ladder.Draw:
			row.Result = l.T("outcome.draw")
		case 1:
			row.Result = l.T("web.result_team", "N", 1)
		default:
			row.Result = l.T("web.result_team", "N", 2)
		}
		if hq.Player != "" {
			t := 1
			if slices.Contains(m.Team2, hq.Player) {
				t = 2
			}
			res := community.ResultFor(m.Winner, t)
			row.Result = l.T("outcome." + res)
			if res != "draw" {
				row.Class = res
			}
		}
		p.Rows = append(p.Rows, row)
	}
	pageURL := func(key string, id int64) string {
		v := url.Values{}
		for _, k := range []string{"player", "queue", "season", "from", "to"} {
			if x := q.Get(k); x != "" {
				v.Set(k, x)
			}
		}
		v.Set(key, strconv.FormatInt(id, 10))
		return "/guilds/" + guild + "/matches?" + v.Encode()
	}
	if page.Older != 0 {
		p.OlderURL = pageURL("before", page.Older)
	}
	if page.Newer != 0 {
		p.NewerURL = pageURL("after", page.Newer)
	}
	s.render(w, r, http.StatusOK, "matches", &p)
}

// dateParam reads an optional YYYY-MM-DD date (UTC). Year 0000 is none:
// its last day would end at the zero time, which means no end at all.
func dateParam(v, name string) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse("2006-01-02", v)
	if err != nil || t.Year() < 1 {
		return time.Time{}, ladder.Errorf(ladder.CodeInvalid, "%s must be a date as YYYY-MM-DD, not %q", name, clipParam(v))
	}
	return t, nil
}

// endDateParam reads the optional end date of a range: the instant its
// whole day ends, or zero (no end) for the last day a date field can
// hold, 9999-12-31, whose end falls in year 10000: SQLite keeps times as
// text, and "10000-01-01" sorts before every real time, so that end kept
// nothing, where PostgreSQL kept everything.
func endDateParam(v, name string) (time.Time, error) {
	t, err := dateParam(v, name)
	if err != nil || t.IsZero() {
		return t, err
	}
	if t = t.Add(24 * time.Hour); t.Year() > 9999 {
		return time.Time{}, nil
	}
	return t, nil
}

type statsPage struct {
	chrome
	GuildID        string
	Stats          community.Stats
	MinPartner     int
	HoursURL       string
	HoursW, HoursH int
}

// statsHTML serves /guilds/{guild}/stats?queue=&season=.
func (s *Server) statsHTML(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	season, err := intParam(q.Get("season"), "season", 1, 1<<30)
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	st, err := s.community.Stats(r.Context(), r.PathValue("guild"), q.Get("queue"), season, 10)
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	// The picture's texts are in the page's language, whichever way the
	// page got it (?lang=, the cookie, Accept-Language).
	v := url.Values{"queue": {st.Queue.Name}, "season": {strconv.Itoa(st.Season.Number)}}
	w0, h0 := chart.HeatmapSize(7, 24)
	s.render(w, r, http.StatusOK, "stats", &statsPage{GuildID: r.PathValue("guild"), Stats: st, MinPartner: community.MinPartnerGames,
		HoursURL: "/guilds/" + r.PathValue("guild") + "/stats/hours.png?" + v.Encode() + "&lang=" + url.QueryEscape(pageLang(r).Code()), HoursW: w0, HoursH: h0})
}

// weekdays are the heatmap's rows, Monday first.
var weekdays = []time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday, time.Saturday, time.Sunday}

// hoursHeat is the busiest-hours heatmap of st in language l: its title,
// the weekdays' short names (Monday first) and the note under it from the
// catalog.
func hoursHeat(l *i18n.Lang, st community.Stats) chart.Heat {
	h := chart.Heat{Title: l.T("web.hours_title", "Queue", st.Queue.Name, "Season", l.Int(st.Season.Number)), ColEvery: 3}
	for i := range 24 {
		h.Cols = append(h.Cols, fmt.Sprintf("%02d", i))
	}
	for _, d := range weekdays {
		h.Rows = append(h.Rows, l.T(joins.WeekdayKey(d)))
		h.Values = append(h.Values, st.Hours[d][:])
	}
	h.Note = l.N("web.hours_darkest", h.Top())
	return h
}

// hoursPNG serves the busiest-hours heatmap of a queue's season.
func (s *Server) hoursPNG(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	season, err := intParam(q.Get("season"), "season", 1, 1<<30)
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	st, err := s.community.Stats(r.Context(), r.PathValue("guild"), q.Get("queue"), season, 1)
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	l := pageLang(r)
	h := hoursHeat(l, st)
	var buf bytes.Buffer
	if err := chart.Heatmap(&buf, h); err != nil {
		s.pageError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Content-Language", l.Tag().String())
	w.Header().Add("Vary", "Accept-Language, Cookie")
	_, _ = w.Write(buf.Bytes())
}

type meetingRow struct {
	ID     int64
	When   string
	Result string
}

type comparePage struct {
	chrome
	GuildID string
	C       community.Comparison
	Sides   []community.Side
	Last    []meetingRow
}

// compareHTML serves /guilds/{guild}/compare/{a}/{b}?queue=&season=.
func (s *Server) compareHTML(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	season, err := intParam(q.Get("season"), "season", 1, 1<<30)
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	c, err := s.community.Compare(r.Context(), r.PathValue("guild"), r.PathValue("a"), r.PathValue("b"), q.Get("queue"), season)
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	p := comparePage{GuildID: r.PathValue("guild"), C: c, Sides: []community.Side{c.A, c.B}}
	l := pageLang(r)
	for _, m := range c.Last {
		res := l.T("outcome." + community.ResultFor(m.Winner, m.TeamA))
		p.Last = append(p.Last, meetingRow{ID: m.MatchID, When: l.Date(m.At), Result: l.T("web.result_for", "Result", res, "Name", isolate(nameOf(c.A)))})
	}
	s.render(w, r, http.StatusOK, "compare", &p)
}

func nameOf(sd community.Side) string {
	if sd.Name != "" {
		return sd.Name
	}
	return sd.UserID
}
