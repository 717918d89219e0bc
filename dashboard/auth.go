package dashboard

import (
	"context"
	"net/http"
	"slices"

	"golang.org/x/oauth2"

	"github.com/ladderbot/ladderbot/ladder"
)

// login starts Discord's OAuth2 authorization-code flow with PKCE (S256):
// a fresh state and verifier are kept in this browser's session only, so
// the callback accepts the code in the browser that asked for it and in
// no other. next, the page to return to, must be a dashboard path.
func (d *Dashboard) login(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	state, verifier := randomString(32), oauth2.GenerateVerifier()
	d.sm.Put(ctx, keyState, state)
	d.sm.Put(ctx, keyVerifier, verifier)
	d.sm.Put(ctx, keyNext, safeNext(r.URL.Query().Get("next")))
	http.Redirect(w, r, d.oauth.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier)), http.StatusFound)
}

// callback finishes the login. The state and verifier are taken out of the
// session before anything else, so a callback URL works once: a replayed,
// forged or other browser's callback finds no matching state and changes
// nothing. On success the session starts again from nothing, with a new
// token (no fixation: a session ID planted before login is worthless
// after it) and a new CSRF token.
func (d *Dashboard) callback(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	want, verifier, next := d.sm.PopString(ctx, keyState), d.sm.PopString(ctx, keyVerifier), d.sm.PopString(ctx, keyNext)
	q := r.URL.Query()
	if !equalSecret(want, q.Get("state")) || verifier == "" {
		d.errorPage(w, r, http.StatusBadRequest, pageLang(r).T("dash.err_login_link"))
		return
	}
	if e := q.Get("error"); e != "" {
		d.errorPage(w, r, http.StatusForbidden, pageLang(r).T("dash.err_login_refused", "Reason", e))
		return
	}
	// The exchange uses the dashboard's client, with its timeout.
	tok, err := d.oauth.Exchange(context.WithValue(ctx, oauth2.HTTPClient, d.discord.client), q.Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		d.log.Warn("dashboard: code exchange", "err", err)
		d.errorPage(w, r, http.StatusBadGateway, pageLang(r).T("dash.err_login_code"))
		return
	}
	u, err := d.discord.me(ctx, tok.AccessToken)
	if err != nil {
		d.fail(w, r, err)
		return
	}
	// Whatever the session held before, a user logged in in this browser
	// before (another account, on a shared computer) included, goes: the
	// permission checks it passed (keyAuthz) stand for reads, and must
	// not stand for whoever logs in now.
	if err := d.sm.Clear(ctx); err != nil {
		d.fail(w, r, err)
		return
	}
	if err := d.sm.RenewToken(ctx); err != nil {
		d.fail(w, r, err)
		return
	}
	d.sm.Put(ctx, keyUser, u.ID)
	d.sm.Put(ctx, keyName, u.name())
	d.sm.Put(ctx, keyToken, tok.AccessToken)
	d.sm.Put(ctx, keyCSRF, randomString(32))
	d.log.Info("dashboard: login", "user_id", u.ID)
	http.Redirect(w, r, safeNext(next), http.StatusSeeOther)
}

// indexPage is the data of /admin.
type indexPage struct {
	Guilds []indexGuild
}

type indexGuild struct {
	ID, Name string
	Manages  bool
}

// index lists the guilds the user shares with the ladder, or offers the
// login.
func (d *Dashboard) index(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	s, ok := d.session(ctx)
	if !ok {
		d.render(w, r, http.StatusOK, "login", page{TitleID: "dash.login_title"})
		return
	}
	gs, err := d.discord.guilds(ctx, d.sm.GetString(ctx, keyToken))
	if err == errUnauthorized {
		_ = d.sm.Destroy(ctx)
		http.Redirect(w, r, "/admin", http.StatusSeeOther)
		return
	}
	if err != nil {
		d.fail(w, r, err)
		return
	}
	ladders, err := d.svc.AllGuilds(ctx)
	if err != nil {
		d.fail(w, r, err)
		return
	}
	var data indexPage
	for _, g := range gs {
		if slices.ContainsFunc(ladders, func(l ladder.Guild) bool { return l.ID == g.ID }) {
			data.Guilds = append(data.Guilds, indexGuild{ID: g.ID, Name: g.Name, Manages: g.manages()})
		}
	}
	d.render(w, r, http.StatusOK, "index", page{TitleID: "dash.servers", User: s, Data: data})
}

// logoutPage offers the two log-out buttons (a GET must change nothing).
func (d *Dashboard) logoutPage(w http.ResponseWriter, r *http.Request) {
	s, ok := d.session(r.Context())
	if !ok {
		http.Redirect(w, r, "/admin", http.StatusSeeOther)
		return
	}
	d.render(w, r, http.StatusOK, "logout", page{TitleID: "dash.logout", User: s})
}

// logout ends this session, or with everywhere=1 every session of the
// user, and revokes the Discord token of this one. The session row is
// deleted, so the cookie, even a copy of it, opens nothing any more.
func (d *Dashboard) logout(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	s, ok := d.session(ctx)
	if !ok {
		http.Redirect(w, r, "/admin", http.StatusSeeOther)
		return
	}
	if !equalSecret(s.CSRF, r.PostFormValue("csrf")) {
		d.errorPage(w, r, http.StatusForbidden, pageLang(r).T("dash.err_csrf"))
		return
	}
	if tok := d.sm.GetString(ctx, keyToken); tok != "" {
		if err := d.discord.revoke(ctx, d.cfg.ClientID, d.cfg.ClientSecret, tok); err != nil {
			d.log.Warn("dashboard: revoke discord token", "user_id", s.UserID, "err", err)
		}
	}
	if err := d.sm.Destroy(ctx); err != nil {
		d.fail(w, r, err)
		return
	}
	if r.PostFormValue("everywhere") == "1" {
		n, err := d.rows.DeleteUserSessions(context.WithoutCancel(ctx), s.UserID)
		if err != nil {
			d.fail(w, r, err)
			return
		}
		d.log.Info("dashboard: logged out everywhere", "user_id", s.UserID, "sessions", n)
	}
	http.Redirect(w, r, "/admin", http.StatusSeeOther)
}
