package web

import (
	"net/http"
	"strconv"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/ladder"
)

// The integrity flags for moderators' tools: listed and dismissed with a
// bearer token of the guild, through the same service /mod integrity uses.

type flagJSON struct {
	ID            int64     `json:"id"`
	Kind          string    `json:"kind"`
	Players       []string  `json:"players"`
	Evidence      string    `json:"evidence"`
	Matches       []int64   `json:"matches"`
	Score         float64   `json:"score"`
	QueueID       int64     `json:"queue_id"`
	SeasonID      int64     `json:"season_id"`
	RaisedAt      time.Time `json:"raised_at"`
	Posted        bool      `json:"posted"`
	DismissedBy   string    `json:"dismissed_by,omitempty"`
	DismissReason string    `json:"dismiss_reason,omitempty"`
}

func flagOf(f integrity.Flag) flagJSON {
	// The API speaks English: the evidence is its English text.
	out := flagJSON{ID: f.ID, Kind: f.Kind, Players: f.Subjects, Evidence: commands.EvidenceText(i18n.English(), f.Evidence), Matches: f.Matches, Score: f.Score,
		QueueID: f.QueueID, SeasonID: f.SeasonID, RaisedAt: f.RaisedAt, Posted: f.Posted, DismissedBy: f.DismissedBy, DismissReason: f.DismissReason}
	if out.Matches == nil {
		out.Matches = []int64{}
	}
	return out
}

func (s *Server) integrityRoutes(mux *http.ServeMux, g string) {
	if s.integrity == nil {
		return
	}
	mux.HandleFunc("GET "+g+"/admin/integrity", s.authed(s.apiIntegrity))
	mux.HandleFunc("POST "+g+"/admin/integrity/{id}/dismiss", s.authed(s.apiDismissFlag))
}

// apiIntegrity serves GET /api/v1/guilds/{guild}/admin/integrity (query
// all=true lists dismissed flags too; limit, default 50).
func (s *Server) apiIntegrity(w http.ResponseWriter, r *http.Request, _ ladder.Token) {
	q := r.URL.Query()
	limit, err := intParam(q.Get("limit"), "limit", 1, 500)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	if limit == 0 {
		limit = 50
	}
	fs, err := s.integrity.Flags(r.Context(), r.PathValue("guild"), q.Get("all") == "true", limit)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	out := struct {
		Flags []flagJSON `json:"flags"`
	}{Flags: []flagJSON{}}
	for _, f := range fs {
		out.Flags = append(out.Flags, flagOf(f))
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, out)
}

// apiDismissFlag serves POST /api/v1/guilds/{guild}/admin/integrity/{id}/dismiss
// with {"reason"}; the audit log names the token.
func (s *Server) apiDismissFlag(w http.ResponseWriter, r *http.Request, tok ladder.Token) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		writeJSONError(w, r, ladder.Errorf(ladder.CodeInvalid, "flag must be a positive number, not %q", clipParam(r.PathValue("id"))))
		return
	}
	var req struct {
		Reason string `json:"reason"`
	}
	if err := decodeOptionalJSON(r, &req); err != nil {
		writeJSONError(w, r, err)
		return
	}
	f, err := s.integrity.Dismiss(r.Context(), tokenActor(tok), r.PathValue("guild"), id, req.Reason)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, flagOf(f))
}
