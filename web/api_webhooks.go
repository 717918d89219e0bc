package web

import (
	"net/http"
	"strconv"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// The webhook endpoints of outgoing webhooks (docs/spec.md 10): add, list and
// delete a guild's outgoing webhooks. All need a bearer token of the guild.

// recentAttempts is how many delivery attempts GET shows per webhook.
const recentAttempts = 20

// webhookRequest is the body of POST …/webhooks.
type webhookRequest struct {
	URL    string   `json:"url"`
	Events []string `json:"events"`
}

// webhookJSON describes a webhook; Secret is set only in the answer to POST.
type webhookJSON struct {
	ID        int64              `json:"id"`
	URL       string             `json:"url"`
	Events    []ladder.EventType `json:"events"`
	Secret    string             `json:"secret,omitempty"`
	CreatedBy string             `json:"created_by"`
	CreatedAt time.Time          `json:"created_at"`
	// Deliveries is the latest attempts, newest first (GET only).
	Deliveries []attemptJSON `json:"deliveries,omitempty"`
}

// attemptJSON is one line of the delivery log.
type attemptJSON struct {
	EventID    string           `json:"event_id"`
	Type       ladder.EventType `json:"type"`
	At         time.Time        `json:"at"`
	Status     int              `json:"status"`
	Error      string           `json:"error,omitempty"`
	DurationMS int64            `json:"duration_ms"`
}

func webhookOf(w ladder.Webhook) webhookJSON {
	return webhookJSON{ID: w.ID, URL: w.URL, Events: w.Events, Secret: w.Secret, CreatedBy: w.CreatedBy, CreatedAt: w.CreatedAt}
}

// apiCreateWebhook serves POST /api/v1/guilds/{guild}/webhooks and answers
// 201 with the webhook and its secret, shown this once.
func (s *Server) apiCreateWebhook(w http.ResponseWriter, r *http.Request, tok ladder.Token) {
	var req webhookRequest
	if err := decodeJSON(r, &req); err != nil {
		writeJSONError(w, r, err)
		return
	}
	hook, err := s.svc.CreateWebhook(r.Context(), tokenActor(tok), r.PathValue("guild"), req.URL, req.Events, s.webhooks)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusCreated, webhookOf(hook))
}

// apiWebhooks serves GET /api/v1/guilds/{guild}/webhooks: every webhook
// with its latest delivery attempts, without secrets.
func (s *Server) apiWebhooks(w http.ResponseWriter, r *http.Request, tok ladder.Token) {
	ws, err := s.svc.Webhooks(r.Context(), r.PathValue("guild"), recentAttempts)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	out := struct {
		Webhooks []webhookJSON `json:"webhooks"`
	}{Webhooks: make([]webhookJSON, len(ws))}
	for i, st := range ws {
		j := webhookOf(st.Webhook)
		for _, a := range st.Recent {
			j.Deliveries = append(j.Deliveries, attemptJSON{EventID: a.EventID, Type: a.EventType, At: a.At,
				Status: a.Status, Error: a.Error, DurationMS: a.Duration.Milliseconds()})
		}
		out.Webhooks[i] = j
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, out)
}

// apiDeleteWebhook serves DELETE /api/v1/guilds/{guild}/webhooks/{id}: 204,
// or 404 when the guild has no such webhook.
func (s *Server) apiDeleteWebhook(w http.ResponseWriter, r *http.Request, tok ladder.Token) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		writeJSONError(w, r, ladder.Errorf(ladder.CodeNotFound, "no webhook %q in this guild", r.PathValue("id")))
		return
	}
	if err := s.svc.DeleteWebhook(r.Context(), tokenActor(tok), r.PathValue("guild"), id); err != nil {
		writeJSONError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
