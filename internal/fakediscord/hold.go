package fakediscord

import (
	"net/http"
	"strings"
	"sync"
)

// Hold is one REST request the fake keeps waiting before it handles it, as
// a slow Discord would, until the test releases it: the way to make a
// worker stop at a known point while something else happens.
type Hold struct {
	method, substr string
	reached        chan struct{}
	release        chan struct{}
	once           sync.Once
}

// HoldNext makes the next request of method whose path contains substr
// wait until Release. Reached is closed once that request arrived.
func (s *Server) HoldNext(method, substr string) *Hold {
	h := &Hold{method: method, substr: substr, reached: make(chan struct{}), release: make(chan struct{})}
	s.mu.Lock()
	s.holds = append(s.holds, h)
	s.mu.Unlock()
	return h
}

// Reached is closed when the held request has arrived.
func (h *Hold) Reached() <-chan struct{} { return h.reached }

// Release lets the held request (or, if it has not come yet, the next
// one) through.
func (h *Hold) Release() { h.once.Do(func() { close(h.release) }) }

// awaitHold blocks r while a hold matches it; the first matching hold is
// used up.
func (s *Server) awaitHold(r *http.Request) {
	s.mu.Lock()
	var h *Hold
	for i, x := range s.holds {
		if x.method == r.Method && strings.Contains(r.URL.Path, x.substr) {
			h = x
			s.holds = append(s.holds[:i:i], s.holds[i+1:]...)
			break
		}
	}
	s.mu.Unlock()
	if h == nil {
		return
	}
	close(h.reached)
	select {
	case <-h.release:
	case <-r.Context().Done():
	}
}
