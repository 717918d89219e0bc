package dashboard

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"time"

	"github.com/ladderbot/ladderbot/internal/httperr"
)

//go:embed templates/*.html
var templateFS embed.FS

// pageSet holds one template set per page, each with the shared layout.
type pageSet map[string]*template.Template

var pageNames = []string{"off", "login", "index", "logout", "error", "guild", "queue", "audit",
	"disputes", "match", "players", "player", "settings", "integrations"}

func parsePages() pageSet {
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
			return t.UTC().Format("2006-01-02 15:04")
		},
	}
	out := pageSet{}
	for _, name := range pageNames {
		out[name] = template.Must(template.New(name).Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/"+name+".html"))
	}
	return out
}

// page is the data every page gets: the layout's parts and the page's own.
type page struct {
	Title   string
	User    session
	GuildID string
	Guild   string // the guild's name
	Flash   string
	Error   string
	Data    any
}

// guildPage is a page of a guild with its navigation.
func (d *Dashboard) guildPage(ctx context.Context, gr guildRequest, title string, data any) page {
	return page{Title: title, User: gr.User, GuildID: gr.Guild.ID, Guild: gr.Name, Flash: d.sm.PopString(ctx, keyFlash), Data: data}
}

// render executes a page into a buffer first, so a template error becomes
// a clean 500 instead of half a page.
func (d *Dashboard) render(w http.ResponseWriter, r *http.Request, status int, name string, p page) {
	var buf bytes.Buffer
	if err := d.pages[name].ExecuteTemplate(&buf, "layout", p); err != nil {
		d.log.Error("dashboard: render", "page", name, "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// errorPage answers with a page saying msg.
func (d *Dashboard) errorPage(w http.ResponseWriter, r *http.Request, status int, msg string) {
	p := page{Title: http.StatusText(status), Error: msg}
	if status != http.StatusForbidden && status != http.StatusUnauthorized && status != http.StatusNotFound {
		// The guild's navigation, for a refused value on a page of a
		// guild the user manages; none where the guild is not theirs.
		p.GuildID = r.PathValue("guild")
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
		msg = fmt.Sprintf("Something went wrong on our side (ref %s).", ref)
	} else if status == http.StatusServiceUnavailable {
		d.log.Warn("dashboard: unavailable", "path", r.URL.Path, "err", err)
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
	p.Error = msg
	d.render(w, r, status, name, p)
}

// statusOf maps a coded ladder error to an HTTP status and its message,
// as the token API does.
func statusOf(err error) (int, string) { return httperr.Status(err) }
