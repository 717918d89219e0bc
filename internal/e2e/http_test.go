package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/fakediscord"
)

// This file runs ladderbot with DISCORD_TRANSPORT=http: identical
// processes behind a round-robin reverse proxy, sharing nothing but
// PostgreSQL, with the fake Discord POSTing signed interactions to the
// proxy.

// newHTTPProc prepares (does not start) a ladderbot process answering
// HTTP interactions on addr, for fake's application key, on dsn.
func newHTTPProc(t testing.TB, name, dsn string, fake *fakediscord.Server, addr string) *proc {
	p := newProc(t, name, dsn, fake, 0, 1)
	p.env = append(p.env, "DISCORD_TRANSPORT=http", "DISCORD_PUBLIC_KEY="+fake.PublicKeyHex(), "HTTP_ADDR="+addr)
	return p
}

// waitReady waits until the process answers 200 on /readyz at addr: its
// database answers and it knows its application.
func (p *proc) waitReady(ctx context.Context, addr string) {
	p.t.Helper()
	for {
		if !p.running() {
			p.t.Fatalf("%s exited before it was ready:\n%s", p.name, p.tail(30))
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/readyz", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		select {
		case <-ctx.Done():
			p.t.Fatalf("%s: not ready after waiting:\n%s", p.name, p.tail(30))
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// roundRobin is the load balancer of the HTTP processes: each request
// goes to the next backend in turn, through httputil.ReverseProxy. A
// backend that refuses the connection (a dead process: the request never
// reached it) is marked down and the request goes to the next one, as
// nginx's proxy_next_upstream error does; a request that did reach a
// process that then died is not retried (it may have had an effect) and
// answers 502.
type roundRobin struct {
	backends []*url.URL
	down     []atomic.Bool
	next     atomic.Uint64
	proxies  []*httputil.ReverseProxy
	sent     []atomic.Int64 // requests forwarded per backend
}

// refusedKey marks, in a request's context, where the error handler
// records a refused connection.
type refusedKey struct{}

func newRoundRobin(t testing.TB, addrs []string) (*roundRobin, *httptest.Server) {
	rr := &roundRobin{down: make([]atomic.Bool, len(addrs)), sent: make([]atomic.Int64, len(addrs))}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 256
	for _, a := range addrs {
		u := &url.URL{Scheme: "http", Host: a}
		rr.backends = append(rr.backends, u)
		rr.proxies = append(rr.proxies, &httputil.ReverseProxy{
			Rewrite:   func(pr *httputil.ProxyRequest) { pr.SetURL(u) },
			Transport: tr,
			ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
				if errors.Is(err, syscall.ECONNREFUSED) {
					*r.Context().Value(refusedKey{}).(*bool) = true
					return
				}
				w.WriteHeader(http.StatusBadGateway)
			},
		})
	}
	srv := httptest.NewServer(rr)
	t.Cleanup(srv.Close)
	return rr, srv
}

// ServeHTTP forwards r to the next live backend.
func (rr *roundRobin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	for range len(rr.backends) {
		i := int(rr.next.Add(1) % uint64(len(rr.backends)))
		if rr.down[i].Load() {
			continue
		}
		refused := false
		in := r.Clone(context.WithValue(r.Context(), refusedKey{}, &refused))
		in.Body, in.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		rr.sent[i].Add(1)
		rr.proxies[i].ServeHTTP(w, in)
		if !refused {
			return
		}
		rr.down[i].Store(true)
	}
	w.WriteHeader(http.StatusBadGateway)
}

// startHTTPProcs starts n http-mode processes on dsn behind a round-robin
// proxy the fake POSTs interactions to, and waits until they are ready
// and the commands are registered.
func startHTTPProcs(t testing.TB, ctx context.Context, dsn string, fake *fakediscord.Server, n int) ([]*proc, *roundRobin) {
	t.Helper()
	var procs []*proc
	var addrs []string
	for i := range n {
		addr := freeAddr(t)
		p := newHTTPProc(t, fmt.Sprintf("http%d", i), dsn, fake, addr)
		p.start()
		procs, addrs = append(procs, p), append(addrs, addr)
	}
	for i, p := range procs {
		p.waitReady(ctx, addrs[i])
	}
	waitCommands(t, ctx, fake, procs...)
	rr, srv := newRoundRobin(t, addrs)
	fake.SetInteractionsEndpoint(srv.URL + "/interactions")
	return procs, rr
}

// TestHTTPScaleOut runs three DISCORD_TRANSPORT=http processes on one
// PostgreSQL database behind a round-robin proxy and sends the load's
// interactions (2,000 by default; LADDERBOT_E2E_INTERACTIONS changes it)
// through it, killing one process with SIGKILL halfway. Afterwards:
// every acknowledged result stored once and nothing rated twice
// (checkLedger, which runs `ladderbot verify`), no interaction answered
// twice or refused by Discord, a sample of answered interactions
// redelivered through the proxy (to any process) and refused as already
// handled, and each scheduled job period run by one process.
func TestHTTPScaleOut(t *testing.T) {
	needPostgres(t)
	ctx := testCtx(t, 6*time.Minute)
	dsn := freshDSN(t, "postgres")
	fake := startFake(t)
	procs, rr := startHTTPProcs(t, ctx, dsn, fake, 3)
	if st := fake.Gateway(); st.Identifies != 0 {
		t.Errorf("Got(gateway identifies) = %d, want 0: http processes open no gateway", st.Identifies)
	}

	l := newLoad(t, fake, dsn, 4, 16, 1)
	l.wait = 8 * time.Second
	target := loadTarget(t, 2000)
	half := make(chan struct{})
	var once sync.Once
	l.onSent = func(n int64) {
		if n >= target/2 {
			once.Do(func() { close(half) })
		}
	}
	killed := make(chan struct{})
	go func() {
		defer close(killed)
		select {
		case <-half:
			procs[1].kill()
		case <-ctx.Done():
		}
	}()
	start := time.Now()
	l.run(ctx, target)
	elapsed := time.Since(start)
	<-killed
	t.Logf("load: %s in %s (%.0f interactions/s); forwarded per process %d/%d/%d", l.summary(), elapsed.Round(time.Millisecond),
		float64(l.sent.Load())/elapsed.Seconds(), rr.sent[0].Load(), rr.sent[1].Load(), rr.sent[2].Load())
	if l.sent.Load() < target {
		t.Errorf("Got(interactions sent) = %d, want %d before the deadline", l.sent.Load(), target)
	}
	if !rr.down[1].Load() {
		t.Errorf("Got(killed process marked down by the proxy) = false, want true: the load did not go on past the kill")
	}
	l.mu.Lock()
	if n := l.classes[classInternal]; n > 0 {
		t.Errorf("Got(internal errors) = %d, want 0: a killed peer is not an internal error; e.g. %q", n, l.samples[classInternal])
	}
	// Only interactions in flight at the kill may fail or stay unanswered.
	if n := l.classes[classFailed] + l.classes[classTimeout]; n > 64 {
		t.Errorf("Got(failed or unanswered interactions) = %d, want only those in flight at the kill (at most 64 for 64 players)", n)
	}
	l.mu.Unlock()

	checkRedeliveries(t, ctx, fake, 200)

	// Let both survivors' cron fire the every-minute jobs at one instant.
	next := time.Now().Truncate(time.Minute).Add(time.Minute + 5*time.Second)
	t.Logf("waiting %s for a minute boundary with two schedulers running", time.Until(next).Round(time.Second))
	select {
	case <-time.After(time.Until(next)):
	case <-ctx.Done():
	}
	for _, p := range procs {
		p.stop()
	}
	checkCallbacks(t, fake, false)
	checkLedger(t, l, dsn)
	checkJobs(t, l, map[string]int{"stale": 1, "confirm": 2, "queue-expiry": 2, "seasons": 2}, procs...)
}

// checkRedeliveries redelivers up to n answered interactions, as Discord
// retrying would, through whatever the fake's endpoint is: each must be
// refused (409) and get no second callback.
func checkRedeliveries(t *testing.T, ctx context.Context, fake *fakediscord.Server, n int) {
	t.Helper()
	done := 0
	for _, ix := range fake.Interactions() {
		if done == n {
			break
		}
		if len(ix.Callbacks) != 1 {
			continue
		}
		done++
		status, err := fake.Pending(ix.ID).Redeliver(ctx)
		if err != nil || status != http.StatusConflict {
			t.Errorf("interaction %s (%s%s): Got(redelivery) = %d, %v, want 409", ix.ID, ix.Command, ix.CustomID, status, err)
		}
	}
	if done < n {
		t.Errorf("Got(answered interactions to redeliver) = %d, want %d", done, n)
	}
}
