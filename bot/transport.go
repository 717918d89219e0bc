package bot

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// discordHost is the host discordgo's endpoint constants name.
const discordHost = "discord.com"

// rewriteTransport sends requests for https://discord.com to another base
// URL (DISCORD_API_BASE): a REST proxy, or the tests' fake Discord. It works
// per session, through the session's HTTP client, because discordgo's
// endpoints are package variables that must not be changed: two sessions in
// one process may target different bases.
type rewriteTransport struct {
	base *url.URL
	next http.RoundTripper
}

// newHTTPClient returns the session's HTTP client for apiBase. Interaction
// answers are many small concurrent requests to one host, so it keeps enough
// idle connections to avoid a new handshake per answer.
func newHTTPClient(apiBase string) (*http.Client, error) {
	base, err := url.Parse(apiBase)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("bot: API base %q: want an http(s) URL", apiBase)
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns = 256
	tr.MaxIdleConnsPerHost = 256
	var rt http.RoundTripper = tr
	if !(base.Scheme == "https" && base.Host == discordHost && strings.Trim(base.Path, "/") == "") {
		rt = &rewriteTransport{base: base, next: tr}
	}
	return &http.Client{Timeout: 20 * time.Second, Transport: rt}, nil
}

// RoundTrip rewrites the scheme, host and path prefix of discord.com
// requests and passes every request on.
func (t *rewriteTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Host != discordHost {
		return t.next.RoundTrip(r)
	}
	out := r.Clone(r.Context())
	out.URL.Scheme = t.base.Scheme
	out.URL.Host = t.base.Host
	out.URL.Path = strings.TrimSuffix(t.base.Path, "/") + r.URL.Path
	if r.URL.RawPath != "" {
		out.URL.RawPath = strings.TrimSuffix(t.base.EscapedPath(), "/") + r.URL.RawPath
	}
	out.Host = ""
	return t.next.RoundTrip(out)
}
