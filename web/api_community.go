package web

import (
	"net/http"
	"strconv"
	"time"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/ladder"
)

// The community reads: head-to-head, match history and server stats.
// Public like the leaderboard JSON; registered only when the server has
// the community service.

func (s *Server) communityRoutes(mux *http.ServeMux, g string) {
	if s.community == nil {
		return
	}
	mux.HandleFunc("GET "+g+"/players/{a}/compare/{b}", s.apiCompare)
	mux.HandleFunc("GET "+g+"/matches", s.apiHistory)
	mux.HandleFunc("GET "+g+"/stats", s.apiStats)
}

type sideJSON struct {
	ID     string  `json:"id"`
	Name   string  `json:"name"`
	Rated  bool    `json:"rated"`
	Rating float64 `json:"rating"`
	RD     float64 `json:"rd"`
	Games  int     `json:"games"`
	Wins   int     `json:"wins"`
	Losses int     `json:"losses"`
	Draws  int     `json:"draws"`
	Streak int     `json:"streak"`
}

type recordJSON struct {
	Games  int `json:"games"`
	Wins   int `json:"wins"`
	Losses int `json:"losses"`
	Draws  int `json:"draws"`
}

func recordOf(r community.Record) recordJSON {
	return recordJSON{Games: r.Games(), Wins: r.Wins, Losses: r.Losses, Draws: r.Draws}
}

type meetingJSON struct {
	MatchID int64     `json:"match_id"`
	At      time.Time `json:"at"`
	Winner  int       `json:"winner"`
	Result  string    `json:"result"`
}

type compareJSON struct {
	Queue    string        `json:"queue"`
	Season   int           `json:"season"`
	A        sideJSON      `json:"a"`
	B        sideJSON      `json:"b"`
	Together recordJSON    `json:"together"`
	Against  recordJSON    `json:"against"`
	Last     []meetingJSON `json:"last"`
	PAWins   float64       `json:"p_a_wins"`
	// TopPair and PTogetherWins: A and B as partners against the
	// ladder's top pair (absent in 1v1 or with fewer than two others).
	TopPair       []sideJSON `json:"top_pair,omitempty"`
	PTogetherWins *float64   `json:"p_together_beats_top_pair,omitempty"`
}

// apiCompare serves GET /api/v1/guilds/{guild}/players/{a}/compare/{b}
// (query queue, season).
func (s *Server) apiCompare(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	season, err := intParam(q.Get("season"), "season", 1, 1<<30)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	c, err := s.community.Compare(r.Context(), r.PathValue("guild"), r.PathValue("a"), r.PathValue("b"), q.Get("queue"), season)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	side := func(sd community.Side) sideJSON {
		return sideJSON{ID: sd.UserID, Name: sd.Name, Rated: sd.Rated, Rating: sd.Rating, RD: sd.RD, Games: sd.Games,
			Wins: sd.Record.Wins, Losses: sd.Record.Losses, Draws: sd.Record.Draws, Streak: sd.Streak}
	}
	out := compareJSON{Queue: c.Queue.Name, Season: c.Season.Number, A: side(c.A), B: side(c.B),
		Together: recordOf(c.Together), Against: recordOf(c.Against), Last: []meetingJSON{}, PAWins: c.PAWins}
	for _, m := range c.Last {
		out.Last = append(out.Last, meetingJSON{MatchID: m.MatchID, At: m.At, Winner: m.Winner, Result: community.ResultFor(m.Winner, m.TeamA)})
	}
	if len(c.TopPair) == 2 {
		out.TopPair = []sideJSON{side(c.TopPair[0]), side(c.TopPair[1])}
		p := c.PTogetherWins
		out.PTogetherWins = &p
	}
	publicRead(w)
	w.Header().Set("Cache-Control", "no-cache")
	writeJSON(w, http.StatusOK, out)
}

type matchSummaryJSON struct {
	ID     int64     `json:"id"`
	Queue  string    `json:"queue"`
	Season int       `json:"season"`
	State  string    `json:"state"`
	Winner int       `json:"winner"`
	PTeam1 float64   `json:"p_team1"`
	At     time.Time `json:"at"`
	Team1  []string  `json:"team1"`
	Team2  []string  `json:"team2"`
}

type matchPageJSON struct {
	Matches []matchSummaryJSON `json:"matches"`
	// NextBefore is the before of the next (older) page; absent on the last.
	NextBefore int64 `json:"next_before,omitempty"`
}

// apiHistory serves GET /api/v1/guilds/{guild}/matches (query player,
// queue, season, before, limit): rated matches, newest first, paged by
// match ID.
func (s *Server) apiHistory(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	hq := community.HistoryQuery{GuildID: r.PathValue("guild"), Player: q.Get("player"), Queue: q.Get("queue")}
	var err error
	if hq.Season, err = intParam(q.Get("season"), "season", 1, 1<<30); err == nil {
		hq.Limit, err = intParam(q.Get("limit"), "limit", 1, community.MaxPage)
	}
	if err == nil && q.Has("before") {
		hq.Before, err = strconv.ParseInt(q.Get("before"), 10, 64)
		if err != nil || hq.Before < 1 {
			err = ladder.Errorf(ladder.CodeInvalid, "before must be a match ID (a positive whole number), not %q", clipParam(q.Get("before")))
		}
	}
	if err == nil && q.Has("player") && hq.Player == "" {
		err = ladder.Errorf(ladder.CodeInvalid, "player must be a Discord ID, not empty")
	}
	if err == nil {
		hq.From, err = dateParam(q.Get("from"), "from")
	}
	if err == nil {
		hq.To, err = endDateParam(q.Get("to"), "to") // the whole last day
	}
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	p, err := s.community.History(r.Context(), hq)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	out := matchPageJSON{Matches: make([]matchSummaryJSON, len(p.Matches)), NextBefore: p.Older}
	for i, m := range p.Matches {
		out.Matches[i] = summaryOf(m.MatchSummary, m.Queue, m.Season)
	}
	publicRead(w)
	w.Header().Set("Cache-Control", "no-cache")
	writeJSON(w, http.StatusOK, out)
}

func summaryOf(m community.MatchSummary, queue string, season int) matchSummaryJSON {
	out := matchSummaryJSON{ID: m.ID, Queue: queue, Season: season, State: m.State, Winner: m.Winner, PTeam1: m.PTeam1,
		At: m.At, Team1: m.Team1, Team2: m.Team2}
	if out.Team1 == nil {
		out.Team1 = []string{}
	}
	if out.Team2 == nil {
		out.Team2 = []string{}
	}
	return out
}

func clipParam(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

type countJSON struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Matches int    `json:"matches,omitempty"`
	Streak  int    `json:"streak,omitempty"`
}

type upsetJSON struct {
	matchSummaryJSON
	Chance float64 `json:"chance"`
}

type partnershipJSON struct {
	A     string `json:"a"`
	B     string `json:"b"`
	NameA string `json:"name_a"`
	NameB string `json:"name_b"`
	recordJSON
}

type statsJSON struct {
	Queue      string      `json:"queue"`
	Season     int         `json:"season"`
	MostActive []countJSON `json:"most_active"`
	WinStreaks []countJSON `json:"win_streaks"`
	// BestStreaks are the season's longest runs of wins, ended or not.
	BestStreaks  []countJSON       `json:"best_win_streaks"`
	Upsets       []upsetJSON       `json:"upsets"`
	Partnerships []partnershipJSON `json:"partnerships"`
	MinPartner   int               `json:"partnership_min_games"`
	Predictors   []predictorJSON   `json:"predictors"`
	MVPs         []mvpJSON         `json:"mvps"`
	Improved     []improvedJSON    `json:"most_improved"`
	// Hours counts the season's rated matches by weekday (0 Sunday) and
	// UTC hour.
	Hours [7][24]int `json:"hours"`
}

type improvedJSON struct {
	ID    string  `json:"id"`
	Name  string  `json:"name"`
	From  float64 `json:"from"`
	To    float64 `json:"to"`
	Gain  float64 `json:"gain"`
	Games int     `json:"games"`
}

type predictorJSON struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Points  int    `json:"points"`
	Correct int    `json:"correct"`
	Called  int    `json:"called"`
}

type mvpJSON struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	MVPs  int    `json:"mvps"`
	Votes int    `json:"votes"`
}

// apiStats serves GET /api/v1/guilds/{guild}/stats (query queue, season,
// limit: entries per list, default 10).
func (s *Server) apiStats(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	season, err := intParam(q.Get("season"), "season", 1, 1<<30)
	limit := 0
	if err == nil {
		limit, err = intParam(q.Get("limit"), "limit", 1, community.MaxPage)
	}
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	if limit == 0 {
		limit = 10
	}
	st, err := s.community.Stats(r.Context(), r.PathValue("guild"), q.Get("queue"), season, limit)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	out := statsJSON{Queue: st.Queue.Name, Season: st.Season.Number, MostActive: []countJSON{}, WinStreaks: []countJSON{}, BestStreaks: []countJSON{},
		Upsets: []upsetJSON{}, Partnerships: []partnershipJSON{}, MinPartner: community.MinPartnerGames,
		Predictors: []predictorJSON{}, MVPs: []mvpJSON{}, Improved: []improvedJSON{}, Hours: st.Hours}
	for _, p := range st.Improved {
		out.Improved = append(out.Improved, improvedJSON{ID: p.UserID, Name: p.Name, From: p.From, To: p.To, Gain: p.Gain(), Games: p.Games})
	}
	for _, p := range st.Predictors {
		out.Predictors = append(out.Predictors, predictorJSON{ID: p.UserID, Name: p.Name, Points: p.Points, Correct: p.Correct, Called: p.Called})
	}
	for _, p := range st.MVPs {
		out.MVPs = append(out.MVPs, mvpJSON{ID: p.UserID, Name: p.Name, MVPs: p.MVPs, Votes: p.Votes})
	}
	for _, p := range st.Active {
		out.MostActive = append(out.MostActive, countJSON{ID: p.UserID, Name: p.Name, Matches: p.Count})
	}
	for _, p := range st.Streaks {
		out.WinStreaks = append(out.WinStreaks, countJSON{ID: p.UserID, Name: p.Name, Streak: p.Count})
	}
	for _, p := range st.BestStreaks {
		out.BestStreaks = append(out.BestStreaks, countJSON{ID: p.UserID, Name: p.Name, Streak: p.Count})
	}
	for _, u := range st.Upsets {
		out.Upsets = append(out.Upsets, upsetJSON{matchSummaryJSON: summaryOf(u.MatchSummary, st.Queue.Name, st.Season.Number), Chance: u.Chance})
	}
	for _, p := range st.Partnerships {
		out.Partnerships = append(out.Partnerships, partnershipJSON{A: p.A, B: p.B, NameA: p.NameA, NameB: p.NameB, recordJSON: recordOf(p.Record)})
	}
	publicRead(w)
	w.Header().Set("Cache-Control", "no-cache")
	writeJSON(w, http.StatusOK, out)
}
