package dashboard

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/alexedwards/scs/v2"
	"golang.org/x/oauth2"

	"github.com/ladderbot/ladderbot/joins"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/queueconfig"
)

// Config is the dashboard's configuration from the environment.
type Config struct {
	// ClientID and ClientSecret are the Discord application's OAuth2
	// credentials (DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET).
	ClientID, ClientSecret string
	// PublicURL is where browsers reach this server (PUBLIC_URL), e.g.
	// https://ladder.example.org; the OAuth2 redirect URI is
	// PublicURL + "/admin/callback". An https URL makes cookies Secure.
	PublicURL string
	// APIBase is DISCORD_API_BASE (default https://discord.com): the
	// browser authorizes at APIBase/oauth2/authorize and the server talks
	// to APIBase/api/….
	APIBase string
	// BotToken is DISCORD_TOKEN, used to read members' roles for the
	// ladder's moderator role; without it only Manage Server admits.
	BotToken string
}

// Enabled reports whether the dashboard has what it needs to log users in.
func (c Config) Enabled() bool {
	return c.ClientID != "" && c.ClientSecret != "" && c.PublicURL != ""
}

// Missing names the settings an off dashboard lacks.
func (c Config) Missing() []string {
	var out []string
	for _, kv := range [][2]string{{"DISCORD_CLIENT_ID", c.ClientID}, {"DISCORD_CLIENT_SECRET", c.ClientSecret}, {"PUBLIC_URL", c.PublicURL}} {
		if kv[1] == "" {
			out = append(out, kv[0])
		}
	}
	return out
}

// Validate checks PUBLIC_URL when it is set.
func (c Config) Validate() error {
	if c.PublicURL == "" {
		return nil
	}
	u, err := url.Parse(c.PublicURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		return fmt.Errorf("PUBLIC_URL=%q: want the server's origin, such as https://ladder.example.org", c.PublicURL)
	}
	return nil
}

// Options are what New needs besides the configuration.
type Options struct {
	Config  Config
	Service *ladder.Service
	// Sessions stores the sessions; storage.DB implements it.
	Sessions SessionRows
	Log      *slog.Logger
	// Client makes the requests to Discord (default: 10 s timeout).
	Client *http.Client
	// Webhooks is the URL policy of webhooks added here (WEBHOOK_ALLOW_HTTP).
	Webhooks ladder.URLPolicy
	// Rooms keeps the queues' room settings (rooms.Manager); without it
	// the queue form leaves them out.
	Rooms queueconfig.Rooms
	// Community keeps the queues' predictions and MVP vote settings
	// (community.Service); without it the queue form leaves them out.
	Community queueconfig.Community
	// Formats keeps the queues' format settings (formats.Service);
	// without it the queue form leaves them out.
	Formats queueconfig.Formats
	// Invalidate, when set, is called with a guild whose ratings a
	// dashboard write changed (the web server's leaderboard cache).
	Invalidate func(guildID string)
	// Joins keeps the queues' requirements, open hours and rematch
	// setting, shown and changed on the queue page beside the others; nil
	// leaves them out.
	Joins *joins.Service
	// Integrity lists and dismisses the integrity flags
	// (integrity.Service); nil leaves the integrity page out.
	Integrity Flags
}

// Dashboard is the moderators' web dashboard under /admin.
type Dashboard struct {
	cfg        Config
	svc        *ladder.Service
	log        *slog.Logger
	sm         *scs.SessionManager
	rows       SessionRows
	oauth      *oauth2.Config
	discord    discordAPI
	pages      pageSet
	queues     queueconfig.Config
	invalidate func(string)
	webhooks   ladder.URLPolicy
	joins      *joins.Service
	flags      Flags
	handler    http.Handler
}

// recheckAfter is how long a successful permission check of a guild stands
// for reads; every write checks again.
const recheckAfter = 5 * time.Minute

// New returns the dashboard; when cfg is not Enabled its handler answers
// /admin with a page saying so, and every other dashboard path with 404.
func New(opts Options) (*Dashboard, error) {
	d := &Dashboard{cfg: opts.Config, svc: opts.Service, log: opts.Log, pages: parsePages(), invalidate: opts.Invalidate,
		webhooks: opts.Webhooks, flags: opts.Integrity, queues: queueconfig.Config{Service: opts.Service, Rooms: opts.Rooms, Community: opts.Community, Formats: opts.Formats}}
	if opts.Joins != nil {
		d.queues.Joins = opts.Joins
	}
	if d.log == nil {
		d.log = slog.New(slog.DiscardHandler)
	}
	if d.invalidate == nil {
		d.invalidate = func(string) {}
	}
	if !d.cfg.Enabled() {
		d.handler = http.HandlerFunc(d.off)
		return d, nil
	}
	if err := d.cfg.Validate(); err != nil {
		return nil, err
	}
	base := strings.TrimRight(d.cfg.APIBase, "/")
	if base == "" {
		base = "https://discord.com"
	}
	public := strings.TrimRight(d.cfg.PublicURL, "/")
	client := opts.Client
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	d.discord = discordAPI{base: base, botToken: d.cfg.BotToken, client: client}
	d.oauth = &oauth2.Config{
		ClientID:     d.cfg.ClientID,
		ClientSecret: d.cfg.ClientSecret,
		Endpoint: oauth2.Endpoint{AuthURL: base + "/oauth2/authorize", TokenURL: base + "/api/oauth2/token",
			AuthStyle: oauth2.AuthStyleInHeader},
		RedirectURL: public + "/admin/callback",
		Scopes:      []string{"identify", "guilds"},
	}
	d.rows = opts.Sessions
	d.sm = newSessions(opts.Sessions, strings.HasPrefix(public, "https://"))
	d.sm.ErrorFunc = func(w http.ResponseWriter, r *http.Request, err error) {
		d.fail(w, r, fmt.Errorf("dashboard: session: %w", err))
	}
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d.errorPage(w, r, http.StatusForbidden, pageLang(r).T("dash.err_cross_site"))
	}))
	d.handler = headers(d.sm.LoadAndSave(cop.Handler(d.routes())))
	return d, nil
}

// Handler serves /admin and everything under it.
func (d *Dashboard) Handler() http.Handler { return d.handler }

func (d *Dashboard) routes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /admin", d.index)
	mux.HandleFunc("GET /admin/{$}", d.index)
	mux.HandleFunc("GET /admin/login", d.login)
	mux.HandleFunc("GET /admin/callback", d.callback)
	mux.HandleFunc("GET /admin/logout", d.logoutPage)
	mux.HandleFunc("POST /admin/logout", d.logout)
	const g = "/admin/guilds/{guild}"
	mux.HandleFunc("GET "+g, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Path+"/", http.StatusMovedPermanently)
	})
	mux.HandleFunc("GET "+g+"/{$}", d.read(d.overview))
	mux.HandleFunc("GET "+g+"/queues/{queue}", d.read(d.queuePage))
	mux.HandleFunc("POST "+g+"/queues/{queue}", d.write(d.saveQueue))
	mux.HandleFunc("GET "+g+"/settings", d.read(d.settingsPage))
	mux.HandleFunc("POST "+g+"/settings", d.write(d.saveSettings))
	mux.HandleFunc("POST "+g+"/roles", d.write(d.saveRoles))
	mux.HandleFunc("POST "+g+"/season/end", d.write(d.endSeason))
	mux.HandleFunc("GET "+g+"/integrations", d.read(d.integrationsPage))
	mux.HandleFunc("POST "+g+"/tokens", d.write(d.createToken))
	mux.HandleFunc("POST "+g+"/tokens/{name}/revoke", d.write(d.revokeToken))
	mux.HandleFunc("POST "+g+"/webhooks", d.write(d.createWebhook))
	mux.HandleFunc("POST "+g+"/webhooks/{id}/delete", d.write(d.deleteWebhook))
	mux.HandleFunc("GET "+g+"/audit", d.read(d.auditPage))
	mux.HandleFunc("GET "+g+"/disputes", d.read(d.disputesPage))
	mux.HandleFunc("GET "+g+"/matches/{id}", d.read(d.matchPage))
	mux.HandleFunc("POST "+g+"/matches/{id}/resolve", d.write(d.resolveMatch))
	mux.HandleFunc("POST "+g+"/matches/{id}/void", d.write(d.voidMatch))
	mux.HandleFunc("POST "+g+"/matches/{id}/correct", d.write(d.correctMatch))
	mux.HandleFunc("GET "+g+"/players", d.read(d.playersPage))
	mux.HandleFunc("GET "+g+"/players/{id}", d.read(d.playerPage))
	mux.HandleFunc("POST "+g+"/players/{id}/ban", d.write(d.banPlayer))
	mux.HandleFunc("POST "+g+"/players/{id}/unban", d.write(d.unbanPlayer))
	mux.HandleFunc("POST "+g+"/players/{id}/cooldown", d.write(d.clearCooldown))
	mux.HandleFunc("POST "+g+"/players/{id}/rating", d.write(d.setRating))
	mux.HandleFunc("POST "+g+"/players/{id}/rating/reset", d.write(d.resetRating))
	if d.flags != nil {
		mux.HandleFunc("GET "+g+"/integrity", d.read(d.integrityPage))
		mux.HandleFunc("POST "+g+"/integrity/{id}/dismiss", d.write(d.dismissFlag))
	}
	mux.HandleFunc("/admin/", func(w http.ResponseWriter, r *http.Request) { d.noRoute(mux, w, r) })
	return mux
}

// noRoute answers a request no route takes: 405 with Allow when the path
// is a page or a form's address that other methods reach, 404 otherwise.
// The catch-all would otherwise answer a PUT on a page, or a GET of a
// form's address, with "no dashboard page here".
func (d *Dashboard) noRoute(mux *http.ServeMux, w http.ResponseWriter, r *http.Request) {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPost} {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := mux.Handler(probe); pattern == "" || pattern == "/admin/" {
			continue
		}
		if allow = append(allow, m); m == http.MethodGet {
			allow = append(allow, http.MethodHead)
		}
	}
	if len(allow) == 0 {
		d.errorPage(w, r, http.StatusNotFound, pageLang(r).T("dash.err_no_page"))
		return
	}
	w.Header().Set("Allow", strings.Join(allow, ", "))
	d.errorPage(w, r, http.StatusMethodNotAllowed, pageLang(r).T("dash.err_method", "Method", r.Method, "Allow", strings.Join(allow, ", ")))
}

// headers sets what every dashboard answer carries: nothing cached,
// nothing framed, no referrer leaving the site (the callback's URL holds
// a code), and a policy that allows no script at all.
func headers(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Cache-Control", "no-store")
		h.Set("X-Frame-Options", "DENY")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
		next.ServeHTTP(w, r)
	})
}

// off answers while the dashboard is not configured.
func (d *Dashboard) off(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/admin" && r.URL.Path != "/admin/" {
		d.errorPage(w, r, http.StatusNotFound, pageLang(r).T("dash.err_off"))
		return
	}
	d.render(w, r, http.StatusOK, "off", page{TitleID: "dash.off_title", Data: d.cfg.Missing()})
}

// session is who is logged in, from the session.
type session struct {
	UserID, Name, CSRF string
}

func (d *Dashboard) session(ctx context.Context) (session, bool) {
	s := session{UserID: d.sm.GetString(ctx, keyUser), Name: d.sm.GetString(ctx, keyName), CSRF: d.sm.GetString(ctx, keyCSRF)}
	return s, s.UserID != ""
}

// guildRequest is what a guild page's handler gets: the guild, who asks,
// and the actor its writes are audited as.
type guildRequest struct {
	Guild ladder.Guild
	Name  string // the guild's name on Discord
	User  session
	Actor ladder.Actor
}

type guildHandler func(w http.ResponseWriter, r *http.Request, gr guildRequest)

// read guards a guild page: logged in, and allowed to manage the guild
// (checked again when the last check is older than recheckAfter).
func (d *Dashboard) read(h guildHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { d.guarded(w, r, false, h) }
}

// write guards a guild form's POST: logged in, the session's CSRF token,
// and the permission checked again with Discord now.
func (d *Dashboard) write(h guildHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { d.guarded(w, r, true, h) }
}

func (d *Dashboard) guarded(w http.ResponseWriter, r *http.Request, write bool, h guildHandler) {
	ctx := r.Context()
	s, ok := d.session(ctx)
	if !ok {
		if write {
			d.errorPage(w, r, http.StatusUnauthorized, pageLang(r).T("dash.err_logged_out"))
			return
		}
		http.Redirect(w, r, "/admin/login?next="+url.QueryEscape(r.URL.RequestURI()), http.StatusSeeOther)
		return
	}
	if write && !equalSecret(s.CSRF, r.PostFormValue("csrf")) {
		d.errorPage(w, r, http.StatusForbidden, pageLang(r).T("dash.err_csrf_unchanged"))
		return
	}
	guildID := r.PathValue("guild")
	g, err := d.svc.Guild(ctx, guildID)
	if err != nil {
		d.fail(w, r, err)
		return
	}
	name, err := d.authorize(ctx, s, g, write)
	if err == errLoggedOut && !write {
		// Discord dropped the login: log in again and come back here.
		http.Redirect(w, r, "/admin/login?next="+url.QueryEscape(r.URL.RequestURI()), http.StatusSeeOther)
		return
	}
	if err != nil {
		d.fail(w, r, err)
		return
	}
	h(w, r, guildRequest{Guild: g, Name: name, User: s, Actor: ladder.Actor{UserID: "web:" + s.UserID, Moderator: true}})
}

// errLoggedOut ends a request whose Discord token stopped working.
var errLoggedOut = ladder.Errorf(ladder.CodeForbidden, "Discord no longer accepts your login (it was revoked or expired); log in again.")

// authorize checks that the user may manage guild g: Manage Server (or
// Administrator, or ownership) there, from Discord's guild list with the
// user's token, or the ladder's moderator role, from the member's roles
// read with the bot's token. A success stands for recheckAfter on reads;
// writes always check. It returns the guild's name on Discord.
func (d *Dashboard) authorize(ctx context.Context, s session, g ladder.Guild, write bool) (string, error) {
	key := keyAuthz + g.ID
	if at := d.sm.GetInt64(ctx, key); !write && at != 0 && time.Since(time.Unix(at, 0)) < recheckAfter {
		return d.sm.GetString(ctx, key+":name"), nil
	}
	d.sm.Remove(ctx, key)
	gs, err := d.discord.guilds(ctx, d.sm.GetString(ctx, keyToken))
	if err == errUnauthorized {
		_ = d.sm.Destroy(ctx)
		return "", errLoggedOut
	}
	if err != nil {
		return "", ladder.Wrap(ladder.CodeUnavailable, err, "Discord did not answer the permission check; try again shortly.")
	}
	var ug *userGuild
	for i := range gs {
		if gs[i].ID == g.ID {
			ug = &gs[i]
		}
	}
	if ug == nil {
		return "", ladder.Errorf(ladder.CodeForbidden, "You are not a member of this server on Discord.")
	}
	allowed := ug.manages()
	if !allowed && g.ModeratorRoleID != "" {
		roles, err := d.discord.memberRoles(ctx, g.ID, s.UserID)
		if err != nil && err != errNotMember {
			return "", ladder.Wrap(ladder.CodeUnavailable, err, "Discord did not answer the permission check; try again shortly.")
		}
		for _, r := range roles {
			allowed = allowed || r == g.ModeratorRoleID
		}
	}
	if !allowed {
		return "", ladder.Errorf(ladder.CodeForbidden, "You need Manage Server or the ladder's moderator role in %s to manage its ladder.", ug.Name)
	}
	d.sm.Put(ctx, key, time.Now().Unix())
	d.sm.Put(ctx, key+":name", ug.Name)
	return ug.Name, nil
}

// flash keeps a message for the next page the user sees.
func (d *Dashboard) flash(ctx context.Context, msg string) { d.sm.Put(ctx, keyFlash, msg) }

// back answers a successful write: 303 to the page, with msg shown there.
func (d *Dashboard) back(w http.ResponseWriter, r *http.Request, to, msg string) {
	d.flash(r.Context(), msg)
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// guildPath is the path of a page of the guild; each segment is escaped,
// so a queue named "a/b" or "ranked 2v2" is one segment.
func guildPath(guildID string, rest ...string) string {
	segs := make([]string, len(rest))
	for i, s := range rest {
		segs[i] = url.PathEscape(s)
	}
	return "/admin/guilds/" + url.PathEscape(guildID) + "/" + strings.Join(segs, "/")
}
