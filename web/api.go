package web

import (
	"bytes"
	"context"
	"fmt"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/ladder"
)

// The JSON shapes of docs/spec.md 7. Ratings are the model's unrounded numbers.

type playerJSON struct {
	Rank     int     `json:"rank"`
	ID       string  `json:"id"`
	Name     string  `json:"name"`
	Rating   float64 `json:"rating"`
	RD       float64 `json:"rd"`
	GXE      float64 `json:"gxe"`
	Division string  `json:"division"`
	Wins     int     `json:"wins"`
	Losses   int     `json:"losses"`
	Draws    int     `json:"draws"`
}

type leaderboardJSON struct {
	Season  int          `json:"season"`
	Queue   string       `json:"queue"`
	Players []playerJSON `json:"players"`
	// Next is the after cursor of the next page; absent on the last page.
	Next string `json:"next,omitempty"`
}

type profileJSON struct {
	playerJSON
	Season      int           `json:"season"`
	Queue       string        `json:"queue"`
	Games       int           `json:"games"`
	Provisional bool          `json:"provisional"`
	Stale       bool          `json:"stale"`
	History     []historyJSON `json:"history"`
}

type historyJSON struct {
	MatchID int64     `json:"match_id"`
	At      time.Time `json:"at"`
	Rating  float64   `json:"rating"`
	RD      float64   `json:"rd"`
	Delta   float64   `json:"delta"`
}

type matchJSON struct {
	ID        int64             `json:"id"`
	Queue     string            `json:"queue"`
	State     ladder.MatchState `json:"state"`
	Team1     []string          `json:"team1"`
	Team2     []string          `json:"team2"`
	Winner    *int              `json:"winner"`
	PTeam1    float64           `json:"p_team1"`
	Quality   float64           `json:"quality,omitempty"`
	Source    string            `json:"source"`
	CreatedAt time.Time         `json:"created_at"`
	PlayedAt  *time.Time        `json:"played_at"`
	Names     map[string]string `json:"names"`
	// Map is the map the match was played on, "" when none was picked.
	Map string `json:"map"`
	// Score is a series' score, team 1's wins first ("2-1"); "" for a
	// single game.
	Score   string             `json:"score"`
	Ratings []ratingChangeJSON `json:"ratings,omitempty"`
	Stakes  []stakeJSON        `json:"stakes,omitempty"`
	// Draft is there while captains pick the teams: team1 and team2 are
	// then the teams so far and p_team1 is 0.
	Draft *draftJSON `json:"draft,omitempty"`
	// Games are a series' games so far, each with its map (absent for a
	// single game).
	Games []gameJSON `json:"games,omitempty"`
}

// gameJSON is one game of a series.
type gameJSON struct {
	Game   int    `json:"game"`
	Winner int    `json:"winner"`
	Map    string `json:"map"`
	// State is confirmed, reported (waiting for the other team) or
	// disputed (waiting for a moderator).
	State string `json:"state"`
}

// seriesGames reads match m's series games, nil for a single game or
// when this server has no series.
func (s *Server) seriesGames(ctx context.Context, m ladder.Match) ([]formats.Game, error) {
	if s.series == nil {
		return nil, nil
	}
	sr, ok, err := s.series.Series(ctx, m)
	if err != nil || !ok {
		return nil, err
	}
	return sr.Games, nil
}

func gamesJSON(gs []formats.Game) []gameJSON {
	var out []gameJSON
	for _, g := range gs {
		state := "confirmed"
		switch {
		case g.Disputed():
			state = "disputed"
		case !g.Confirmed():
			state = "reported"
		}
		out = append(out, gameJSON{Game: g.Game, Winner: g.Winner, Map: g.Map, State: state})
	}
	return out
}

// draftJSON is a running captains draft: whose pick it is, until when,
// and the players left, best rated first.
type draftJSON struct {
	State    ladder.DraftState `json:"state"`
	Turn     int               `json:"turn"`
	Deadline *time.Time        `json:"deadline"`
	Left     []string          `json:"left"`
}

type ratingChangeJSON struct {
	ID     string  `json:"id"`
	Rating float64 `json:"rating"`
	RD     float64 `json:"rd"`
	Delta  float64 `json:"delta"`
}

type stakeJSON struct {
	ID     string  `json:"id"`
	Team   int     `json:"team"`
	Rating float64 `json:"rating"`
	RD     float64 `json:"rd"`
	IfWin  float64 `json:"if_win"`
	IfLoss float64 `json:"if_loss"`
}

func playerOf(st ladder.Standing) playerJSON {
	return playerJSON{Rank: st.Rank, ID: st.UserID, Name: st.Name, Rating: st.Rating, RD: st.RD, GXE: st.GXE,
		Division: st.Division, Wins: st.Wins, Losses: st.Losses, Draws: st.Draws}
}

// leaderboardQuery reads the query string of a leaderboard request: queue,
// season, division, limit and after. Bad numbers are CodeInvalid errors.
func leaderboardQuery(r *http.Request) (ladder.LeaderboardQuery, error) {
	q := r.URL.Query()
	lq := ladder.LeaderboardQuery{
		GuildID: r.PathValue("guild"), Queue: q.Get("queue"), Division: q.Get("division"), After: q.Get("after"),
	}
	var err error
	if lq.Season, err = intParam(q.Get("season"), "season", 1, 1<<30); err != nil {
		return lq, err
	}
	if lq.Limit, err = intParam(q.Get("limit"), "limit", 1, 200); err != nil {
		return lq, err
	}
	return lq, nil
}

// intParam parses an optional integer query parameter within [lo, hi]; ""
// is 0, the service's default.
func intParam(s, name string, lo, hi int) (int, error) {
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, ladder.Errorf(ladder.CodeInvalid, "%s must be a whole number from %d to %d, not %q", name, lo, hi, s)
	}
	return n, nil
}

// apiLeaderboard serves GET /api/v1/guilds/{guild}/leaderboard. Responses are
// cached for a moment (see boardCache) and carry an ETag, so a client
// polling with If-None-Match gets 304 without a body.
func (s *Server) apiLeaderboard(w http.ResponseWriter, r *http.Request) {
	lq, err := leaderboardQuery(r)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	e, err := s.board.get(r.Context(), lq)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	publicRead(w)
	h := w.Header()
	h.Set("Cache-Control", s.cacheControl)
	h.Set("ETag", e.etag)
	if etagMatch(r.Header.Get("If-None-Match"), e.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(e.body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(e.body)
	}
}

// etagMatch implements If-None-Match's weak comparison over a list of tags.
func etagMatch(header, etag string) bool {
	if header == "" {
		return false
	}
	for part := range strings.SplitSeq(header, ",") {
		part = strings.TrimSpace(part)
		if part == "*" || trimWeak(part) == trimWeak(etag) {
			return true
		}
	}
	return false
}

func trimWeak(t string) string {
	if len(t) > 2 && t[:2] == "W/" {
		return t[2:]
	}
	return t
}

func leaderboardBody(p ladder.LeaderboardPage) leaderboardJSON {
	out := leaderboardJSON{Season: p.Season.Number, Queue: p.Queue.Name, Players: make([]playerJSON, len(p.Standings)), Next: p.Next}
	for i, st := range p.Standings {
		out.Players[i] = playerOf(st)
	}
	return out
}

// apiPlayer serves GET /api/v1/guilds/{guild}/players/{id} (query queue,
// season, history: how many latest points, default 50, at most 1000).
func (s *Server) apiPlayer(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	pq := ladder.ProfileQuery{GuildID: r.PathValue("guild"), UserID: r.PathValue("id"), Queue: q.Get("queue"), Recent: 1}
	var err error
	if pq.Season, err = intParam(q.Get("season"), "season", 1, 1<<30); err == nil {
		pq.History, err = intParam(q.Get("history"), "history", 1, 1000)
	}
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	p, err := s.svc.Profile(r.Context(), pq)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	publicRead(w)
	w.Header().Set("Cache-Control", "no-cache")
	writeJSON(w, http.StatusOK, profileBody(p))
}

func profileBody(p ladder.Profile) profileJSON {
	out := profileJSON{playerJSON: playerOf(p.Standing), Season: p.Season.Number, Queue: p.Queue.Name,
		Games: p.Standing.Games, Provisional: p.Standing.Provisional, Stale: p.Standing.Stale,
		History: make([]historyJSON, len(p.History))}
	for i, h := range p.History {
		out.History[i] = historyJSON{MatchID: h.MatchID, At: h.At.UTC(), Rating: h.Rating, RD: h.RD, Delta: h.Delta}
	}
	return out
}

// apiMatch serves GET /api/v1/guilds/{guild}/matches/{id}.
func (s *Server) apiMatch(w http.ResponseWriter, r *http.Request) {
	id, err := matchID(r)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	d, err := s.svc.MatchDetail(r.Context(), r.PathValue("guild"), id)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	gs, err := s.seriesGames(r.Context(), d.Match)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	body := matchBody(d)
	body.Games = gamesJSON(gs)
	publicRead(w)
	w.Header().Set("Cache-Control", "no-cache")
	writeJSON(w, http.StatusOK, body)
}

// matchID reads the {id} of a match path. Only the canonical decimal form
// names a match: "+1", "01" or "1_0" would otherwise alias match 1 under
// other URLs (caches, audit trails and links disagree about identity).
func matchID(r *http.Request) (int64, error) {
	s := r.PathValue("id")
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id < 1 || strconv.FormatInt(id, 10) != s {
		return 0, ladder.Errorf(ladder.CodeNotFound, "no match %q: match IDs are positive numbers", s)
	}
	return id, nil
}

func matchBody(d ladder.MatchDetail) matchJSON {
	m := d.Match
	out := matchJSON{ID: m.ID, Queue: d.Queue.Name, State: m.State, Team1: m.Teams[0], Team2: m.Teams[1],
		PTeam1: m.PTeam1, Quality: m.Quality, Source: m.Source, CreatedAt: m.CreatedAt.UTC(), Names: d.Names, Map: m.Map, Score: m.Score}
	if m.Winner != ladder.NoResult {
		w := m.Winner
		out.Winner = &w
	}
	if !m.PlayedAt.IsZero() {
		t := m.PlayedAt.UTC()
		out.PlayedAt = &t
	}
	if dr := d.Draft; dr.MatchID != 0 {
		out.Draft = &draftJSON{State: dr.State, Turn: dr.Turn(), Left: []string{}}
		if !dr.Deadline.IsZero() {
			t := dr.Deadline.UTC()
			out.Draft.Deadline = &t
		}
		for _, st := range dr.Pool() {
			out.Draft.Left = append(out.Draft.Left, st.UserID)
		}
	}
	out.Ratings = ratingsInTeamOrder(m, d.Changes)
	for _, st := range d.Stakes {
		out.Stakes = append(out.Stakes, stakeJSON{ID: st.UserID, Team: st.Team, Rating: st.Rating, RD: st.RD, IfWin: st.IfWin, IfLoss: st.IfLoss})
	}
	return out
}

// ratingsInTeamOrder lists a match's rating changes team 1 first, each team
// in the order the match lists its players, so a first answer and a replayed
// one (read back from the log) are byte for byte the same.
func ratingsInTeamOrder(m ladder.Match, cs []ladder.PlayerDelta) []ratingChangeJSON {
	if len(cs) == 0 {
		return nil
	}
	by := make(map[string]ladder.PlayerDelta, len(cs))
	for _, c := range cs {
		by[c.UserID] = c
	}
	out := make([]ratingChangeJSON, 0, len(cs))
	for _, u := range m.Players() {
		if c, ok := by[u]; ok {
			out = append(out, ratingChangeJSON{ID: u, Rating: c.Rating, RD: c.RD, Delta: c.Delta})
		}
	}
	return out
}

// notFoundJSON answers /api/ requests no endpoint takes: 405 with Allow
// when the path exists for other methods, 404 otherwise. Allow names every
// method the path takes: HEAD beside GET (the mux answers it with GET's
// handler), and DELETE, which a webhook's path takes alone.
func (s *Server) notFoundJSON(w http.ResponseWriter, r *http.Request) {
	var allow, use []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := s.mux.Handler(probe); pattern != "" && pattern != "/api/" {
			allow, use = append(allow, m), append(use, m)
			if m == http.MethodGet {
				allow = append(allow, http.MethodHead)
			}
		}
	}
	if len(allow) > 0 {
		w.Header().Set("Allow", strings.Join(allow, ", "))
		writeJSONError(w, r, errStatus(http.StatusMethodNotAllowed, "%s is not allowed on %s; use %s", r.Method, r.URL.Path, strings.Join(use, " or ")))
		return
	}
	writeJSONError(w, r, ladder.Errorf(ladder.CodeNotFound, "no API endpoint %s %s", r.Method, r.URL.Path))
}

// publicRead marks a read-only JSON answer that any web page may fetch
// (CORS): the leaderboard is public, and no read takes credentials.
func publicRead(w http.ResponseWriter) {
	w.Header().Set("Access-Control-Allow-Origin", "*")
}

// apiMatchesCSV serves GET /api/v1/guilds/{guild}/matches.csv: the rated
// matches of a queue (query queue) in the docs/spec.md 2.3 format, one season
// (query season) or all of them, ready for ladderbot eval or import.
func (s *Server) apiMatchesCSV(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	season, err := intParam(q.Get("season"), "season", 1, 1<<30)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	recs, err := s.svc.MatchLog(r.Context(), r.PathValue("guild"), q.Get("queue"), season)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	var buf bytes.Buffer
	if err := rating.WriteMatchCSV(&buf, recs); err != nil {
		writeJSONError(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="matches-%s.csv"`, r.PathValue("guild")))
	h.Set("Cache-Control", "no-cache")
	_, _ = w.Write(buf.Bytes())
}
