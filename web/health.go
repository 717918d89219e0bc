package web

import (
	"context"
	"net/http"
	"time"
)

// healthz answers 200 while the process can serve HTTP at all (liveness).
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readyz answers 200 when the database answers a ping within 2 s and the
// Discord gateway, if this process runs one, is connected; otherwise 503
// with what is not ready (readiness, docs/spec.md 7).
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	body := map[string]string{"status": "ok", "database": "ok", "gateway": "off"}
	status := http.StatusOK
	if s.ping == nil {
		body["database"] = "off"
	} else {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		err := s.ping(ctx)
		cancel()
		if err != nil {
			noteError(r, err, "")
			body["database"] = "unreachable"
			status = http.StatusServiceUnavailable
		}
	}
	if s.gateway != nil {
		body["gateway"] = "ok"
		if !s.gateway() {
			body["gateway"] = "not connected"
			status = http.StatusServiceUnavailable
		}
	}
	if status != http.StatusOK {
		body["status"] = "not ready"
	}
	writeJSON(w, status, body)
}
