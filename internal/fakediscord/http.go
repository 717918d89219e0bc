package fakediscord

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"
)

// This file holds HTTP interactions: instead of INTERACTION_CREATE on a
// gateway session, the fake POSTs each interaction to an endpoint, signed
// with its own Ed25519 key as Discord signs them, and takes the response
// body as the interaction's one callback. Discord's rules hold: the
// response must come within 3 s, and a second callback (by REST, or the
// response to a redelivery) is refused. Followups and edits go through the
// same webhook REST routes as with the gateway.

// ErrDeliveryFailed is the error of Pending.Result for an interaction whose
// POST failed (no answer in 3 s, a non-200 status, an unreadable body): a
// user would read "This interaction failed".
var ErrDeliveryFailed = errors.New("fakediscord: the interaction's POST failed")

// Delivery is one POST of an interaction to the endpoint.
type Delivery struct {
	Status int    // 0 when no response arrived
	Err    string // why it failed, "" when the response was a valid callback
	At     time.Time
}

// newDeliveryClient is the client of interaction POSTs: Discord's 3 s for
// the response, and kept-alive connections enough for many interactions at
// once, as Discord keeps them (the default two per host would make most
// deliveries of a burst open a new connection).
func newDeliveryClient() *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns = 256
	tr.MaxIdleConnsPerHost = 256
	return &http.Client{Timeout: interactionDeadline, Transport: tr}
}

// PublicKeyHex is the application's public key as the developer portal
// shows it, for DISCORD_PUBLIC_KEY.
func (s *Server) PublicKeyHex() string { return hex.EncodeToString(s.public) }

// Sign returns the X-Signature-Ed25519 header for a body sent with
// X-Signature-Timestamp ts, signed with the fake application's key.
func (s *Server) Sign(ts string, body []byte) string {
	msg := append([]byte(ts), body...)
	return hex.EncodeToString(ed25519.Sign(s.private, msg))
}

// SetInteractionsEndpoint makes the fake deliver every interaction by a
// signed POST to url (the application's Interactions Endpoint URL)
// instead of the gateway; "" goes back to the gateway.
func (s *Server) SetInteractionsEndpoint(url string) {
	s.mu.Lock()
	s.endpoint = url
	s.mu.Unlock()
}

// RouteHTTP limits the interactions endpoint to the guilds named: their
// interactions are POSTed to it, every other guild's go out on the
// gateway, as when some processes of one application answer over HTTP
// and others hold gateway shards. No guilds: every guild uses the
// endpoint again (when one is set).
func (s *Server) RouteHTTP(guildIDs ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(guildIDs) == 0 {
		s.httpGuilds = nil
		return
	}
	s.httpGuilds = map[string]bool{}
	for _, g := range guildIDs {
		s.httpGuilds[g] = true
	}
}

// Post sends body to the interactions endpoint signed as Discord signs it
// and returns the status and response body, without recording anything:
// for PING and for hostile bodies. mutate, when not nil, may change the
// request (headers) before it is sent.
func (s *Server) Post(ctx context.Context, body []byte, mutate func(*http.Request)) (int, []byte, error) {
	resp, err := s.post(ctx, body, mutate)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

// post sends one signed POST to the endpoint.
func (s *Server) post(ctx context.Context, body []byte, mutate func(*http.Request)) (*http.Response, error) {
	s.mu.Lock()
	url := s.endpoint
	s.mu.Unlock()
	if url == "" {
		return nil, errors.New("fakediscord: no interactions endpoint set")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Discord-Interactions/1.0 (+https://discord.com)")
	req.Header.Set("X-Signature-Timestamp", ts)
	req.Header.Set("X-Signature-Ed25519", s.Sign(ts, body))
	if mutate != nil {
		mutate(req)
	}
	return s.client.Do(req)
}

// deliver POSTs ix's payload and applies the response as its callback.
// Webhook calls about ix wait until the response is applied, as they
// would reach Discord only after the response did.
func (s *Server) deliver(ix *Interaction, payload []byte) {
	ctx, cancel := context.WithTimeout(context.Background(), interactionDeadline)
	defer cancel()
	d := Delivery{At: time.Now()}
	status, typ, data, files, err := s.exchange(ctx, payload)
	d.Status = status

	s.mu.Lock()
	if err == nil {
		if st, msg := s.callback(ix, typ, data, files); st != 0 {
			err = fmt.Errorf("callback %d refused: %s", typ, msg)
			ix.Rejected = append(ix.Rejected, fmt.Sprintf("callback %d: %s", typ, msg))
		}
	}
	if err != nil {
		d.Err = err.Error()
	}
	ix.Deliveries = append(ix.Deliveries, d)
	ix.delivering--
	hook := s.callbackHook
	snapshot := *ix
	s.notify()
	s.mu.Unlock()
	if err == nil && hook != nil {
		hook(&snapshot)
	}
}

// exchange sends one delivery and reads its response as a callback.
func (s *Server) exchange(ctx context.Context, payload []byte) (status, typ int, data messagePayload, files []File, err error) {
	resp, err := s.post(ctx, payload, nil)
	if err != nil {
		return 0, 0, data, nil, fmt.Errorf("no response within %s: %w", interactionDeadline, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return resp.StatusCode, 0, data, nil, fmt.Errorf("status %d: %s", resp.StatusCode, bytes.TrimSpace(b))
	}
	var p struct {
		Type int            `json:"type"`
		Data messagePayload `json:"data"`
	}
	files, err = readBody(&http.Request{Header: resp.Header, Body: resp.Body}, &p)
	if err != nil {
		return resp.StatusCode, 0, data, nil, fmt.Errorf("unreadable response: %w", err)
	}
	if p.Type == 0 {
		return resp.StatusCode, 0, data, nil, errors.New("response without a callback type")
	}
	return resp.StatusCode, p.Type, p.Data, files, nil
}

// Redeliver POSTs interaction p again, freshly signed, as Discord does
// when it believes a delivery failed, and waits for the response. A 200
// response is a callback like any other, so a second one is refused and
// recorded in Rejected. It returns the response's status.
func (p *Pending) Redeliver(ctx context.Context) (int, error) {
	s := p.s
	s.mu.Lock()
	ix := s.interactions[p.ID]
	payload := ix.payload
	ix.delivering++
	s.mu.Unlock()
	if payload == nil {
		return 0, errors.New("fakediscord: interaction " + p.ID + " was not delivered over HTTP")
	}
	s.deliver(ix, payload)
	s.mu.Lock()
	defer s.mu.Unlock()
	return ix.Deliveries[len(ix.Deliveries)-1].Status, nil
}

// awaitDelivery waits, with mu held, until no POST of ix is in flight.
func (s *Server) awaitDelivery(ix *Interaction) {
	for ix.delivering > 0 {
		ch := s.changed
		s.mu.Unlock()
		<-ch
		s.mu.Lock()
	}
}

// dispatchHTTP records ix and starts its delivery. Call with mu held.
func (s *Server) dispatchHTTP(ix *Interaction, payload map[string]any) (*Pending, error) {
	b, err := json.Marshal(payload)
	if err != nil {
		return nil, fmt.Errorf("fakediscord: encode interaction: %w", err)
	}
	ix.payload = b
	ix.delivering = 1
	s.interactions[ix.ID] = ix
	s.byToken[ix.Token] = ix
	s.notify()
	go s.deliver(ix, b)
	return &Pending{s: s, ID: ix.ID}, nil
}

// serveApplication answers GET /oauth2/applications/@me, which an
// application without a gateway connection reads to learn its ID.
func (s *Server) serveApplication(w http.ResponseWriter, r *http.Request) {
	if r.PathValue("app") != "@me" && r.PathValue("app") != s.AppID {
		httpError(w, 404, "Unknown Application")
		return
	}
	writeJSON(w, 200, map[string]any{"id": s.AppID, "name": "ladderbot", "bot_public": true, "verify_key": s.PublicKeyHex()})
}
