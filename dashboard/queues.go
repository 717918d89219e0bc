package dashboard

import (
	"net/http"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/queueconfig"
)

// overviewPage is the data of a guild's start page.
type overviewPage struct {
	Queues   []ladder.Queue
	Disputes int
	// Flags is how many integrity flags are open (up to flagsShown).
	Flags int
}

// overview serves /admin/guilds/{guild}/: the guild's queues and what
// waits for a moderator.
func (d *Dashboard) overview(w http.ResponseWriter, r *http.Request, gr guildRequest) {
	ctx := r.Context()
	qs, err := d.svc.Queues(ctx, gr.Guild.ID)
	if err != nil {
		d.fail(w, r, err)
		return
	}
	ds, err := d.svc.Matches(ctx, ladder.MatchFilter{GuildID: gr.Guild.ID, States: []ladder.MatchState{ladder.StateDisputed}, Limit: 100})
	if err != nil {
		d.fail(w, r, err)
		return
	}
	data := overviewPage{Queues: qs, Disputes: len(ds)}
	if d.flags != nil {
		fs, err := d.flags.Flags(ctx, gr.Guild.ID, false, flagsShown)
		if err != nil {
			d.fail(w, r, err)
			return
		}
		data.Flags = len(fs)
	}
	d.render(w, r, http.StatusOK, "guild", d.guildPage(ctx, gr, "dash.ladder_of", data, "Name", gr.Name))
}

// fieldView is one setting in a form.
type fieldView struct {
	Name, Kind, Help, Value string
	Choices                 []string
}

// queueForm is the data of a queue's settings page: the fields of /config
// queue set, then room, format and sides.
type queueForm struct {
	Queue  string
	Groups []fieldGroup
}

// fieldGroup is the fields one command sets.
type fieldGroup struct {
	Command string
	Fields  []fieldView
}

func queueFields(q queueconfig.Queue, submitted map[string]string) queueForm {
	out := queueForm{Queue: q.Name}
	for _, f := range q.Fields {
		fv := fieldView{Name: f.Name, Kind: string(f.Kind), Help: f.Help, Value: f.Value, Choices: f.Choices}
		if v, ok := submitted[f.Name]; ok {
			fv.Value = v
		}
		if n := len(out.Groups); n == 0 || out.Groups[n-1].Command != f.Group {
			out.Groups = append(out.Groups, fieldGroup{Command: f.Group})
		}
		g := &out.Groups[len(out.Groups)-1]
		g.Fields = append(g.Fields, fv)
	}
	return out
}

// queuePage serves the settings form of one queue: every field of
// /config queue set, room, format and sides under its option name.
func (d *Dashboard) queuePage(w http.ResponseWriter, r *http.Request, gr guildRequest) {
	q, err := d.queues.Read(r.Context(), gr.Guild.ID, r.PathValue("queue"))
	if err != nil {
		d.fail(w, r, err)
		return
	}
	d.render(w, r, http.StatusOK, "queue", d.guildPage(r.Context(), gr, "dash.queue", queueFields(q, nil), "Queue", q.Name))
}

// saveQueue applies the changed fields of the form through
// queueconfig.Config.Set: the same parsing and the same validated, audited
// writes as /config queue set, room, format and sides. A bad value shows the form
// again with /config's message and stores nothing.
func (d *Dashboard) saveQueue(w http.ResponseWriter, r *http.Request, gr guildRequest) {
	ctx := r.Context()
	q, err := d.queues.Read(ctx, gr.Guild.ID, r.PathValue("queue"))
	if err != nil {
		d.fail(w, r, err)
		return
	}
	submitted := map[string]string{}
	for _, f := range q.Fields {
		if r.PostForm.Has(f.Name) {
			submitted[f.Name] = r.PostForm.Get(f.Name)
		}
	}
	_, changed, err := d.queues.Set(ctx, gr.Actor, gr.Guild.ID, q.Name, submitted)
	if err != nil {
		d.refused(w, r, err, "queue", func() (page, error) {
			return d.guildPage(ctx, gr, "dash.queue", queueFields(q, submitted), "Queue", q.Name), nil
		})
		return
	}
	if !changed {
		d.back(w, r, guildPath(gr.Guild.ID, "queues", q.Name), pageLang(r).T("dash.nothing_changed"))
		return
	}
	d.log.Info("dashboard: queue saved", "guild_id", gr.Guild.ID, "user_id", gr.User.UserID, "queue", q.Name)
	d.back(w, r, guildPath(gr.Guild.ID, "queues", q.Name), pageLang(r).T("dash.queue_saved", "Queue", q.Name))
}
