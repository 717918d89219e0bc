package fakediscord

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestOAuthProvider: the fake's authorization-code flow refuses what
// Discord refuses: a redirect URI not registered, no PKCE, a wrong
// verifier, a code used twice (which also revokes what it granted), a
// wrong client secret; and the token it grants reads /users/@me and the
// guild list, until it is revoked.
func TestOAuthProvider(t *testing.T) {
	s := New()
	defer s.Close()
	const redirect = "http://app.example/admin/callback"
	s.SetOAuthApp("app", "secret", redirect)
	s.AddOAuthUser("42", "ada")
	s.AddMember("7", "42")
	s.SetGuildName("7", "Seven")
	s.GrantPermissions("7", "42", PermManageGuild)
	s.LogInBrowser("42")
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	verifier := strings.Repeat("v", 50)
	sum := sha256.Sum256([]byte(verifier))
	challenge := base64.RawURLEncoding.EncodeToString(sum[:])
	authorize := func(q url.Values) *http.Response {
		t.Helper()
		resp, err := noFollow.Get(s.URL() + "/oauth2/authorize?" + q.Encode())
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	good := url.Values{"client_id": {"app"}, "redirect_uri": {redirect}, "response_type": {"code"}, "scope": {"identify guilds"},
		"state": {"st"}, "code_challenge": {challenge}, "code_challenge_method": {"S256"}}
	with := func(k, v string) url.Values {
		q := url.Values{}
		for kk, vv := range good {
			q[kk] = vv
		}
		if v == "" {
			q.Del(k)
		} else {
			q.Set(k, v)
		}
		return q
	}
	if resp := authorize(with("redirect_uri", "http://evil.example/cb")); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("Got(authorize with an unregistered redirect) = %d, want 400", resp.StatusCode)
	}
	if resp := authorize(with("code_challenge", "")); !strings.Contains(resp.Header.Get("Location"), "error=invalid_request") {
		t.Errorf("Got(authorize without PKCE) = %q, want error=invalid_request", resp.Header.Get("Location"))
	}
	codeOf := func() string {
		resp := authorize(good)
		loc, _ := url.Parse(resp.Header.Get("Location"))
		if loc.Query().Get("state") != "st" || loc.Query().Get("code") == "" {
			t.Fatalf("Got(authorize) = %q, want a code and the state back", resp.Header.Get("Location"))
		}
		return loc.Query().Get("code")
	}
	exchange := func(code, verifier, secret string) (int, map[string]any) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, s.URL()+"/api/oauth2/token", strings.NewReader(url.Values{
			"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {redirect}, "code_verifier": {verifier}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.SetBasicAuth("app", secret)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body map[string]any
		json.NewDecoder(resp.Body).Decode(&body)
		return resp.StatusCode, body
	}
	code := codeOf()
	if st, body := exchange(code, strings.Repeat("w", 50), "secret"); st != 400 || body["error"] != "invalid_grant" {
		t.Errorf("Got(exchange with a wrong verifier) = %d %v, want 400 invalid_grant", st, body)
	}
	if st, body := exchange(codeOf(), verifier, "wrong"); st != 401 || body["error"] != "invalid_client" {
		t.Errorf("Got(exchange with a wrong secret) = %d %v, want 401 invalid_client", st, body)
	}
	st, body := exchange(code, verifier, "secret")
	if st != 200 || body["token_type"] != "Bearer" {
		t.Fatalf("Got(exchange) = %d %v", st, body)
	}
	access, _ := body["access_token"].(string)
	read := func(path string) (int, string) {
		req, _ := http.NewRequest(http.MethodGet, s.URL()+"/api/v10"+path, nil)
		req.Header.Set("Authorization", "Bearer "+access)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var v any
		json.NewDecoder(resp.Body).Decode(&v)
		b, _ := json.Marshal(v)
		return resp.StatusCode, string(b)
	}
	if st, me := read("/users/@me"); st != 200 || !strings.Contains(me, `"id":"42"`) {
		t.Errorf("Got(/users/@me) = %d %s", st, me)
	}
	if st, gs := read("/users/@me/guilds"); st != 200 || !strings.Contains(gs, `"permissions":"32"`) || !strings.Contains(gs, "Seven") {
		t.Errorf("Got(/users/@me/guilds) = %d %s, want guild 7 with Manage Server (32)", st, gs)
	}
	// The same code again: refused, and the grant it made is revoked.
	if st, body := exchange(code, verifier, "secret"); st != 400 || body["error"] != "invalid_grant" {
		t.Errorf("Got(code used twice) = %d %v, want 400 invalid_grant", st, body)
	}
	if st, _ := read("/users/@me"); st != 401 {
		t.Errorf("Got(/users/@me after the code was replayed) = %d, want 401", st)
	}
	if got := s.OAuth().Refused["invalid_grant"]; got != 2 {
		t.Errorf("Got(refused invalid_grant) = %d, want 2", got)
	}
}
