package jobs

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"syscall"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// SignatureHeader carries "sha256=" and the hex HMAC-SHA256 of the body
// with the webhook's secret (docs/api.md shows how to check it).
const SignatureHeader = "X-Ladderbot-Signature"

// Sign returns the SignatureHeader value of body under secret.
func Sign(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// DelivererOptions tune a Deliverer; zero values are the defaults.
type DelivererOptions struct {
	// Policy decides which addresses may be dialled (WEBHOOK_ALLOW_HTTP).
	Policy ladder.URLPolicy
	// Timeout bounds one attempt, from dial to the end of the answer
	// (default 10 s).
	Timeout time.Duration
	// Lease is how long a claim holds a delivery (default 2 min); it must
	// exceed Timeout, or a slow attempt could be claimed again meanwhile.
	Lease time.Duration
	// Batch is how many deliveries one claim takes at most (default 32),
	// and Parallel how many attempts are in flight at once (default 32:
	// more than the webhooks of one guild, so one guild's hanging
	// receivers cannot hold every slot).
	Batch    int
	Parallel int
}

// maxAnswer bounds how much of a receiver's answer is read: only the
// status matters, and a hostile receiver must not fill memory.
const maxAnswer = 64 << 10

// Deliverer posts the webhook outbox: it claims due deliveries, signs and
// posts them, and records each attempt, so every event reaches every
// subscribed webhook once it answers 2xx, whichever process does it.
type Deliverer struct {
	svc    *ladder.Service
	client *http.Client
	opt    DelivererOptions
	log    *slog.Logger
}

// NewDeliverer returns a Deliverer over svc.
func NewDeliverer(svc *ladder.Service, log *slog.Logger, opt DelivererOptions) *Deliverer {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opt.Timeout <= 0 {
		opt.Timeout = 10 * time.Second
	}
	if opt.Lease <= opt.Timeout {
		opt.Lease = max(2*time.Minute, 2*opt.Timeout)
	}
	if opt.Batch <= 0 {
		opt.Batch = 32
	}
	if opt.Parallel <= 0 {
		opt.Parallel = 32
	}
	return &Deliverer{svc: svc, client: webhookClient(opt.Policy, opt.Timeout), opt: opt, log: log}
}

// errDialRefused marks a connection the URL policy refused at dial time.
var errDialRefused = errors.New("webhook: dial refused")

// webhookClient is an HTTP client that dials only addresses policy allows,
// checked on the resolved IP in the dialer's Control hook, after DNS and
// just before connect, so a name that resolves to a private address (or
// starts to, DNS rebinding) is refused. No proxy from the environment is
// used, redirects are not followed (a 3xx is a failed attempt), and the
// whole exchange is bounded by timeout.
func webhookClient(policy ladder.URLPolicy, timeout time.Duration) *http.Client {
	dialer := &net.Dialer{
		Timeout: timeout,
		Control: func(network, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("webhook: dial %s: %w", address, err)
			}
			if err := policy.CheckAddrPort(ap); err != nil {
				return fmt.Errorf("%w: %s", errDialRefused, ladder.ErrorMessage(err))
			}
			return nil
		},
	}
	return &http.Client{
		Timeout: timeout,
		Transport: &http.Transport{
			Proxy:                  nil,
			DialContext:            dialer.DialContext,
			TLSHandshakeTimeout:    timeout,
			ResponseHeaderTimeout:  timeout,
			MaxResponseHeaderBytes: 16 << 10,
			MaxIdleConnsPerHost:    2,
			IdleConnTimeout:        90 * time.Second,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// RunOnce claims one batch of due deliveries and attempts each; it
// returns how many it attempted. Failed attempts are not errors: they are
// logged in the delivery log and retried later.
func (d *Deliverer) RunOnce(ctx context.Context) (int, error) {
	ds, err := d.svc.ClaimDeliveries(ctx, d.opt.Lease, d.opt.Batch)
	if err != nil {
		return 0, err
	}
	sem := make(chan struct{}, d.opt.Parallel)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []error
	for _, dl := range ds {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := d.attempt(ctx, dl); err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return len(ds), errors.Join(errs...)
}

// Run delivers until ctx is done. It keeps up to Parallel attempts in
// flight and claims more as soon as one ends, or every interval: a
// receiver that hangs holds one slot until its own timeout while the
// other endpoints' deliveries go on in the others (the claim takes at
// most one delivery per webhook, guilds in turns). On return every
// attempt has ended and been recorded.
func (d *Deliverer) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	ended := make(chan struct{}, d.opt.Parallel)
	var wg sync.WaitGroup
	defer wg.Wait()
	inFlight := 0
	for {
		if free := d.opt.Parallel - inFlight; free > 0 && ctx.Err() == nil {
			ds, err := d.svc.ClaimDeliveries(ctx, d.opt.Lease, min(free, d.opt.Batch))
			if err != nil && ctx.Err() == nil {
				d.log.Warn("webhooks: claim", "err", err)
			}
			for _, dl := range ds {
				inFlight++
				wg.Add(1)
				go func() {
					defer wg.Done()
					if err := d.attempt(ctx, dl); err != nil && ctx.Err() == nil {
						d.log.Warn("webhooks: deliver", "webhook_id", dl.WebhookID, "err", err)
					}
					ended <- struct{}{}
				}()
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-ended:
			inFlight--
		case <-t.C:
		}
	}
}

// attempt posts one delivery and records the outcome.
func (d *Deliverer) attempt(ctx context.Context, dl ladder.Delivery) error {
	start := time.Now()
	status, errText := d.post(ctx, dl)
	// The outcome is recorded even when a shutdown cancelled ctx
	// meanwhile: a receiver that answered 2xx must not get the event again
	// because the process was stopping.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	state, err := d.svc.FinishDelivery(rctx, dl, status, errText, time.Since(start))
	if err != nil {
		return err
	}
	if state == ladder.DeliveryFailed {
		d.log.Warn("webhooks: gave up", "webhook_id", dl.WebhookID, "event_id", dl.EventID, "status", status, "err", errText)
	}
	return nil
}

// post sends dl and returns the status (0 without an answer) and what
// went wrong, "" after a 2xx.
func (d *Deliverer) post(ctx context.Context, dl ladder.Delivery) (int, string) {
	// The URL is checked again: the policy may have tightened since the
	// webhook was created.
	if _, err := d.opt.Policy.CheckURL(dl.URL); err != nil {
		return 0, ladder.ErrorMessage(err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, dl.URL, bytes.NewReader(dl.Body))
	if err != nil {
		return 0, err.Error()
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "ladderbot-webhooks/1")
	req.Header.Set("X-Ladderbot-Event", string(dl.EventType))
	req.Header.Set("X-Ladderbot-Delivery", dl.EventID)
	req.Header.Set(SignatureHeader, Sign(dl.Secret, dl.Body))
	resp, err := d.client.Do(req)
	if err != nil {
		return 0, attemptError(err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxAnswer))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp.StatusCode, fmt.Sprintf("receiver answered %s", resp.Status)
	}
	return resp.StatusCode, ""
}

// attemptError is what the delivery log says of a request that got no
// answer. Every holder of the guild's API tokens reads that log, so it
// names nothing of the operator's network: not the address a name
// resolved to when the policy refused it (a token holder could map
// internal names by it), nor the DNS server that could not resolve one.
func attemptError(err error) string {
	var dns *net.DNSError
	switch {
	case errors.Is(err, errDialRefused):
		return "refused: the URL's host resolves to an address, or names a port, that webhooks are not allowed to reach (only public addresses on an allowed port)"
	case errors.As(err, &dns):
		return fmt.Sprintf("the host name %s could not be resolved: %s", dns.Name, dns.Err)
	}
	return err.Error()
}
