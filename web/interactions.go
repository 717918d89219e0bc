package web

import "net/http"

// interactionRoutes mounts Discord's HTTP interactions (docs/spec.md 10)
// when this process answers them. The handler (package bot) checks the
// signature before it reads anything; the server's own body limit and
// request log apply to it like to any route. It needs no API token: the
// Ed25519 signature is the authentication.
func (s *Server) interactionRoutes(mux *http.ServeMux) {
	if s.interactions == nil {
		return
	}
	mux.Handle("POST /interactions", s.interactions)
}
