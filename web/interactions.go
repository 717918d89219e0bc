package web

import "net/http"

// MountInteractions serves Discord's HTTP interactions on POST
// /interactions (docs/spec.md 10) with h, the bot's handler, when this
// process answers them (DISCORD_TRANSPORT=http); nil mounts nothing. Call
// it before serving. The handler checks the signature before it reads
// anything; the server's request log, metrics and panic recovery apply to
// it like to any route. It needs no API token: the Ed25519 signature is
// the authentication.
func (s *Server) MountInteractions(h http.Handler) {
	if h != nil {
		s.mux.Handle("POST /interactions", h)
	}
}
