package fakediscord

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Discord's permission bits the dashboard's checks read.
const (
	PermAdministrator int64 = 1 << 3
	PermManageGuild   int64 = 1 << 5
)

// oauthState is the fake's OAuth2 provider: one application, the users
// who can log in, and the codes and tokens handed out, as Discord's
// authorization-code flow with PKCE keeps them.
type oauthState struct {
	clientID, secret string
	redirects        []string
	users            map[string]string // user ID → username
	browser          string            // the user logged in to Discord in "the browser"
	codes            map[string]*authCode
	tokens           map[string]*userToken // access token → its grant
	refresh          map[string]*userToken // refresh token → its grant
	guildNames       map[string]string
	owners           map[string]string          // guild → owner's user ID
	grants           map[[2]string]int64        // (guild, user) → permissions granted besides roles
	exchanges        int                        // successful code exchanges
	refused          map[string]int             // OAuth2 error code → count
	authorizeParams  []url.Values               // every authorize request's query
	bearerLog        []string                   // routes read with a bearer token, in order
	revoked          map[string]bool            // access tokens revoked
	expires          map[string]time.Time       // access token → expiry
	scopes           map[string]map[string]bool // access token → scopes
	codeTTL          time.Duration
	consent          bool // show the consent page instead of redirecting at once
	consents         int  // Authorize clicks on the consent page
}

// authCode is an authorization code waiting to be exchanged once.
type authCode struct {
	user, redirect, challenge, scope string
	expires                          time.Time
	used                             bool
}

// userToken is one grant: an access token and its refresh token.
type userToken struct {
	user, access, refresh, scope string
}

// oauthPaths are the routes the OAuth2 provider serves: the browser's
// authorize page, the client-authenticated token routes, and the routes
// read with a user's bearer token. They are exempt from the bot token check.
func isOAuthPath(path string) bool {
	return path == "/oauth2/authorize" || strings.HasPrefix(path, "/api/oauth2/token") ||
		strings.HasSuffix(path, "/users/@me") || strings.HasSuffix(path, "/users/@me/guilds")
}

func (s *Server) oauthState() *oauthState {
	if s.oauth == nil {
		s.oauth = &oauthState{users: map[string]string{}, codes: map[string]*authCode{},
			tokens: map[string]*userToken{}, refresh: map[string]*userToken{}, guildNames: map[string]string{},
			owners: map[string]string{}, grants: map[[2]string]int64{}, refused: map[string]int{},
			revoked: map[string]bool{},
			expires: map[string]time.Time{}, scopes: map[string]map[string]bool{}, codeTTL: 10 * time.Minute}
	}
	return s.oauth
}

func (s *Server) registerOAuthRoutes() {
	s.mux.HandleFunc("GET /oauth2/authorize", s.serveAuthorize)
	s.mux.HandleFunc("POST /oauth2/authorize", s.serveConsent)
	s.mux.HandleFunc("POST /api/oauth2/token", s.serveToken)
	s.mux.HandleFunc("POST /api/oauth2/token/revoke", s.serveRevoke)
	s.mux.HandleFunc("GET /api/{v}/users/@me", s.serveMe)
	s.mux.HandleFunc("GET /api/{v}/users/@me/guilds", s.serveMyGuilds)
}

// SetOAuthApp registers the OAuth2 application: its client ID and secret
// and the redirect URIs it may send users back to (exact matches, as on
// Discord).
func (s *Server) SetOAuthApp(clientID, secret string, redirects ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.oauthState()
	o.clientID, o.secret, o.redirects = clientID, secret, redirects
}

// AddOAuthUser makes a Discord user who can log in with OAuth2.
func (s *Server) AddOAuthUser(userID, username string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.oauthState().users[userID] = username
}

// LogInBrowser makes userID the Discord account "the browser" is logged
// in to: /oauth2/authorize grants codes for it without asking (the user
// authorized the application before). "" logs the browser out of Discord.
func (s *Server) LogInBrowser(userID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.oauthState().browser = userID
}

// RequireConsent makes /oauth2/authorize show Discord's consent page,
// whose Authorize button the user clicks, as for an application the user
// has not authorized before; off (the default), it redirects back at once.
func (s *Server) RequireConsent(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.oauthState().consent = on
}

// SetGuildName names a guild in /users/@me/guilds.
func (s *Server) SetGuildName(guildID, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.oauthState().guildNames[guildID] = name
}

// SetGuildOwner makes userID the guild's owner, who has every permission.
func (s *Server) SetGuildOwner(guildID, userID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.oauthState().owners[guildID] = userID
	s.notify()
}

// GrantPermissions gives a member permission bits beside their roles' (as
// a channel-independent grant through a role the fake does not model);
// 0 takes them back.
func (s *Server) GrantPermissions(guildID, userID string, perms int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.oauthState().grants[[2]string{guildID, userID}] = perms
	s.notify()
}

// SetRolePermissions sets a role's permission bits.
func (s *Server) SetRolePermissions(guildID, roleID string, perms int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.guildRoles(guildID)
	for i := range g.roles {
		if g.roles[i].ID == roleID {
			g.roles[i].Perms = strconv.FormatInt(perms, 10)
		}
	}
	s.notify()
}

// ExpireCodes makes authorization codes older than d refused, as Discord
// refuses codes after ten minutes.
func (s *Server) ExpireCodes(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.oauthState().codeTTL = d
}

// OAuthStats is what the fake's OAuth2 provider saw.
type OAuthStats struct {
	// Exchanges counts codes exchanged for tokens.
	Exchanges int
	// Refused counts refused token requests by OAuth2 error code
	// (invalid_grant, invalid_client, invalid_request).
	Refused map[string]int
	// LiveTokens counts access tokens neither revoked nor expired.
	LiveTokens int
	// Authorize holds the query of every authorize request.
	Authorize []url.Values
	// BearerReads lists the routes read with a user's token, in order.
	BearerReads []string
	// Consents counts Authorize clicks on the consent page.
	Consents int
}

// OAuth returns what the OAuth2 provider saw so far.
func (s *Server) OAuth() OAuthStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.oauthState()
	st := OAuthStats{Exchanges: o.exchanges, Refused: map[string]int{}, Authorize: slices.Clone(o.authorizeParams),
		BearerReads: slices.Clone(o.bearerLog), Consents: o.consents}
	for k, v := range o.refused {
		st.Refused[k] = v
	}
	for tok := range o.tokens {
		if !o.revoked[tok] && time.Now().Before(o.expires[tok]) {
			st.LiveTokens++
		}
	}
	return st
}

// serveAuthorize is Discord's consent page. After the checks Discord
// makes (a known client, a registered redirect URI, the code response
// type and, since the fake insists on PKCE, an S256 challenge) it either
// redirects straight back with a code, as Discord does for a user who
// authorized the application before, or, after RequireConsent, shows the
// page with the scopes asked for and an Authorize and a Cancel button,
// whose form comes back to serveConsent. Errors that cannot go back to
// the client are a 400 page.
func (s *Server) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.oauthState()
	q := r.URL.Query()
	o.authorizeParams = append(o.authorizeParams, q)
	back, ok := o.checkAuthorize(w, r, q)
	if !ok {
		return
	}
	if o.consent {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_ = consentPage.Execute(w, consentData{App: "ladderbot", User: o.users[o.browser], Scopes: strings.Fields(q.Get("scope")), Query: q})
		return
	}
	back(o.grantCode(q))
}

// serveConsent is the consent page's form: Authorize grants a code,
// anything else sends the user back with access_denied, as Discord's
// Cancel does. The form carries the authorize request's parameters, which
// are checked again.
func (s *Server) serveConsent(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.oauthState()
	q := url.Values{}
	for k, v := range r.PostForm {
		if k != "decision" {
			q[k] = v
		}
	}
	back, ok := o.checkAuthorize(w, r, q)
	if !ok {
		return
	}
	if r.PostForm.Get("decision") != "authorize" {
		back(url.Values{"error": {"access_denied"}, "error_description": {"The resource owner or authorization server denied the request"}})
		return
	}
	o.consents++
	back(o.grantCode(q))
}

// checkAuthorize makes Discord's checks of an authorize request. When the
// request is good it returns the function that sends the browser back to
// the client with v (and the state); otherwise it has answered, with an
// error page or with an error sent back to the client.
func (o *oauthState) checkAuthorize(w http.ResponseWriter, r *http.Request, q url.Values) (func(v url.Values), bool) {
	if q.Get("client_id") == "" || q.Get("client_id") != o.clientID {
		http.Error(w, "Unknown Application", http.StatusBadRequest)
		return nil, false
	}
	redirect := q.Get("redirect_uri")
	if !slices.Contains(o.redirects, redirect) {
		http.Error(w, "Invalid OAuth2 redirect_uri", http.StatusBadRequest)
		return nil, false
	}
	back := func(v url.Values) {
		if st := q.Get("state"); st != "" {
			v.Set("state", st)
		}
		http.Redirect(w, r, redirect+"?"+v.Encode(), http.StatusFound)
	}
	switch {
	case q.Get("response_type") != "code":
		back(url.Values{"error": {"unsupported_response_type"}})
		return nil, false
	case !slices.Contains(strings.Fields(q.Get("scope")), "identify"):
		back(url.Values{"error": {"invalid_scope"}, "error_description": {"identify is required"}})
		return nil, false
	case q.Get("code_challenge_method") != "S256" || len(q.Get("code_challenge")) != 43:
		back(url.Values{"error": {"invalid_request"}, "error_description": {"PKCE with S256 is required"}})
		return nil, false
	}
	if o.browser == "" {
		http.Error(w, "Log in to Discord first", http.StatusUnauthorized)
		return nil, false
	}
	return back, true
}

// grantCode issues an authorization code for the browser's user.
func (o *oauthState) grantCode(q url.Values) url.Values {
	code := randomToken()
	o.codes[code] = &authCode{user: o.browser, redirect: q.Get("redirect_uri"), challenge: q.Get("code_challenge"),
		scope: strings.Join(strings.Fields(q.Get("scope")), " "), expires: time.Now().Add(o.codeTTL)}
	return url.Values{"code": {code}}
}

// consentData is what the consent page shows.
type consentData struct {
	App, User string
	Scopes    []string
	Query     url.Values
}

var consentPage = template.Must(template.New("consent").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Discord | Authorize access to your account</title></head>
<body><main id="consent">
<h1>{{.App}} wants to access your account</h1>
<p>Signed in as <strong id="consent-user">{{.User}}</strong></p>
<p>This will allow the developer of {{.App}} to:</p>
<ul>{{range .Scopes}}<li>{{.}}</li>{{end}}</ul>
<form method="post" action="/oauth2/authorize">
{{range $k, $vs := .Query}}{{range $vs}}<input type="hidden" name="{{$k}}" value="{{.}}">{{end}}{{end}}
<button type="submit" name="decision" value="cancel" id="cancel">Cancel</button>
<button type="submit" name="decision" value="authorize" id="authorize">Authorize</button>
</form></main></body></html>
`))

// clientAuth checks the client's credentials, from HTTP Basic or the form.
func (o *oauthState) clientAuth(r *http.Request) bool {
	id, secret, ok := r.BasicAuth()
	if !ok {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	return id != "" && id == o.clientID && subtle.ConstantTimeCompare([]byte(secret), []byte(o.secret)) == 1
}

// oauthClient reads the form of a client-authenticated token route and
// checks the client's credentials; on a bad form or bad credentials it has
// answered with Discord's OAuth2 error. Call it with s.mu held.
func (s *Server) oauthClient(w http.ResponseWriter, r *http.Request) (*oauthState, bool) {
	o := s.oauthState()
	if err := r.ParseForm(); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_request"})
		return nil, false
	}
	if !o.clientAuth(r) {
		o.refuse(w, http.StatusUnauthorized, "invalid_client", "bad client credentials")
		return nil, false
	}
	return o, true
}

func (o *oauthState) refuse(w http.ResponseWriter, status int, code, desc string) {
	o.refused[code]++
	writeJSON(w, status, map[string]string{"error": code, "error_description": desc})
}

// serveToken exchanges a code (with its PKCE verifier) or a refresh token.
func (s *Server) serveToken(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.oauthClient(w, r)
	if !ok {
		return
	}
	f := r.PostForm
	var grant *userToken
	switch f.Get("grant_type") {
	case "authorization_code":
		c := o.codes[f.Get("code")]
		switch {
		case c == nil || c.used || time.Now().After(c.expires):
			if c != nil && c.used {
				// A code used twice revokes what it granted, as RFC 6749 10.5 asks.
				for tok, t := range o.tokens {
					if t.user == c.user && t.scope == c.scope {
						o.revoked[tok] = true
					}
				}
			}
			o.refuse(w, http.StatusBadRequest, "invalid_grant", "Invalid \"code\" in request.")
			return
		case f.Get("redirect_uri") != c.redirect:
			o.refuse(w, http.StatusBadRequest, "invalid_grant", "Invalid \"redirect_uri\" in request.")
			return
		case !pkceMatches(f.Get("code_verifier"), c.challenge):
			o.refuse(w, http.StatusBadRequest, "invalid_grant", "Invalid \"code_verifier\" in request.")
			return
		}
		c.used = true
		grant = &userToken{user: c.user, scope: c.scope}
		o.exchanges++
	case "refresh_token":
		old := o.refresh[f.Get("refresh_token")]
		if old == nil {
			o.refuse(w, http.StatusBadRequest, "invalid_grant", "Invalid \"refresh_token\" in request.")
			return
		}
		delete(o.refresh, old.refresh)
		o.revoked[old.access] = true
		grant = &userToken{user: old.user, scope: old.scope}
	default:
		o.refuse(w, http.StatusBadRequest, "unsupported_grant_type", "")
		return
	}
	grant.access, grant.refresh = randomToken(), randomToken()
	o.tokens[grant.access], o.refresh[grant.refresh] = grant, grant
	o.expires[grant.access] = time.Now().Add(7 * 24 * time.Hour)
	o.scopes[grant.access] = map[string]bool{}
	for _, sc := range strings.Fields(grant.scope) {
		o.scopes[grant.access][sc] = true
	}
	writeJSON(w, http.StatusOK, map[string]any{"access_token": grant.access, "token_type": "Bearer",
		"expires_in": 604800, "refresh_token": grant.refresh, "scope": grant.scope})
}

// pkceMatches checks RFC 7636's S256: BASE64URL(SHA256(verifier)) = challenge.
func pkceMatches(verifier, challenge string) bool {
	if len(verifier) < 43 || len(verifier) > 128 {
		return false
	}
	sum := sha256.Sum256([]byte(verifier))
	return subtle.ConstantTimeCompare([]byte(base64.RawURLEncoding.EncodeToString(sum[:])), []byte(challenge)) == 1
}

// serveRevoke revokes an access or refresh token (RFC 7009): the whole
// grant goes, and an unknown token is no error.
func (s *Server) serveRevoke(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.oauthClient(w, r)
	if !ok {
		return
	}
	tok := r.PostForm.Get("token")
	g := o.tokens[tok]
	if g == nil {
		g = o.refresh[tok]
	}
	if g != nil {
		o.revoked[g.access] = true
		delete(o.refresh, g.refresh)
	}
	s.notify()
	writeJSON(w, http.StatusOK, map[string]any{})
}

// bearerUser returns the grant of a request's valid bearer token.
func (o *oauthState) bearerUser(r *http.Request) *userToken {
	scheme, tok, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if scheme != "Bearer" {
		return nil
	}
	g := o.tokens[tok]
	if g == nil || o.revoked[tok] || time.Now().After(o.expires[tok]) {
		return nil
	}
	return g
}

func (s *Server) serveMe(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if strings.HasPrefix(r.Header.Get("Authorization"), "Bot ") {
		writeJSON(w, http.StatusOK, map[string]any{"id": s.BotUserID, "username": "ladderbot", "bot": true, "discriminator": "0"})
		return
	}
	o := s.oauthState()
	g := o.bearerUser(r)
	if g == nil {
		httpError(w, http.StatusUnauthorized, "401: Unauthorized")
		return
	}
	o.bearerLog = append(o.bearerLog, "users/@me")
	writeJSON(w, http.StatusOK, map[string]any{"id": g.user, "username": o.users[g.user], "global_name": o.users[g.user],
		"discriminator": "0", "avatar": nil})
}

// serveMyGuilds lists the guilds the token's user is a member of, with the
// user's permissions there as Discord computes them: everything for the
// owner and for Administrator, else the union of @everyone's, the member's
// roles' and any grant.
func (s *Server) serveMyGuilds(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.oauthState()
	g := o.bearerUser(r)
	if g == nil {
		httpError(w, http.StatusUnauthorized, "401: Unauthorized")
		return
	}
	if !o.scopes[g.access]["guilds"] {
		discordError(w, http.StatusForbidden, 50001, "Missing Access")
		return
	}
	o.bearerLog = append(o.bearerLog, "users/@me/guilds")
	out := []map[string]any{}
	ids := make([]string, 0, len(s.roleGuilds))
	for id := range s.roleGuilds {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		rg := s.roleGuilds[id]
		roles, ok := rg.members[g.user]
		if !ok {
			continue
		}
		perms := o.grants[[2]string{id, g.user}]
		for _, role := range rg.roles {
			if role.ID == id || slices.Contains(roles, role.ID) {
				p, _ := strconv.ParseInt(role.Perms, 10, 64)
				perms |= p
			}
		}
		owner := o.owners[id] == g.user
		if owner || perms&PermAdministrator != 0 {
			perms = 1<<53 - 1
		}
		name := o.guildNames[id]
		if name == "" {
			name = "guild " + id
		}
		out = append(out, map[string]any{"id": id, "name": name, "icon": nil, "owner": owner,
			"permissions": strconv.FormatInt(perms, 10), "features": []string{}})
	}
	writeJSON(w, http.StatusOK, out)
}

// RevokeAllTokens revokes every access token granted so far, as users
// removing the application in Discord's settings would.
func (s *Server) RevokeAllTokens() {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.oauthState()
	for tok := range o.tokens {
		o.revoked[tok] = true
	}
	s.notify()
}
