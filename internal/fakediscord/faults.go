package fakediscord

import (
	"net/http"
	"net/http/httptest"
	"strings"
)

// LoseResponses makes the next n REST requests whose path contains substr
// take effect and then lose their answer: the connection is cut before a
// response is written, as when Discord made a channel but the bot crashed,
// timed out or lost the network before hearing so.
func (s *Server) LoseResponses(substr string, n int) {
	s.mu.Lock()
	s.lost = append(s.lost, failure{substr: substr, n: n})
	s.mu.Unlock()
}

// loses reports whether the request to path is one whose answer is lost.
func (s *Server) loses(path string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.lost {
		if f := &s.lost[i]; f.n > 0 && strings.Contains(path, f.substr) {
			f.n--
			return true
		}
	}
	return false
}

// serveLost runs the request, drops its answer and cuts the connection.
func (s *Server) serveLost(w http.ResponseWriter, r *http.Request, next http.Handler) {
	rec := httptest.NewRecorder()
	next.ServeHTTP(rec, r)
	s.log(r, 0, false)
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic("fakediscord: the connection cannot be cut")
	}
	conn, _, err := hj.Hijack()
	if err == nil {
		conn.Close()
	}
}
