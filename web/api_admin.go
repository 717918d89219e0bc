package web

import (
	"net/http"

	"github.com/ladderbot/ladderbot/ladder"
)

// The admin endpoints of seed 001's service (docs/spec.md 7): get, set and reset a
// player's rating, and the pool's health. All need a bearer token.

// adminRatingJSON is a player's rating as the admin endpoints show it.
type adminRatingJSON struct {
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	Rating      float64 `json:"rating"`
	RD          float64 `json:"rd"`
	GXE         float64 `json:"gxe"`
	Division    string  `json:"division"`
	Games       int     `json:"games"`
	Provisional bool    `json:"provisional"`
	Stale       bool    `json:"stale"`
}

func adminRatingOf(st ladder.Standing) adminRatingJSON {
	return adminRatingJSON{ID: st.UserID, Name: st.Name, Rating: st.Rating, RD: st.RD, GXE: st.GXE,
		Division: st.Division, Games: st.Games, Provisional: st.Provisional, Stale: st.Stale}
}

// adjustResponse answers a set or reset.
type adjustResponse struct {
	Before adminRatingJSON `json:"before"`
	After  adminRatingJSON `json:"after"`
}

// setRatingRequest is the body of PUT …/admin/players/{id}/rating.
type setRatingRequest struct {
	Rating *float64 `json:"rating"`
	RD     *float64 `json:"rd"`
	Queue  string   `json:"queue"`
	Reason string   `json:"reason"`
}

// resetRatingRequest is the optional body of POST …/admin/players/{id}/rating/reset.
type resetRatingRequest struct {
	Queue  string `json:"queue"`
	Reason string `json:"reason"`
}

// apiAdminGetRating serves GET /api/v1/guilds/{guild}/admin/players/{id}/rating
// (query queue): the current season's rating, also of provisional and stale
// players, and of players without games (the new-player rating).
func (s *Server) apiAdminGetRating(w http.ResponseWriter, r *http.Request, tok ladder.Token) {
	guild, id := r.PathValue("guild"), r.PathValue("id")
	sts, err := s.svc.CurrentStandings(r.Context(), guild, r.URL.Query().Get("queue"), []string{id})
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	st := sts[0]
	names, err := s.svc.PlayerNames(r.Context(), guild, []string{id})
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	st.Name = names[id]
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, adminRatingOf(st))
}

// apiAdminSetRating serves PUT /api/v1/guilds/{guild}/admin/players/{id}/rating
// with {"rating": R, "rd": RD, "queue"?, "reason"?}, in the model's units.
func (s *Server) apiAdminSetRating(w http.ResponseWriter, r *http.Request, tok ladder.Token) {
	var req setRatingRequest
	if err := decodeJSON(r, &req); err != nil {
		writeJSONError(w, r, err)
		return
	}
	if req.Rating == nil || req.RD == nil {
		writeJSONError(w, r, ladder.Errorf(ladder.CodeInvalid, `"rating" and "rd" are required`))
		return
	}
	guild := r.PathValue("guild")
	res, err := s.svc.SetRating(r.Context(), tokenActor(tok), guild, req.Queue, r.PathValue("id"), *req.Rating, *req.RD, req.Reason)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	s.board.invalidate(guild)
	writeJSON(w, http.StatusOK, adjustOf(res))
}

// apiAdminResetRating serves POST /api/v1/guilds/{guild}/admin/players/{id}/rating/reset:
// back to the model's new-player rating and RD; the record stays.
func (s *Server) apiAdminResetRating(w http.ResponseWriter, r *http.Request, tok ladder.Token) {
	var req resetRatingRequest
	if err := decodeOptionalJSON(r, &req); err != nil {
		writeJSONError(w, r, err)
		return
	}
	guild := r.PathValue("guild")
	res, err := s.svc.ResetRating(r.Context(), tokenActor(tok), guild, req.Queue, r.PathValue("id"), req.Reason)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	s.board.invalidate(guild)
	writeJSON(w, http.StatusOK, adjustOf(res))
}

func adjustOf(res ladder.Replayed) adjustResponse {
	before, after := adminRatingOf(res.Before), adminRatingOf(res.After)
	before.ID, after.ID = res.UserID, res.UserID
	before.Name, after.Name = res.Name, res.Name
	return adjustResponse{Before: before, After: after}
}

// healthJSON is the pool health answer (seed 001 F6).
type healthJSON struct {
	Queue       string  `json:"queue"`
	Season      int     `json:"season"`
	Matches     int     `json:"matches"`
	Brier       float64 `json:"brier"`
	Target      float64 `json:"target"`
	MeanAbsEdge float64 `json:"mean_abs_p_minus_half"`
	Accuracy    float64 `json:"accuracy"`
}

// apiAdminHealth serves GET /api/v1/guilds/{guild}/admin/health (query
// queue, n: how many latest rated matches, default 100, at most 5000).
func (s *Server) apiAdminHealth(w http.ResponseWriter, r *http.Request, tok ladder.Token) {
	q := r.URL.Query()
	n, err := intParam(q.Get("n"), "n", 1, 5000)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	h, err := s.svc.PoolHealth(r.Context(), r.PathValue("guild"), q.Get("queue"), n)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, healthJSON{Queue: h.Queue, Season: h.Season, Matches: h.Matches, Brier: h.Brier,
		Target: 0.25, MeanAbsEdge: h.MeanAbsEdge, Accuracy: h.Accuracy})
}
