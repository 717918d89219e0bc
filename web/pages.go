package web

import (
	"bytes"
	"cmp"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

//go:embed templates/*.html
var templateFS embed.FS

// pageTemplates holds, for each language code, one template set per
// page, each with the shared layout; the templates' text functions are
// bound to the language.
type pageTemplates map[string]map[string]*template.Template

// langLink is one entry of the pages' language switcher.
type langLink struct {
	Code, Tag, Name string
	Current         bool
}

func parsePages() pageTemplates {
	cat := i18n.Default()
	out := pageTemplates{}
	for _, code := range append(cat.Languages(), i18n.Pseudo) {
		l, _ := cat.Lang(code)
		var links []langLink
		for _, c := range cat.Languages() {
			o, _ := cat.Lang(c)
			links = append(links, langLink{Code: c, Tag: o.Tag().String(), Name: o.Name(), Current: c == code})
		}
		funcs := template.FuncMap{
			"sub1":       func(p float64) float64 { return 1 - p },
			"pct":        func(p float64) float64 { return 100 * p },
			"t":          l.T,
			"n":          l.N,
			"lang":       func() string { return l.Tag().String() },
			"languages":  func() []langLink { return links },
			"rating":     l.Rating,
			"signed":     l.Signed,
			"percent":    l.Percent,
			"gxe":        func(g float64) string { return l.PercentN(g/100, 1) },
			"number":     l.Number,
			"int":        l.Int,
			"date":       l.Date,
			"listing":    func(li ladder.Listing) string { return commands.ListingText(l, li) },
			"playerURL":  playerURL,
			"compareURL": compareURL,
			"pinned":     pinned,
			"isolate":    isolate,
		}
		out[code] = map[string]*template.Template{}
		for _, name := range []string{"home", "leaderboard", "player", "match", "error", "matches", "stats", "compare"} {
			out[code][name] = template.Must(template.New(name).Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/"+name+".html"))
		}
	}
	return out
}

// playerURL is the page of player id in guild on queue ("" the first) and
// season number (0 the running one): a page of one queue or season links
// its players to their pages of that ladder, not of the guild's first
// queue, where a player of another queue has no rating at all.
func playerURL(guild, id, queue string, season int) string {
	return "/guilds/" + url.PathEscape(guild) + "/players/" + url.PathEscape(id) + ladderQuery(queue, season)
}

// compareURL is the compare page of players a and b on queue and season,
// as playerURL.
func compareURL(guild, a, b, queue string, season int) string {
	return "/guilds/" + url.PathEscape(guild) + "/compare/" + url.PathEscape(a) + "/" + url.PathEscape(b) + ladderQuery(queue, season)
}

// ladderQuery is "?queue=&season=" with what is set, "" for neither.
func ladderQuery(queue string, season int) string {
	q := url.Values{}
	if queue != "" {
		q.Set("queue", queue)
	}
	if season > 0 {
		q.Set("season", itoa(season))
	}
	if len(q) == 0 {
		return ""
	}
	return "?" + q.Encode()
}

// pinned is the season number a link must carry to stay on s: 0 for the
// running season, which is the pages' default, so links to it stay current.
func pinned(s ladder.Season) int {
	if s.Running() {
		return 0
	}
	return s.Number
}

// page is the data of a page: its own fields beside the layout's (chrome).
type page interface{ frame(r *http.Request) }

// chrome is what the layout needs of the request around every page: the
// query, so that the language switcher links to the same page (its queue,
// season, filters and paging) in another language.
type chrome struct{ query url.Values }

func (c *chrome) frame(r *http.Request) { c.query = r.URL.Query() }

// LangURL is this page in the language code: the query with lang set.
func (c chrome) LangURL(code string) string {
	q := url.Values{}
	for k, v := range c.query {
		if k != "lang" {
			q[k] = v
		}
	}
	q.Set("lang", code)
	return "?" + q.Encode()
}

// isolate wraps a name in Unicode's first-strong isolate (U+2068 … U+2069),
// the plain-text twin of <bdi>, for the sentences and titles where no
// element can go: a right-to-left name then neither reorders the text
// around it ("50%" drawn "%50") nor is reordered by it.
func isolate(name string) string { return "\u2068" + name + "\u2069" }

// langCookie remembers the language a visitor picked in the switcher.
const langCookie = i18n.Cookie

// pageLang is the language of the pages answering r (i18n.FromRequest).
func pageLang(r *http.Request) *i18n.Lang { return i18n.FromRequest(r) }

// render executes a page into a buffer first, so a template error becomes a
// clean 500 instead of half a page. It is in pageLang's language; a
// ?lang= from the switcher is remembered in a cookie.
func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, name string, data page) {
	l := pageLang(r)
	data.frame(r)
	var buf bytes.Buffer
	if err := s.pages[l.Code()][name].ExecuteTemplate(&buf, "layout", data); err != nil {
		s.pageError(w, r, err)
		return
	}
	h := w.Header()
	if code := r.URL.Query().Get("lang"); code == l.Code() {
		http.SetCookie(w, &http.Cookie{Name: langCookie, Value: code, Path: "/", MaxAge: 365 * 24 * 3600, HttpOnly: true, SameSite: http.SameSiteLaxMode})
	}
	h.Set("Content-Language", l.Tag().String())
	h.Add("Vary", "Accept-Language, Cookie")
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'self'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// errorPage is the data of the error page.
type errorPage struct {
	chrome
	GuildID string
	Title   string
	Message string
}

// pageError answers err as an HTML page with the status statusOf picks: a
// proper 404 page for unknown guilds, players and matches.
func (s *Server) pageError(w http.ResponseWriter, r *http.Request, err error) {
	status, msg := statusOf(err)
	l := pageLang(r)
	ref := ""
	if status >= 500 && status != http.StatusServiceUnavailable {
		ref = newRef()
		msg = l.T("dash.internal", "Ref", ref)
	}
	noteError(r, err, ref)
	title := http.StatusText(status)
	if id := fmt.Sprintf("dash.status_%d", status); l.Has(id) {
		title = l.T(id)
	}
	if status == http.StatusNotFound {
		title = l.T("web.not_found")
	}
	var he *httpError
	if format, args := ladder.ErrorFormat(err); format != "" && status < 500 {
		msg = l.Error(format, args...)
	} else if errors.As(err, &he) && he.format != "" {
		msg = l.Error(he.format, he.args...)
	}
	// "Back to the leaderboard" only where there is one: the 404 of an
	// unknown guild used to link back to itself.
	guild := r.PathValue("guild")
	if guild != "" && status == http.StatusNotFound && s.svc != nil {
		if _, gerr := s.svc.Guild(r.Context(), guild); gerr != nil {
			guild = ""
		}
	}
	ep := &errorPage{GuildID: guild, Title: title, Message: msg}
	ep.frame(r)
	var buf bytes.Buffer
	if terr := s.pages[l.Code()]["error"].ExecuteTemplate(&buf, "layout", ep); terr != nil {
		http.Error(w, msg, status)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Language", l.Tag().String())
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// home serves / and, outside /api/, the HTML answer of every request no
// other route takes: 405 with Allow when the path is a page or probe
// (/healthz, /readyz, /metrics) that only reads, 404 otherwise. The catch-all
// "/" would otherwise turn POST /healthz into a 404.
func (s *Server) home(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" && r.Method != http.MethodGet && r.Method != http.MethodHead {
		probe := r.Clone(r.Context())
		probe.Method = http.MethodGet
		if _, pattern := s.mux.Handler(probe); pattern != "" && pattern != "/" {
			w.Header().Set("Allow", "GET, HEAD")
			s.pageError(w, r, errStatus(http.StatusMethodNotAllowed, "%s is not allowed on %s; it is only read (GET, HEAD).", r.Method, r.URL.Path))
			return
		}
	}
	if r.URL.Path != "/" {
		s.pageError(w, r, ladder.Errorf(ladder.CodeNotFound, "There is no page at %s.", r.URL.Path))
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		s.pageError(w, r, errStatus(http.StatusMethodNotAllowed, "Pages are only read (GET)."))
		return
	}
	if id := strings.TrimSpace(r.URL.Query().Get("guild")); id != "" {
		http.Redirect(w, r, "/guilds/"+url.PathEscape(id), http.StatusSeeOther)
		return
	}
	p := homePage{}
	if s.svc != nil {
		boards, err := s.svc.GuildBoards(r.Context(), homeGuilds+1)
		if err != nil {
			s.pageError(w, r, err)
			return
		}
		p.More = len(boards) > homeGuilds
		p.Guilds = boards[:min(len(boards), homeGuilds)]
	}
	s.render(w, r, http.StatusOK, "home", &p)
}

// homeGuilds is how many guilds the start page lists; the form finds the others.
const homeGuilds = 100

// homePage is the data of the start page: the guilds, and whether there are
// more than it lists.
type homePage struct {
	chrome
	GuildID string
	Guilds  []ladder.GuildBoard
	More    bool
}

// leaderboardPage is the data of the leaderboard page.
type leaderboardPage struct {
	chrome
	GuildID string
	// StatsURL is the queue's stats page, "" without community pages.
	StatsURL  string
	Queue     ladder.Queue
	Queues    []ladder.Queue
	Season    ladder.Season
	Seasons   []ladder.Season
	Division  string
	Divisions []string
	Rows      []ladder.Standing
	AnyDraws  bool
	// Hidden says how many players the board leaves out and why; "" when
	// none (or on later pages, where it was said already).
	Hidden  string
	After   string
	NextURL string
	query   url.Values
	path    string
}

// link returns the page's URL with key set to value ("" removes it) and the
// cursor dropped, since filters start again at the first page.
func (p leaderboardPage) link(key, value string) string {
	q := url.Values{}
	for k, v := range p.query {
		if k != "after" && k != key {
			q[k] = v
		}
	}
	if value != "" {
		q.Set(key, value)
	}
	if len(q) == 0 {
		return p.path
	}
	return p.path + "?" + q.Encode()
}

// QueueURL links to another queue's current season.
func (p leaderboardPage) QueueURL(name string) string {
	q := leaderboardPage{query: url.Values{}, path: p.path}
	return q.link("queue", name)
}

// SeasonURL links to season number n with the other filters kept.
func (p leaderboardPage) SeasonURL(n int) string { return p.link("season", itoa(n)) }

// DivisionURL links to one division ("" for all) with the other filters kept.
func (p leaderboardPage) DivisionURL(name string) string { return p.link("division", name) }

// FirstURL links to the first page with the same filters.
func (p leaderboardPage) FirstURL() string { return p.link("after", "") }

// leaderboardHTML serves GET /guilds/{guild}: the ranked players of a
// queue and season, a division filter and keyset paging.
func (s *Server) leaderboardHTML(w http.ResponseWriter, r *http.Request) {
	lq, err := leaderboardQuery(r)
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	e, err := s.board.get(r.Context(), lq)
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	lb := e.page
	p := leaderboardPage{GuildID: lb.Guild.ID, Queue: lb.Queue, Season: lb.Season, Rows: lb.Standings,
		After: lq.After, query: r.URL.Query(), path: r.URL.Path}
	if s.community != nil {
		p.StatsURL = "/guilds/" + lb.Guild.ID + "/stats?" + url.Values{"queue": {lb.Queue.Name}, "season": {strconv.Itoa(lb.Season.Number)}}.Encode()
	}
	for _, d := range lb.Guild.Divisions {
		p.Divisions = append(p.Divisions, d.Name)
		if strings.EqualFold(d.Name, lq.Division) {
			p.Division = d.Name
		}
	}
	for _, st := range lb.Standings {
		p.AnyDraws = p.AnyDraws || st.Draws > 0
	}
	if p.Seasons, err = s.svc.Seasons(r.Context(), lb.Guild.ID); err == nil {
		p.Queues, err = s.svc.Queues(r.Context(), lb.Guild.ID)
	}
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	if lb.Next != "" {
		p.NextURL = p.link("after", lb.Next)
	}
	if lq.After == "" {
		u, err := s.svc.Unlisted(r.Context(), lb.Guild.ID, lb.Queue.Name, lb.Season.Number)
		if err != nil {
			s.pageError(w, r, err)
			return
		}
		p.Hidden = hiddenText(pageLang(r), u)
	}
	s.render(w, r, http.StatusOK, "leaderboard", &p)
}

// hiddenText says in language l how many players the board hides and why
// (ladder.Unlisted); "" when it hides nobody.
func hiddenText(l *i18n.Lang, u ladder.Unlisted) string {
	if u.Hidden() == 0 {
		return ""
	}
	var why []string
	if u.Placement > 0 {
		why = append(why, l.N("web.hidden_placement", u.Placement, "Games", l.Int(u.PlacementGames)))
	}
	if u.HighRD > 0 {
		why = append(why, l.N("web.hidden_rd", u.HighRD, "RD", l.Int(ladder.ProvisionalRD)))
	}
	if u.Stale > 0 {
		why = append(why, l.N("web.hidden_stale", u.Stale, "Days", l.Int(u.StaleDays)))
	}
	return l.N("web.hidden", u.Hidden(), "Why", strings.Join(why, ", "))
}

// playerPage is the data of the player page.
type playerPage struct {
	chrome
	GuildID string
	Profile ladder.Profile
	Chart   template.HTML
	// ChartNote says when the chart shows only the latest matches.
	ChartNote string
	Streak    string
	// Maps are the player's win rates per map (series games on their own
	// maps), once a map has formats.MinMapGames games.
	Maps     []mapRow
	MapsMin  int
	Recent   []recentRow
	Partners []partnerRow
	// MatchesURL is the guild's matches page filtered to the player, ""
	// when this server has no community pages.
	MatchesURL string
}

// personLink is a player with the name to show.
type personLink struct{ ID, Name string }

type mapRow struct {
	Map         string
	Games, Wins int
	Rate        string
}

type recentRow struct {
	ID int64
	// When is the day in the page's language; Time the same instant for
	// <time datetime>.
	When, Time    string
	With, Against []personLink
	Result, Class string
}

type partnerRow struct {
	ID, Name            string
	Games, Wins, Losses int
}

// playerHTML serves GET /guilds/{guild}/players/{id}: rating, record, the
// rating-history chart (inline SVG), recent matches and partners. Hidden
// players (provisional, stale) have pages too; they say so.
func (s *Server) playerHTML(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	guild, id := r.PathValue("guild"), r.PathValue("id")
	pq := ladder.ProfileQuery{GuildID: guild, UserID: id, Queue: q.Get("queue"), History: 200, Recent: 10}
	var err error
	if pq.Season, err = intParam(q.Get("season"), "season", 1, 1<<30); err != nil {
		s.pageError(w, r, err)
		return
	}
	prof, err := s.svc.Profile(r.Context(), pq)
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	partners, err := s.svc.Partners(r.Context(), guild, pq.Queue, prof.Season.Number, id, 200)
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	partners = partners[:min(len(partners), 10)]
	ids := []string{}
	for _, m := range prof.Recent {
		ids = append(ids, m.Players()...)
	}
	for _, p := range partners {
		ids = append(ids, p.UserID)
	}
	slices.Sort(ids)
	names, err := s.svc.PlayerNames(r.Context(), guild, slices.Compact(ids))
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	if prof.Standing.Name == "" {
		prof.Standing.Name = id
	}
	l := pageLang(r)
	p := playerPage{GuildID: guild, Profile: prof, Chart: ratingChartSVG(l, prof.History),
		ChartNote: historyNote(l, prof.History, prof.Standing.Games), Streak: streak(l, prof.Standing.Streak)}
	if s.series != nil {
		rs, err := s.series.MapRecords(r.Context(), guild, prof.Queue.ID, prof.Season.ID, id)
		if err != nil {
			s.pageError(w, r, err)
			return
		}
		p.MapsMin = formats.MinMapGames
		for _, x := range rs {
			p.Maps = append(p.Maps, mapRow{Map: x.Map, Games: x.Games, Wins: x.Wins, Rate: l.Percent(float64(x.Wins) / float64(x.Games))})
		}
	}
	if s.community != nil {
		p.MatchesURL = "/guilds/" + guild + "/matches?" + url.Values{"player": {id}, "queue": {prof.Queue.Name}}.Encode()
	}
	person := func(u string) personLink {
		if n := names[u]; n != "" {
			return personLink{u, n}
		}
		return personLink{u, u}
	}
	for _, m := range prof.Recent {
		p.Recent = append(p.Recent, recentRowOf(l, m, id, person))
	}
	for _, pa := range partners {
		pl := person(pa.UserID)
		p.Partners = append(p.Partners, partnerRow{ID: pl.ID, Name: pl.Name, Games: pa.Games, Wins: pa.Wins, Losses: pa.Losses})
	}
	s.render(w, r, http.StatusOK, "player", &p)
}

func recentRowOf(l *i18n.Lang, m ladder.Match, self string, person func(string) personLink) recentRow {
	row := recentRow{ID: m.ID, When: l.Date(m.When()), Time: m.When().Format(time.RFC3339)}
	t := m.Team(self)
	for i, team := range m.Teams {
		for _, u := range team {
			switch {
			case u == self:
			case i+1 == t:
				row.With = append(row.With, person(u))
			default:
				row.Against = append(row.Against, person(u))
			}
		}
	}
	switch {
	case !m.State.Rated():
		row.Result = l.T("state." + string(m.State))
	case m.Winner == ladder.Draw:
		row.Result = l.T("outcome.draw")
	case m.Winner == t:
		row.Result, row.Class = l.T("outcome.win"), "win"
	default:
		row.Result, row.Class = l.T("outcome.loss"), "loss"
	}
	return row
}

func streak(l *i18n.Lang, n int) string {
	switch {
	case n > 1:
		return l.N("web.streak_wins", n)
	case n < -1:
		return l.N("web.streak_losses", -n)
	}
	return ""
}

// matchPage is the data of the match page.
type matchPage struct {
	chrome
	GuildID   string
	Match     ladder.Match
	QueueName string
	When      string
	// State and Result are in the page's language.
	State  string
	Result string
	Teams  []teamView
	// Left are the players the captains have not picked yet, best rated
	// first, while a draft runs.
	Left []matchPlayer
	// Games are a series' games with their maps, in the page's language.
	Games []gameRow
}

// gameRow is one game of a series on the match page.
type gameRow struct {
	Game   int
	Map    string
	Result string
}

type teamView struct {
	N       int
	Won     bool
	Players []matchPlayer
}

type matchPlayer struct {
	ID, Name  string
	Rating    float64
	RD        float64
	Delta     float64
	HasDelta  bool
	IfWin     float64
	IfLoss    float64
	HasStakes bool
	// Drafted is a player of a running captains draft: Rating is the one
	// the captains see; Captain marks the first of each team.
	Drafted, Captain bool
}

// matchHTML serves GET /guilds/{guild}/matches/{id}: teams, state, result,
// win chance, and each player's rating change (or stakes while unplayed).
func (s *Server) matchHTML(w http.ResponseWriter, r *http.Request) {
	id, err := matchID(r)
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	d, err := s.svc.MatchDetail(r.Context(), r.PathValue("guild"), id)
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	m := d.Match
	l := pageLang(r)
	p := matchPage{GuildID: m.GuildID, Match: m, QueueName: d.Queue.Name, When: l.DateTime(m.When()), State: l.T("state." + string(m.State))}
	gs, err := s.seriesGames(r.Context(), m)
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	for _, g := range gs {
		row := gameRow{Game: g.Game, Map: g.Map, Result: l.T("web.result_team", "N", g.Winner)}
		switch {
		case g.Disputed():
			row.Result += " · " + l.T("series_maps.state_disputed")
		case !g.Confirmed():
			row.Result += " · " + l.T("state.reported")
		}
		p.Games = append(p.Games, row)
	}
	switch {
	case m.State == ladder.StateVoided || m.State == ladder.StateCancelled:
		p.Result = l.T("web.result_none", "State", p.State)
	case m.Winner == ladder.Draw:
		p.Result = l.T("outcome.draw")
	case m.Winner == 1 || m.Winner == 2:
		p.Result = l.T("web.result_team", "N", m.Winner)
	case d.Draft.MatchID != 0:
		p.Result = l.T("web.result_drafting")
	default:
		p.Result = l.T("web.result_unplayed")
	}
	for _, st := range d.Draft.Pool() {
		p.Left = append(p.Left, matchPlayer{ID: st.UserID, Name: cmp.Or(st.Name, st.UserID), Rating: st.Rating})
	}
	changes := map[string]ladder.PlayerDelta{}
	for _, c := range d.Changes {
		changes[c.UserID] = c
	}
	stakes := map[string]ladder.Stake{}
	for _, st := range d.Stakes {
		stakes[st.UserID] = st
	}
	drafted := map[string]float64{}
	for _, st := range d.Draft.Seats {
		drafted[st.UserID] = st.Rating
	}
	for t, team := range m.Teams {
		tv := teamView{N: t + 1, Won: m.State.Rated() && m.Winner == t+1}
		for _, u := range team {
			mp := matchPlayer{ID: u, Name: d.Names[u]}
			if mp.Name == "" {
				mp.Name = u
			}
			if c, ok := changes[u]; ok {
				mp.Rating, mp.RD, mp.Delta, mp.HasDelta = c.Rating, c.RD, c.Delta, true
			} else if st, ok := stakes[u]; ok {
				mp.Rating, mp.RD, mp.IfWin, mp.IfLoss, mp.HasStakes = st.Rating, st.RD, st.IfWin, st.IfLoss, true
			} else if r, ok := drafted[u]; ok {
				mp.Rating, mp.Drafted, mp.Captain = r, true, u == d.Draft.Captain(t+1)
			}
			tv.Players = append(tv.Players, mp)
		}
		p.Teams = append(p.Teams, tv)
	}
	s.render(w, r, http.StatusOK, "match", &p)
}

func itoa(n int) string { return strconv.Itoa(n) }
