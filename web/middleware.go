package web

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"time"
)

// reqInfo collects what the single log line of a request reports; handlers
// add to it through the request context.
type reqInfo struct {
	err     error
	ref     string
	tokenID string
}

type reqInfoKey struct{}

func infoOf(r *http.Request) *reqInfo {
	ri, _ := r.Context().Value(reqInfoKey{}).(*reqInfo)
	return ri
}

// noteError records err (and the reference shown to the client) for the
// request's log line.
func noteError(r *http.Request, err error, ref string) {
	if ri := infoOf(r); ri != nil {
		ri.err, ri.ref = err, ref
	}
}

// statusWriter remembers the status code and size of a response.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// observe wraps the whole mux: it recovers panics into a 500, limits request
// bodies, and logs each request once and counts it in the metrics.
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		ri := &reqInfo{}
		r = r.WithContext(context.WithValue(r.Context(), reqInfoKey{}, ri))
		sw := &statusWriter{ResponseWriter: w}
		if r.Body != nil {
			r.Body = http.MaxBytesReader(sw, r.Body, s.maxBody)
		}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				ri.err = fmt.Errorf("web: panic: %v\n%s", p, debug.Stack())
				if sw.status == 0 {
					ri.ref = newRef()
					writeJSON(sw, http.StatusInternalServerError, errorBody{Error: "internal error (ref " + ri.ref + ")"})
				}
			}
			d := time.Since(start)
			route := r.Pattern
			if route == "" {
				route = "unmatched"
			}
			s.metrics.observeHTTP(route, sw.status, d)
			s.logRequest(r, sw, ri, d)
		}()
		if err := checkRequestText(r); err != nil {
			if strings.HasPrefix(r.URL.Path, "/api/") {
				writeJSONError(sw, r, err)
			} else {
				s.pageError(sw, r, err)
			}
			return
		}
		next.ServeHTTP(sw, r)
	})
}

// logRequest writes the request's one log line. Successful reads (GET and
// HEAD below 400: pages, API reads, probes, scrapes) log at debug, since at
// thousands of leaderboard reads a second an info line each would cost more
// than serving them (it took p99 from 3 ms to 25 ms at 5,000 req/s);
// writes and client errors log at info, 503s (database down, cancelled
// requests) at warn, other server errors at error.
func (s *Server) logRequest(r *http.Request, sw *statusWriter, ri *reqInfo, d time.Duration) {
	if sw.status == 0 {
		sw.status = http.StatusOK
	}
	level := slog.LevelInfo
	switch {
	case sw.status == http.StatusServiceUnavailable:
		level = slog.LevelWarn
	case sw.status >= 500:
		level = slog.LevelError
	case sw.status < 400 && (r.Method == http.MethodGet || r.Method == http.MethodHead):
		level = slog.LevelDebug
	}
	if !s.log.Enabled(r.Context(), level) {
		return
	}
	attrs := []slog.Attr{
		slog.String("method", r.Method),
		slog.String("path", r.URL.Path),
		slog.Int("status", sw.status),
		slog.Int("bytes", sw.bytes),
		slog.Float64("duration_ms", float64(d.Microseconds())/1000),
		slog.String("remote", r.RemoteAddr),
	}
	if g := r.PathValue("guild"); g != "" {
		attrs = append(attrs, slog.String("guild_id", g))
	}
	if ri.tokenID != "" {
		attrs = append(attrs, slog.String("token", ri.tokenID))
	}
	if ri.err != nil {
		attrs = append(attrs, slog.String("err", ri.err.Error()))
	}
	if ri.ref != "" {
		attrs = append(attrs, slog.String("ref", ri.ref))
	}
	s.log.LogAttrs(r.Context(), level, "http request", attrs...)
}
