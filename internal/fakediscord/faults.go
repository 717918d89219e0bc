package fakediscord

import (
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"time"
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

// GatewaySilence is how a gateway connection that SilenceGateway makes
// silent behaves.
type GatewaySilence int

const (
	// SilentHello accepts the websocket and never sends Hello.
	SilentHello GatewaySilence = iota + 1
	// SilentReady sends Hello, then never answers the identify or the
	// resume: no READY, no RESUMED, no heartbeat ACK.
	SilentReady
)

// SilenceGateway makes the next gateway connections, one per fault given,
// hang as a gateway in trouble does: the connection is accepted, then the
// answer the client waits for never comes. It stays open until the client
// closes it.
func (s *Server) SilenceGateway(faults ...GatewaySilence) {
	s.mu.Lock()
	s.silent = append(s.silent, faults...)
	s.mu.Unlock()
}

// SilenceGatewayUntil makes every gateway connection accepted before t
// silent with fault, however many the client dials: an outage of a known
// length, where SilenceGateway's count of connections gives one whose
// length depends on the client's backoff (and on how many reconnect loops
// it runs at once). A connection accepted before t stays silent after it
// until the client closes it.
func (s *Server) SilenceGatewayUntil(t time.Time, fault GatewaySilence) {
	s.mu.Lock()
	s.silentUntil, s.silentUntilFault = t, fault
	s.mu.Unlock()
}

// nextSilence takes the fault of a new gateway connection; 0 is none.
func (s *Server) nextSilence() GatewaySilence {
	s.mu.Lock()
	defer s.mu.Unlock()
	if time.Now().Before(s.silentUntil) {
		s.silenced++
		s.notify()
		return s.silentUntilFault
	}
	if len(s.silent) == 0 {
		return 0
	}
	f := s.silent[0]
	s.silent = s.silent[1:]
	s.silenced++
	s.notify()
	return f
}

// restFaults is SetRESTFaults' state.
type restFaults struct {
	share429, share500 float64
	retryAfter         time.Duration
	rng                *rand.Rand
	n429, n500         int
}

// SetRESTFaults makes a random share of the bot's REST calls fail as
// Discord does under load: share429 of them answer 429 with retry_after
// (a shared, non-global limit, with Discord's body and headers), share500
// answer 500 Internal Server Error, drawn from a generator seeded with
// seed. Interaction callbacks and follow-ups (/interactions/, /webhooks/),
// command registration (/applications/) and the gateway's URL are spared:
// a lost callback cannot be told from a dead process, and the tests that
// need those cut use FailNext and LoseResponses. Zero shares turn it off.
func (s *Server) SetRESTFaults(share429, share500 float64, retryAfter time.Duration, seed uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.restFaults = restFaults{share429: share429, share500: share500, retryAfter: retryAfter,
		rng: rand.New(rand.NewPCG(seed, 429)), n429: s.restFaults.n429, n500: s.restFaults.n500}
}

// RESTFaults counts the 429s and 500s SetRESTFaults has answered.
func (s *Server) RESTFaults() (n429, n500 int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.restFaults.n429, s.restFaults.n500
}

// randomFault answers r with a random 429 or 500 under SetRESTFaults and
// reports whether it did.
func (s *Server) randomFault(w http.ResponseWriter, r *http.Request) bool {
	p := r.URL.Path
	if strings.Contains(p, "/interactions/") || strings.Contains(p, "/webhooks/") || strings.Contains(p, "/applications/") || strings.HasSuffix(p, "/gateway") || strings.HasSuffix(p, "/gateway/bot") || isOAuthPath(p) {
		return false
	}
	s.mu.Lock()
	f := &s.restFaults
	status := 0
	if f.rng != nil {
		switch x := f.rng.Float64(); {
		case x < f.share429:
			status = http.StatusTooManyRequests
			f.n429++
		case x < f.share429+f.share500:
			status = http.StatusInternalServerError
			f.n500++
		}
	}
	retry := f.retryAfter
	s.mu.Unlock()
	switch status {
	case 0:
		return false
	case http.StatusTooManyRequests:
		secs := retry.Seconds()
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(secs))))
		w.Header().Set("X-RateLimit-Scope", "shared")
		s.log(r, status, false)
		writeJSON(w, status, map[string]any{"message": "You are being rate limited.", "retry_after": secs, "global": false})
	default:
		s.log(r, status, false)
		httpError(w, status, "500: Internal Server Error")
	}
	return true
}
