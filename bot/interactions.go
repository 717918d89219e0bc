package bot

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

	"github.com/bwmarrin/discordgo"
)

// Transports: how interactions reach the bot (Config.Transport).
const (
	// TransportGateway receives interactions on this process's gateway
	// shard and answers them by REST callbacks.
	TransportGateway = "gateway"
	// TransportHTTP receives interactions as Discord's signed POSTs
	// (Interactions) and answers the first in the HTTP response; no
	// gateway connection is opened, so any number of processes can sit
	// behind a load balancer.
	TransportHTTP = "http"
)

// Deliveries remembers which interactions have been delivered, for every
// process on one database: Discord may deliver an interaction again (to
// any process behind the load balancer), and it must be handled once.
// *storage.DB implements it.
type Deliveries interface {
	// FirstDelivery records interaction id, seen at at, and reports whether
	// this is the first delivery of it.
	FirstDelivery(ctx context.Context, id string, at time.Time) (bool, error)
}

const (
	// maxInteractionBody caps an interaction POST. Discord's payloads are a
	// few KiB (resolved users and roles included); anything near this is
	// not from Discord.
	maxInteractionBody = 64 << 10
	// signatureWindow is how far a request's signed timestamp may be from
	// this process's clock: a captured request cannot be replayed later.
	signatureWindow = 5 * time.Minute
	// firstAnswerBudget is how long the POST waits for the chain's first
	// answer: Discord drops an interaction not answered within 3 s of
	// sending it, and the answer must still travel back.
	firstAnswerBudget = 2800 * time.Millisecond
)

// errSignature is every reason a request is not Discord's: the answer is
// 401 without saying which check failed.
var errSignature = errors.New("bot: invalid request signature")

// errLate is the first answer of an interaction whose POST was already
// answered, given up, or closed.
var errLate = errors.New("bot: the interaction's HTTP response is gone (answered, timed out or closed)")

// Interactions returns the handler of POST /interactions for
// TransportHTTP (docs/spec.md 10). In order, before anything else is
// read: the body limit, the Ed25519 signature over the timestamp and the
// raw body, and the timestamp's age; then strict JSON. PING answers PONG;
// an interaction already delivered (to this process or, with
// Config.Deliveries, any process) answers 409 and is not handled again;
// every other one runs the dispatch chain, whose first answer is this
// POST's response and whose later ones are webhook REST calls.
func (b *Bot) Interactions() http.Handler {
	return http.HandlerFunc(b.serveInteraction)
}

func (b *Bot) serveInteraction(w http.ResponseWriter, r *http.Request) {
	start := b.cfg.Now()
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxInteractionBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			interactionError(w, http.StatusRequestEntityTooLarge, "request body too large")
			return
		}
		interactionError(w, http.StatusBadRequest, "unreadable request body")
		return
	}
	if err := verifySignature(b.cfg.PublicKey, r.Header, body, start); err != nil {
		interactionError(w, http.StatusUnauthorized, "invalid request signature")
		return
	}
	ic, err := parseInteraction(body)
	if err != nil {
		interactionError(w, http.StatusBadRequest, err.Error())
		return
	}
	if ic.Type == discordgo.InteractionPing {
		writeInteractionJSON(w, []byte(`{"type":1}`))
		return
	}
	first, err := b.firstDelivery(r.Context(), ic.ID, start)
	if err != nil {
		b.log.Error("interaction deliveries: lookup failed", "interaction_id", ic.ID, "err", err)
		interactionError(w, http.StatusServiceUnavailable, "temporarily unavailable")
		return
	}
	if !first {
		b.log.Info("interaction delivered again; not handled twice", "interaction_id", ic.ID, "guild_id", ic.GuildID)
		interactionError(w, http.StatusConflict, "interaction already handled")
		return
	}
	out := &httpAnswer{answers: make(chan firstAnswer), gone: make(chan struct{})}
	c := &call{id: ic.ID, start: start}
	c.req, c.reqErr = request(ic)
	c.resp = &gatewayResponder{session: b.session, base: b.base, ic: ic, kind: c.req.Kind, messageID: c.req.MessageID, initial: out.send}
	done := make(chan struct{})
	go func() {
		defer close(done)
		b.chain(b.base, c)
	}()
	out.serve(w, r, done)
}

// firstDelivery asks Config.Deliveries, or without one this process's memory.
func (b *Bot) firstDelivery(ctx context.Context, id string, at time.Time) (bool, error) {
	if b.cfg.Deliveries != nil {
		return b.cfg.Deliveries.FirstDelivery(ctx, id, at)
	}
	return b.httpSeen.first(id, at), nil
}

// verifySignature checks Discord's signature of an interaction POST:
// X-Signature-Ed25519 (hex) over X-Signature-Timestamp (Unix seconds)
// followed by the raw body, and a timestamp within signatureWindow of now.
// Everything it reads is public, so no comparison can leak a secret;
// ed25519.Verify is the whole check.
func verifySignature(key ed25519.PublicKey, h http.Header, body []byte, now time.Time) error {
	ts := h.Get("X-Signature-Timestamp")
	sig, err := hex.DecodeString(h.Get("X-Signature-Ed25519"))
	if err != nil || len(sig) != ed25519.SignatureSize || ts == "" || len(key) != ed25519.PublicKeySize {
		return errSignature
	}
	secs, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return errSignature
	}
	if d := now.Sub(time.Unix(secs, 0)); d > signatureWindow || d < -signatureWindow {
		return errSignature
	}
	msg := make([]byte, 0, len(ts)+len(body))
	msg = append(append(msg, ts...), body...)
	if !ed25519.Verify(key, msg, sig) {
		return errSignature
	}
	return nil
}

// parseInteraction reads a verified body strictly: one JSON object without
// duplicate keys (which two parsers could read differently), of the types
// discordgo expects, naming an interaction that can be answered.
func parseInteraction(body []byte) (*discordgo.Interaction, error) {
	if err := checkStrictJSON(body); err != nil {
		return nil, err
	}
	var ic discordgo.Interaction
	if err := json.Unmarshal(body, &ic); err != nil {
		return nil, fmt.Errorf("malformed interaction: %v", err)
	}
	if ic.Type < discordgo.InteractionPing || ic.Type > discordgo.InteractionModalSubmit {
		return nil, fmt.Errorf("unknown interaction type %d", ic.Type)
	}
	if ic.Type != discordgo.InteractionPing && (ic.ID == "" || ic.Token == "" || ic.AppID == "") {
		return nil, errors.New("interaction without id, token or application_id")
	}
	return &ic, nil
}

// checkStrictJSON reports anything but exactly one JSON object with no
// duplicate key at any depth.
func checkStrictJSON(body []byte) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return errors.New("body is not a JSON object")
	}
	if err := checkObject(dec, 1); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data after the JSON object")
	}
	return nil
}

// maxJSONDepth bounds nesting; Discord's interactions nest a few levels.
const maxJSONDepth = 32

// checkObject reads the rest of an object whose '{' was read.
func checkObject(dec *json.Decoder, depth int) error {
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return errors.New("malformed JSON")
		}
		key, _ := tok.(string)
		if seen[key] {
			return fmt.Errorf("duplicate JSON key %q", key)
		}
		seen[key] = true
		if err := checkValue(dec, depth); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return errors.New("malformed JSON")
	}
	return nil
}

// checkValue reads one value, checking objects within it.
func checkValue(dec *json.Decoder, depth int) error {
	if depth > maxJSONDepth {
		return errors.New("JSON nested too deeply")
	}
	tok, err := dec.Token()
	if err != nil {
		return errors.New("malformed JSON")
	}
	switch tok {
	case json.Delim('{'):
		return checkObject(dec, depth+1)
	case json.Delim('['):
		for dec.More() {
			if err := checkValue(dec, depth+1); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil {
			return errors.New("malformed JSON")
		}
	}
	return nil
}

// firstAnswer is the chain's first response, handed to the POST's handler;
// written says whether it reached the response.
type firstAnswer struct {
	resp    *discordgo.InteractionResponse
	written chan error
}

// httpAnswer connects the dispatch chain, running on its own goroutine,
// with the POST it must answer: the chain's first response (a deferral or
// the whole reply) is written as the HTTP response; anything later goes
// through REST like the gateway's.
type httpAnswer struct {
	answers chan firstAnswer
	gone    chan struct{} // closed when the POST takes no answer any more
}

// send hands resp to the POST and waits until it is written. It is the
// responder's initial hook.
func (h *httpAnswer) send(ctx context.Context, resp *discordgo.InteractionResponse) error {
	a := firstAnswer{resp: resp, written: make(chan error, 1)}
	select {
	case h.answers <- a:
	case <-h.gone:
		return errLate
	case <-ctx.Done():
		return ctx.Err()
	}
	return <-a.written
}

// serve answers the POST with the chain's first response, or 503 when the
// chain ends without one (shutting down) or it does not come in time.
func (h *httpAnswer) serve(w http.ResponseWriter, r *http.Request, done <-chan struct{}) {
	defer close(h.gone)
	timer := time.NewTimer(firstAnswerBudget)
	defer timer.Stop()
	select {
	case a := <-h.answers:
		a.written <- writeInteractionResponse(w, a.resp)
	case <-done:
		interactionError(w, http.StatusServiceUnavailable, "not answered; the bot may be restarting")
	case <-timer.C:
		interactionError(w, http.StatusServiceUnavailable, "not answered in time")
	case <-r.Context().Done():
	}
}

// writeInteractionResponse writes resp as JSON, or as multipart with
// payload_json when it carries files, as Discord's callback endpoint
// takes it, and flushes it so Discord has it before any webhook call.
func writeInteractionResponse(w http.ResponseWriter, resp *discordgo.InteractionResponse) error {
	var (
		body        []byte
		contentType = "application/json"
		err         error
	)
	if resp.Data != nil && len(resp.Data.Files) > 0 {
		contentType, body, err = discordgo.MultipartBodyWithJSON(resp, resp.Data.Files)
	} else {
		body, err = json.Marshal(resp)
	}
	if err != nil {
		interactionError(w, http.StatusInternalServerError, "could not encode the answer")
		return fmt.Errorf("bot: encode interaction response: %w", err)
	}
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write(body); err != nil {
		return fmt.Errorf("bot: write interaction response: %w", err)
	}
	if err := http.NewResponseController(w).Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return fmt.Errorf("bot: flush interaction response: %w", err)
	}
	return nil
}

func writeInteractionJSON(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.Write(body)
}

// interactionError answers a POST Discord cannot use, as JSON.
func interactionError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

// startREST prepares TransportHTTP without a gateway: it learns the
// application's ID by REST (retrying transient failures with backoff; a
// rejected token stops the bot), marks the bot ready and syncs the
// commands from shard 0.
func (b *Bot) startREST(ctx context.Context) error {
	wait := time.Second
	for {
		id, err := b.application(ctx)
		if err == nil {
			b.appID.Store(id)
			break
		}
		if fatal(err) {
			return fmt.Errorf("bot: application: %w", err)
		}
		b.log.Warn("reading the application failed; retrying", "err", err, "retry_in", wait.String())
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
		wait = min(2*wait, time.Minute)
	}
	b.log.Info("HTTP interactions ready", "application_id", b.appID.Load())
	b.readyOnce.Do(func() { close(b.ready) })
	if b.cfg.ShardID == 0 {
		go b.register()
	}
	return nil
}

// application returns the bot's application ID from GET
// /oauth2/applications/@me (discordgo's Session.Application takes no
// context, and start-up must stop with ctx).
func (b *Bot) application(ctx context.Context) (string, error) {
	uri := discordgo.EndpointOAuth2Application("@me")
	body, err := b.session.RequestWithBucketID("GET", uri, nil, uri, discordgo.WithContext(ctx))
	if err != nil {
		return "", err
	}
	var app struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(body, &app); err != nil || app.ID == "" {
		return "", fmt.Errorf("bot: application: unreadable answer %.100q", body)
	}
	return app.ID, nil
}
