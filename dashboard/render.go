package dashboard

import (
	"bytes"
	"context"
	"embed"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/internal/httperr"
	"github.com/ladderbot/ladderbot/ladder"
)

//go:embed templates/*.html
var templateFS embed.FS

// pageSet holds, for each language code, one template set per page, each
// with the shared layout; the text functions are bound to the language.
type pageSet map[string]map[string]*template.Template

var pageNames = []string{"off", "login", "index", "logout", "error", "guild", "queue", "audit",
	"disputes", "match", "players", "player", "settings", "integrations", "integrity"}

func parsePages() pageSet {
	cat := i18n.Default()
	out := pageSet{}
	for _, code := range append(cat.Languages(), i18n.Pseudo) {
		l, _ := cat.Lang(code)
		var links []langLink
		for _, c := range cat.Languages() {
			o, _ := cat.Lang(c)
			links = append(links, langLink{Code: c, Tag: o.Tag().String(), Name: o.Name(), Current: c == code})
		}
		funcs := template.FuncMap{
			"guildPath": guildPath,
			// ifRated names the form that applies a result: a correction of a
			// rated match, else the resolution of an unrated one.
			"ifRated": func(rated bool) string {
				if rated {
					return "correct"
				}
				return "resolve"
			},
			"next":   func(n int) int { return n + 1 },
			"signed": func(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) },
			"delta": func(a, b float64) string {
				d := b - a
				if d >= 0 {
					return "+" + strconv.FormatFloat(d, 'f', 1, 64)
				}
				return strconv.FormatFloat(d, 'f', 1, 64)
			},
			"when": func(t time.Time) string {
				if t.IsZero() {
					return ""
				}
				return l.DateTime(t)
			},
			"t":         l.T,
			"n":         l.N,
			"lang":      func() string { return l.Tag().String() },
			"languages": func() []langLink { return links },
			"rating":    l.Rating,
			// help is a setting's help text: its own translation
			// (help.*), else that of the option description it repeats.
			"help":  func(s string) string { return helpText(l, s) },
			"state": func(s ladder.MatchState) string { return l.T("state." + string(s)) },
			// action names an audit entry's action (audit.*), else shows
			// its code.
			"action": func(a string) string {
				if id := "audit." + a; l.Has(id) {
					return l.T(id)
				}
				return a
			},
			// reason is a stored reason: one the ladder wrote in the
			// page's language, a person's own words as written.
			"reason": func(text, code string) string { return commands.ReasonText(l, text, code, nil) },
			"choice": func(s string) string { return l.Registration(i18n.SectionChoice, s) },
			// changes is an audit entry's recorded change as labelled
			// fields, nil when it is not a JSON object.
			"changes": func(text string) []changeField { return changeFields(l, text) },
			// failure describes a webhook delivery attempt that failed.
			"failure": func(a ladder.DeliveryAttempt) string { return deliveryFailure(l, a) },
		}
		out[code] = map[string]*template.Template{}
		for _, name := range pageNames {
			out[code][name] = template.Must(template.New(name).Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/"+name+".html"))
		}
	}
	return out
}

// helpText is a setting's help text in language l: the catalogs' help.*
// entry, else the translation of the slash command option's description
// it repeats (cmd.*), else as written.
func helpText(l *i18n.Lang, s string) string {
	if id := "help." + s; l.Has(id) {
		return l.T(id)
	}
	return l.Registration(i18n.SectionDescription, s)
}

// page is the data every page gets: the layout's parts and the page's own.
type page struct {
	// Title is the page's title; TitleID and TitleArgs, when set, make it
	// from the catalogs in the page's language instead.
	Title     string
	TitleID   string
	TitleArgs []any
	User      session
	GuildID   string
	Guild     string // the guild's name
	Flash     string
	Error     string
	Data      any
	// Integrity shows the integrity page in the guild's navigation.
	Integrity bool
}

// guildPage is a page of a guild with its navigation.
// Its title is the message titleID with kv.
func (d *Dashboard) guildPage(ctx context.Context, gr guildRequest, titleID string, data any, kv ...any) page {
	return page{TitleID: titleID, TitleArgs: kv, User: gr.User, GuildID: gr.Guild.ID, Guild: gr.Name, Flash: d.sm.PopString(ctx, keyFlash), Data: data,
		Integrity: d.flags != nil}
}

// render executes a page into a buffer first, so a template error becomes
// a clean 500 instead of half a page. It is in pageLang's language; a
// ?lang= from the switcher is remembered in a cookie.
func (d *Dashboard) render(w http.ResponseWriter, r *http.Request, status int, name string, p page) {
	l := pageLang(r)
	if p.TitleID != "" {
		p.Title = l.T(p.TitleID, p.TitleArgs...)
	}
	var buf bytes.Buffer
	if err := d.pages[l.Code()][name].ExecuteTemplate(&buf, "layout", p); err != nil {
		d.log.Error("dashboard: render", "page", name, "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	if code := r.URL.Query().Get("lang"); code == l.Code() {
		http.SetCookie(w, &http.Cookie{Name: langCookie, Value: code, Path: "/", MaxAge: 365 * 24 * 3600, HttpOnly: true, SameSite: http.SameSiteLaxMode})
	}
	w.Header().Set("Content-Language", l.Tag().String())
	w.Header().Add("Vary", "Accept-Language, Cookie")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// statusTitles are the error pages' titles by status, in the catalogs.
var statusTitles = map[int]string{
	http.StatusBadRequest: "dash.status_400", http.StatusUnauthorized: "dash.status_401", http.StatusForbidden: "dash.status_403",
	http.StatusNotFound: "dash.status_404", http.StatusMethodNotAllowed: "dash.status_405", http.StatusConflict: "dash.status_409", http.StatusInternalServerError: "dash.status_500",
	http.StatusBadGateway: "dash.status_502", http.StatusServiceUnavailable: "dash.status_503",
}

// errorPage answers with a page saying msg, already in the page's
// language.
func (d *Dashboard) errorPage(w http.ResponseWriter, r *http.Request, status int, msg string) {
	p := page{Title: http.StatusText(status), TitleID: statusTitles[status], Error: msg}
	if status != http.StatusForbidden && status != http.StatusUnauthorized && status != http.StatusNotFound && status != http.StatusMethodNotAllowed {
		// The guild's navigation, for a refused value on a page of a
		// guild the user manages; none where the guild is not theirs.
		p.GuildID = r.PathValue("guild")
		p.Integrity = d.flags != nil
	}
	if d.sm != nil {
		p.User, _ = d.session(r.Context())
	}
	d.render(w, r, status, "error", p)
}

// fail answers err: a coded ladder error with its message and status,
// anything else as a 500 with a reference that the log line also has.
func (d *Dashboard) fail(w http.ResponseWriter, r *http.Request, err error) {
	status, msg := statusOf(err)
	if status == http.StatusInternalServerError {
		ref := httperr.Ref()
		d.log.Error("dashboard: request failed", "path", r.URL.Path, "ref", ref, "err", err)
		msg = pageLang(r).T("dash.internal", "Ref", ref)
	} else {
		if status == http.StatusServiceUnavailable {
			d.log.Warn("dashboard: unavailable", "path", r.URL.Path, "err", err)
		}
		msg = d.localError(r, err, msg)
	}
	d.errorPage(w, r, status, msg)
}

// refused answers a form that err refused: a coded error shows the form
// again (the page form builds, named name) with its message and status;
// anything else is fail's.
func (d *Dashboard) refused(w http.ResponseWriter, r *http.Request, err error, name string, form func() (page, error)) {
	status, msg := statusOf(err)
	if status == http.StatusInternalServerError {
		d.fail(w, r, err)
		return
	}
	p, ferr := form()
	if ferr != nil {
		d.fail(w, r, ferr)
		return
	}
	p.Error = d.localError(r, err, msg)
	d.render(w, r, status, name, p)
}

// localError is a coded error's message in the page's language: the
// catalog's translation of its format, else msg as the ladder wrote it.
// The ladder names players and actors in its messages as Discord
// mentions, <@ID>, which a page would show as they are: they are written
// as the players' names here (nameMentions).
func (d *Dashboard) localError(r *http.Request, err error, msg string) string {
	if format, args := ladder.ErrorFormat(err); format != "" {
		msg = pageLang(r).Error(format, args...)
	}
	return d.nameMentions(r, msg)
}

// nameMentions writes each user mention in msg as the name the guild's
// ladder knows the player by, the signed-in moderator's own name for
// them, or else the ID; "web:<ID>", the dashboard acting for a
// moderator, is that moderator.
func (d *Dashboard) nameMentions(r *http.Request, msg string) string {
	var ids []string
	commands.ReplaceMentions(msg, func(id string) string {
		ids = append(ids, strings.TrimPrefix(id, "web:"))
		return ""
	})
	if len(ids) == 0 {
		return msg
	}
	var names map[string]string
	if guildID := r.PathValue("guild"); guildID != "" {
		// A failed read leaves the IDs: the message matters more.
		names, _ = d.svc.PlayerNames(r.Context(), guildID, ids)
	}
	var self session
	if d.sm != nil {
		self, _ = d.session(r.Context())
	}
	return commands.ReplaceMentions(msg, func(id string) string {
		id = strings.TrimPrefix(id, "web:")
		switch {
		case names[id] != "":
			return names[id]
		case id == self.UserID && self.Name != "":
			return self.Name
		}
		return id
	})
}

// statusOf maps a coded ladder error to an HTTP status and its message,
// as the token API does.
func statusOf(err error) (int, string) { return httperr.Status(err) }
