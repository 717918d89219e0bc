package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestHealthz(t *testing.T) {
	s := New(Options{})
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"ok"`) {
		t.Errorf("Got(GET /healthz) = %d %s, want 200 ok", rec.Code, rec.Body)
	}
}

func TestReadyz(t *testing.T) {
	down := errors.New("connection refused")
	tests := []struct {
		name     string
		ping     func(context.Context) error
		gateway  func() bool
		want     int
		wantBody string
	}{
		{"database up, no bot", func(context.Context) error { return nil }, nil, 200, `"gateway":"off"`},
		{"database down", func(context.Context) error { return down }, nil, 503, `"database":"unreachable"`},
		{"gateway connected", func(context.Context) error { return nil }, func() bool { return true }, 200, `"gateway":"ok"`},
		{"gateway not connected", func(context.Context) error { return nil }, func() bool { return false }, 503, `"gateway":"not connected"`},
		{"ping honours the deadline", func(ctx context.Context) error {
			if _, ok := ctx.Deadline(); !ok {
				return errors.New("no deadline")
			}
			return nil
		}, nil, 200, `"database":"ok"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(Options{Ping: tt.ping, GatewayReady: tt.gateway})
			rec := httptest.NewRecorder()
			s.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/readyz", nil))
			if rec.Code != tt.want || !strings.Contains(rec.Body.String(), tt.wantBody) {
				t.Errorf("Got(GET /readyz) = %d %s, want %d with %s", rec.Code, rec.Body, tt.want, tt.wantBody)
			}
		})
	}
}

func TestMetricsEndpoint(t *testing.T) {
	m := NewMetrics()
	m.ObserveInteraction("queue", "ok", 40*time.Millisecond)
	m.ObserveInteraction("report", "invalid", 2*time.Second)
	m.SetQueueSize("g1", "2v2", 3)
	m.MatchesFormed("g1", "2v2", 2)
	m.ObserveJob("stale", "ok", time.Second)
	s := New(Options{Metrics: m})
	s.Handler().ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/healthz", nil))
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 {
		t.Fatalf("Got(GET /metrics) = %d, want 200", rec.Code)
	}
	body := rec.Body.String()
	for _, want := range []string{
		`ladderbot_interactions_total{cmd="queue",outcome="ok"} 1`,
		`ladderbot_interactions_total{cmd="report",outcome="invalid"} 1`,
		`ladderbot_interaction_ack_seconds_bucket{cmd="queue",le="0.05"} 1`,
		`ladderbot_interaction_ack_seconds_bucket{cmd="report",le="1"} 0`,
		`ladderbot_queue_entries{guild_id="g1",queue="2v2"} 3`,
		`ladderbot_matches_formed_total{guild_id="g1",queue="2v2"} 2`,
		`ladderbot_job_runs_total{job="stale",outcome="ok"} 1`,
		`ladderbot_http_requests_total{code="200",route="GET /healthz"} 1`,
		`go_goroutines`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("Got(/metrics) lacks %q", want)
		}
	}
}

func TestNilMetricsIsSafe(t *testing.T) {
	var m *Metrics
	m.ObserveInteraction("x", "ok", time.Second)
	m.SetQueueSize("g", "q", 1)
	m.MatchesFormed("g", "q", 1)
	m.ObserveJob("j", "ok", time.Second)
	if err := m.RegisterDB(nil); err != nil {
		t.Errorf("Got(nil.RegisterDB) = %v, want nil", err)
	}
	rec := httptest.NewRecorder()
	New(Options{}).Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != http.StatusNotFound {
		t.Errorf("Got(GET /metrics without metrics) = %d, want 404", rec.Code)
	}
}

func TestDecodeJSON(t *testing.T) {
	type body struct {
		Team1 []string `json:"team1"`
		N     int      `json:"n"`
	}
	tests := []struct {
		name        string
		contentType string
		body        string
		want        int // 0: decodes
	}{
		{"valid", "application/json", `{"team1":["a"],"n":2}`, 0},
		{"valid with charset", "application/json; charset=utf-8", `{"n":2}`, 0},
		{"no content type", "", `{"n":2}`, 0},
		{"unknown field", "application/json", `{"n":2,"x":1}`, 400},
		{"two values", "application/json", `{"n":2}{"n":3}`, 400},
		{"trailing garbage", "application/json", `{"n":2} x`, 400},
		{"empty", "application/json", ``, 400},
		{"truncated", "application/json", `{"n":`, 400},
		{"syntax", "application/json", `{n:2}`, 400},
		{"wrong type", "application/json", `{"n":"two"}`, 400},
		{"not an object", "application/json", `[1]`, 400},
		{"wrong content type", "text/plain", `{"n":2}`, 415},
		{"too large", "application/json", `{"team1":["` + strings.Repeat("a", 200) + `"]}`, 413},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/", strings.NewReader(tt.body))
			if tt.contentType != "" {
				r.Header.Set("Content-Type", tt.contentType)
			}
			r.Body = http.MaxBytesReader(httptest.NewRecorder(), r.Body, 100)
			var v body
			err := decodeJSON(r, &v)
			got := 0
			if err != nil {
				got, _ = statusOf(err)
			}
			if got != tt.want {
				t.Errorf("Got(decodeJSON(%s)) = %d (%v), want %d", tt.body, got, err, tt.want)
			}
		})
	}
}

func TestRateLimiter(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := newRateLimiter(2, 3, func() time.Time { return now })
	for i := range 3 {
		if !allowed(l, "a") {
			t.Fatalf("Got(allow #%d within burst) = false, want true", i+1)
		}
	}
	if ok, wait := l.allow("a"); ok || wait != 500*time.Millisecond {
		t.Errorf("Got(allow after burst) = %v, %v, want false, 500ms (one token at 2/s)", ok, wait)
	}
	now = now.Add(200 * time.Millisecond)
	if ok, wait := l.check("a"); ok || wait != 300*time.Millisecond {
		t.Errorf("Got(check 200ms later) = %v, %v, want false, 300ms", ok, wait)
	}
	now = now.Add(-200 * time.Millisecond)
	if !allowed(l, "b") {
		t.Errorf("Got(allow for another key) = false, want true")
	}
	now = now.Add(500 * time.Millisecond) // refills one token at 2/s
	if !allowed(l, "a") {
		t.Errorf("Got(allow after refill) = false, want true")
	}
	if allowed(l, "a") {
		t.Errorf("Got(second allow after one refill) = true, want false")
	}
	now = now.Add(2 * time.Minute)
	l.allow("c")
	if _, ok := l.buckets["a"]; ok {
		t.Errorf("Got(bucket of idle key kept) = true, want dropped")
	}
}

// allowed is allow's verdict alone.
func allowed(l *rateLimiter, key string) bool {
	ok, _ := l.allow(key)
	return ok
}

func TestRetryAfter(t *testing.T) {
	for d, want := range map[time.Duration]string{0: "1", time.Millisecond: "1", time.Second: "1", 1001 * time.Millisecond: "2", 90 * time.Second: "90"} {
		if got := retryAfter(d); got != want {
			t.Errorf("Got(retryAfter(%v)) = %s, want %s", d, got, want)
		}
	}
}

func TestPanicIsA500WithReference(t *testing.T) {
	var logBuf bytes.Buffer
	s := New(Options{Log: newTestLogger(&logBuf)})
	h := s.observe(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { panic("boom") }))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/x", nil))
	var got errorBody
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || rec.Code != 500 {
		t.Fatalf("Got(panicking handler) = %d %q, want 500 JSON", rec.Code, rec.Body)
	}
	if !strings.HasPrefix(got.Error, "internal error (ref ") || strings.Contains(got.Error, "boom") {
		t.Errorf("Got(error) = %q, want a reference and no details", got.Error)
	}
	ref := strings.TrimSuffix(strings.TrimPrefix(got.Error, "internal error (ref "), ")")
	if log := logBuf.String(); !strings.Contains(log, "boom") || !strings.Contains(log, ref) {
		t.Errorf("Got(log) = %q, want the panic and ref %s", log, ref)
	}
}

func TestGracefulShutdown(t *testing.T) {
	s := New(Options{})
	started, release := make(chan struct{}), make(chan struct{})
	mux := http.NewServeMux()
	mux.Handle("/", s.handler)
	mux.HandleFunc("GET /slow", func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-release
		io.WriteString(w, "done")
	})
	s.handler = mux
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := &closeListener{Listener: inner, closed: make(chan struct{})}
	ctx, cancel := context.WithCancel(t.Context())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln) }()
	got := make(chan string, 1)
	go func() {
		resp, err := http.Get("http://" + ln.Addr().String() + "/slow")
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		got <- string(b)
	}()
	<-started
	cancel()
	<-ln.closed // Shutdown closes the listener before it waits for requests
	if _, err := net.Dial("tcp", ln.Addr().String()); err == nil {
		t.Errorf("Got(dial after shutdown began) = connected, want refused")
	}
	close(release)
	if body := <-got; body != "done" {
		t.Errorf("Got(in-flight request during shutdown) = %q, want done", body)
	}
	if err := <-served; err != nil {
		t.Errorf("Got(Serve after shutdown) = %v, want nil", err)
	}
}

func TestRequestLogLevels(t *testing.T) {
	var buf bytes.Buffer
	s := New(Options{Log: newTestLogger(&buf)})
	h := s.observe(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/bad":
			writeJSONError(w, r, errStatus(http.StatusBadRequest, "no"))
		case "/boom":
			writeJSONError(w, r, errors.New("disk on fire"))
		case "/gone":
			writeJSONError(w, r, fmt.Errorf("storage: board: %w", context.Canceled))
		default:
			io.WriteString(w, "ok")
		}
	}))
	tests := []struct {
		method, path string
		want         string
	}{
		{"GET", "/ok", "level=DEBUG"},
		{"HEAD", "/ok", "level=DEBUG"},
		{"POST", "/ok", "level=INFO"},
		{"GET", "/bad", "level=INFO"},
		{"GET", "/gone", "level=WARN"},
		{"GET", "/boom", "level=ERROR"},
	}
	for _, tt := range tests {
		buf.Reset()
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(tt.method, tt.path, nil))
		line := buf.String()
		if strings.Count(line, "\n") != 1 || !strings.Contains(line, tt.want) || !strings.Contains(line, "path="+tt.path) {
			t.Errorf("Got(log of %s %s) = %q, want one line at %s", tt.method, tt.path, line, tt.want)
		}
	}
	if !strings.Contains(buf.String(), `err="disk on fire"`) || !strings.Contains(buf.String(), "ref=") {
		t.Errorf("Got(log of a 500) = %q, want the error and its reference", buf.String())
	}
}

// closeListener closes closed when the server closes it, so a test can
// wait for that instead of sleeping.
type closeListener struct {
	net.Listener
	once   sync.Once
	closed chan struct{}
}

func (l *closeListener) Close() error {
	err := l.Listener.Close()
	l.once.Do(func() { close(l.closed) })
	return err
}
