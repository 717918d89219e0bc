package jobs

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// counter is an httptest server that counts its requests and answers with h.
func counter(t *testing.T, h http.HandlerFunc) (*httptest.Server, *atomic.Int64) {
	var n atomic.Int64
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s, &n
}

// TestWebhookClientDialCheck shows the address rule applied at dial time,
// on the address a name resolves to: "localhost" passes every URL-level
// check a name can, yet without WEBHOOK_ALLOW_HTTP the dial to 127.0.0.1
// is refused and the server sees nothing. This is what defeats DNS
// rebinding: whatever a name resolves to at the moment of the request is
// what gets checked.
func TestWebhookClientDialCheck(t *testing.T) {
	s, hits := counter(t, func(w http.ResponseWriter, r *http.Request) {})
	port := s.URL[strings.LastIndex(s.URL, ":"):]
	for _, url := range []string{"http://localhost" + port + "/", s.URL + "/"} {
		_, err := webhookClient(ladder.URLPolicy{}, 5*time.Second).Post(url, "application/json", nil)
		if err == nil || !strings.Contains(err.Error(), "refused") {
			t.Errorf("Got(strict POST %s) = %v, want a refused dial", url, err)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("Got(requests through the strict client) = %d, want 0", n)
	}
	resp, err := webhookClient(ladder.URLPolicy{AllowHTTP: true}, 5*time.Second).Post("http://localhost"+port+"/", "application/json", nil)
	if err != nil {
		t.Fatalf("Got(POST with WEBHOOK_ALLOW_HTTP) = %v, want an answer", err)
	}
	resp.Body.Close()
	if n := hits.Load(); n != 1 {
		t.Errorf("Got(requests with WEBHOOK_ALLOW_HTTP) = %d, want 1", n)
	}
}

// TestWebhookClientNoRedirect answers 307 to a second server: the client
// reports the 307 (a failed attempt) and never follows it.
func TestWebhookClientNoRedirect(t *testing.T) {
	target, hits := counter(t, func(w http.ResponseWriter, r *http.Request) {})
	from, _ := counter(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL, http.StatusTemporaryRedirect)
	})
	d := &Deliverer{client: webhookClient(ladder.URLPolicy{AllowHTTP: true}, 5*time.Second), opt: DelivererOptions{Policy: ladder.URLPolicy{AllowHTTP: true}}}
	status, errText := d.post(t.Context(), ladder.Delivery{URL: from.URL, Secret: "s", Body: []byte(`{}`)})
	if status != http.StatusTemporaryRedirect || errText == "" {
		t.Errorf("Got(post to a redirect) = %d %q, want 307 and an error", status, errText)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("Got(requests to the redirect target) = %d, want 0", n)
	}
}

// TestWebhookClientTimeout has a receiver that never answers: the attempt
// ends with an error after the client's timeout instead of hanging.
func TestWebhookClientTimeout(t *testing.T) {
	release := make(chan struct{})
	s, _ := counter(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	// Cleanups run last first: the handler is released before the server closes.
	t.Cleanup(func() { close(release) })
	d := &Deliverer{client: webhookClient(ladder.URLPolicy{AllowHTTP: true}, 50*time.Millisecond), opt: DelivererOptions{Policy: ladder.URLPolicy{AllowHTTP: true}}}
	status, errText := d.post(t.Context(), ladder.Delivery{URL: s.URL, Secret: "s", Body: []byte(`{}`)})
	if status != 0 || errText == "" {
		t.Errorf("Got(post to a silent receiver) = %d %q, want 0 and a timeout error", status, errText)
	}
}

// TestWebhookPolicyAtSend re-checks the URL when sending: a webhook
// created under WEBHOOK_ALLOW_HTTP is not posted once the flag is off.
func TestWebhookPolicyAtSend(t *testing.T) {
	s, hits := counter(t, func(w http.ResponseWriter, r *http.Request) {})
	d := &Deliverer{client: webhookClient(ladder.URLPolicy{}, 5*time.Second)}
	status, errText := d.post(t.Context(), ladder.Delivery{URL: s.URL, Secret: "s", Body: []byte(`{}`)})
	if status != 0 || !strings.Contains(errText, "https") || hits.Load() != 0 {
		t.Errorf("Got(post over http without the flag) = %d %q, %d requests; want refused, none", status, errText, hits.Load())
	}
}

// TestSign checks the signature against a value computed independently
// (printf '{"id":"evt_1"}' | openssl dgst -sha256 -hmac whsec_test).
func TestSign(t *testing.T) {
	got := Sign("whsec_test", []byte(`{"id":"evt_1"}`))
	const want = "sha256=030fa3b2413d1993c551364bd53bb9b3edb5c0c34d55dba6ada6041245632811"
	if got != want {
		t.Errorf("Got(Sign) = %s, want %s", got, want)
	}
}

// TestWebhookErrorsHideTheNetwork: the delivery log, which every holder of
// the guild's API token reads, says why an attempt failed without telling
// what the operator's network looks like: not the address a name resolved
// to when the dial refused it (a token holder could map internal names),
// nor the address of the operator's DNS server when a name does not resolve.
func TestWebhookErrorsHideTheNetwork(t *testing.T) {
	s, hits := counter(t, func(w http.ResponseWriter, r *http.Request) {})
	port := s.URL[strings.LastIndex(s.URL, ":"):]
	// The URL check lets localhost through, as it would a public name that
	// resolves to a refused address; the dial check refuses it.
	d := &Deliverer{client: webhookClient(ladder.URLPolicy{}, 5*time.Second), opt: DelivererOptions{Policy: ladder.URLPolicy{AllowHTTP: true}}}
	status, errText := d.post(t.Context(), ladder.Delivery{URL: "http://localhost" + port + "/", Secret: "s", Body: []byte(`{}`)})
	if status != 0 || !strings.Contains(errText, "not allowed") || strings.Contains(errText, "127.0.0.1") || strings.Contains(errText, "::1") || hits.Load() != 0 {
		t.Errorf("Got(post to a name resolving to loopback) = %d %q, %d requests; want refused without the address, none", status, errText, hits.Load())
	}
	d = &Deliverer{client: webhookClient(ladder.URLPolicy{}, 5*time.Second)}
	status, errText = d.post(t.Context(), ladder.Delivery{URL: "https://ladderbot-test.invalid/hook", Secret: "s", Body: []byte(`{}`)})
	if status != 0 || !strings.Contains(errText, "ladderbot-test.invalid") || strings.Contains(errText, ":53") {
		t.Errorf("Got(post to a name that does not resolve) = %d %q, want the name without the DNS server's address", status, errText)
	}
}
