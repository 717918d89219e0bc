package showdown

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// DefaultBase is the public replay server, SHOWDOWN_REPLAY_BASE's default.
const DefaultBase = "https://replay.pokemonshowdown.com"

// DefaultTimeout bounds one fetch, headers and body together: a replay is
// one small JSON document, and a user waits for the answer.
const DefaultTimeout = 10 * time.Second

// DefaultMaxBytes bounds a replay's JSON. Long real battles log a few
// hundred kilobytes; anything past 2 MiB is not a replay worth reading.
const DefaultMaxBytes = 2 << 20

// ErrRefused marks a replay URL the client will not fetch: another host, a
// malformed address or ID. The message says which; the error also wraps
// a coded error (ladder.Errorf) with that reason, as do the other
// failures the reporter reads, so the bot renders them in their language.
var ErrRefused = errors.New("showdown: replay URL refused")

// ErrNotFound is a replay the server does not have (or keeps private).
var ErrNotFound = errors.New("showdown: replay not found")

// replayID is the shape of a replay ID: a format (optionally behind a
// server prefix such as smogtours-), a battle number, and for private
// replays a password suffix, e.g. gen9multirandombattle-2641276114.
var replayID = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+){1,3}$`)

// Client fetches replay logs from one replay server.
type Client struct {
	base     *url.URL
	http     *http.Client
	maxBytes int64
}

// NewClient returns a client for the replay server at base (an absolute
// http or https URL; "" is DefaultBase). It fetches only from base's host,
// follows no redirect elsewhere, and bounds every fetch by DefaultTimeout
// and DefaultMaxBytes. policy is the rule on outgoing requests that
// webhooks follow too: base must pass its URL check (a public address or
// name, an allowed port) and every connection its address check at dial
// time. transport is the HTTP transport to use; nil is a transport that
// dials only what policy allows (a transport given is used as it is).
func NewClient(base string, policy ladder.URLPolicy, transport http.RoundTripper) (*Client, error) {
	if base == "" {
		base = DefaultBase
	}
	u, err := url.Parse(strings.TrimRight(base, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("showdown: SHOWDOWN_REPLAY_BASE must be an absolute http(s) URL without query, not %q", base)
	}
	if _, err := policy.CheckURL(u.String()); err != nil {
		return nil, fmt.Errorf("showdown: SHOWDOWN_REPLAY_BASE=%q refused: %s", base, strings.Replace(ladder.ErrorMessage(err), "webhook ", "", 1))
	}
	if transport == nil {
		transport = guardedTransport(policy)
	}
	host := u.Host
	hc := &http.Client{
		Transport: transport,
		Timeout:   DefaultTimeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if !strings.EqualFold(req.URL.Host, host) || len(via) >= 3 {
				return fmt.Errorf("%w: %w", ErrRefused, ladder.Errorf(ladder.CodeInvalid, "the replay server redirected to %s", req.URL.Host))
			}
			return nil
		},
	}
	return &Client{base: u, http: hc, maxBytes: DefaultMaxBytes}, nil
}

// guardedTransport dials only addresses and ports policy allows, checked
// on the resolved address just before connect (after DNS, so a name that
// resolves to a private address is refused), and uses no proxy from the
// environment.
func guardedTransport(policy ladder.URLPolicy) http.RoundTripper {
	dialer := &net.Dialer{
		Timeout: DefaultTimeout,
		Control: func(network, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("showdown: dial %s: %w", address, err)
			}
			if err := policy.CheckAddrPort(ap); err != nil {
				return fmt.Errorf("%w: dial %s: %s", ErrRefused, address, ladder.ErrorMessage(err))
			}
			return nil
		},
	}
	return &http.Transport{
		Proxy:                  nil,
		DialContext:            dialer.DialContext,
		TLSHandshakeTimeout:    DefaultTimeout,
		ResponseHeaderTimeout:  DefaultTimeout,
		MaxResponseHeaderBytes: 16 << 10,
		MaxIdleConnsPerHost:    2,
		IdleConnTimeout:        90 * time.Second,
	}
}

// ReplayID returns the replay ID of a replay URL on the client's host, such
// as https://replay.pokemonshowdown.com/gen9multirandombattle-2641276114
// (a trailing .json or .log, a query and a fragment are ignored). Any other
// host, scheme or path shape is ErrRefused.
func (c *Client) ReplayID(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrRefused, ladder.Errorf(ladder.CodeInvalid, "%q is not a URL", raw))
	}
	if u.Scheme != "http" && u.Scheme != "https" || !strings.EqualFold(u.Host, c.base.Host) || u.User != nil {
		return "", fmt.Errorf("%w: %w", ErrRefused, ladder.Errorf(ladder.CodeInvalid, "only replays on %s are accepted, not %q", c.base.Host, raw))
	}
	p := strings.TrimPrefix(u.Path, c.base.Path)
	p = strings.TrimPrefix(p, "/")
	p = strings.TrimSuffix(strings.TrimSuffix(p, ".json"), ".log")
	id := strings.ToLower(p)
	if len(id) > 150 || !replayID.MatchString(id) {
		return "", fmt.Errorf("%w: %w", ErrRefused, ladder.Errorf(ladder.CodeInvalid, "%q does not name a replay", raw))
	}
	return id, nil
}

// Replay is a replay as the server's JSON describes it.
type Replay struct {
	ID       string   `json:"id"`
	FormatID string   `json:"formatid"`
	Players  []string `json:"players"`
	// Log is the battle's protocol log, one message a line.
	Log string `json:"log"`
}

// Fetch downloads the replay a URL names: GET <base>/<id>.json, within the
// client's timeout and size bound. A URL off the base host is ErrRefused; a
// 404 is ErrNotFound.
func (c *Client) Fetch(ctx context.Context, rawURL string) (Replay, error) {
	id, err := c.ReplayID(rawURL)
	if err != nil {
		return Replay{}, err
	}
	target := *c.base
	target.Path = c.base.Path + "/" + id + ".json"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target.String(), nil)
	if err != nil {
		return Replay{}, fmt.Errorf("showdown: fetch %s: %w", id, err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return Replay{}, fmt.Errorf("showdown: fetch %s: %w", id, err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return Replay{}, fmt.Errorf("%w: %w", ErrNotFound, ladder.Errorf(ladder.CodeNotFound, "the replay server has no replay %s (or keeps it private)", id))
	case resp.StatusCode != http.StatusOK:
		return Replay{}, fmt.Errorf("showdown: fetch %s: %w", id, ladder.Errorf(ladder.CodeUnavailable, "the replay server answered with status %s", resp.Status))
	case resp.ContentLength > c.maxBytes:
		return Replay{}, fmt.Errorf("showdown: fetch %s: %w", id, ladder.Errorf(ladder.CodeInvalid, "the replay is over the %d-byte bound", c.maxBytes))
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.maxBytes+1))
	if err != nil {
		return Replay{}, fmt.Errorf("showdown: fetch %s: %w", id, err)
	}
	if int64(len(body)) > c.maxBytes {
		return Replay{}, fmt.Errorf("showdown: fetch %s: %w", id, ladder.Errorf(ladder.CodeInvalid, "the replay is over the %d-byte bound", c.maxBytes))
	}
	var r Replay
	if err := json.Unmarshal(body, &r); err != nil {
		return Replay{}, fmt.Errorf("showdown: fetch %s: %w: %w", id, ladder.Errorf(ladder.CodeInvalid, "the replay server sent something that is not a replay's JSON"), err)
	}
	if r.Log == "" {
		return Replay{}, fmt.Errorf("showdown: fetch %s: %w", id, ladder.Errorf(ladder.CodeInvalid, "the replay has no log"))
	}
	return r, nil
}
