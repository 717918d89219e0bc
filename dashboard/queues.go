package dashboard

import (
	"net/http"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

// overviewPage is the data of a guild's start page.
type overviewPage struct {
	Queues   []ladder.Queue
	Disputes int
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
	d.render(w, r, http.StatusOK, "guild", d.guildPage(ctx, gr, "Ladder of "+gr.Name, overviewPage{Queues: qs, Disputes: len(ds)}))
}

// fieldView is one setting in the queue form.
type fieldView struct {
	Name, Kind, Help, Value string
	Choices                 []string
}

// queueForm is the data of a queue's settings page.
type queueForm struct {
	Queue  string
	Fields []fieldView
}

func queueFields(q ladder.Queue, l ladder.Lobby, submitted map[string]string) []fieldView {
	var out []fieldView
	for _, s := range ladder.QueueSettings() {
		f := fieldView{Name: s.Name, Kind: string(s.Kind), Help: s.Help, Value: s.Value(q, l), Choices: s.Choices}
		if s.Name == "model" {
			f.Choices = rating.ModelNames()
		}
		if s.Kind == ladder.KindBool {
			f.Choices = []string{"true", "false"}
		}
		if v, ok := submitted[s.Name]; ok {
			f.Value = v
		}
		out = append(out, f)
	}
	return out
}

// queuePage serves the settings form of one queue: every field of
// /config queue set under its option name.
func (d *Dashboard) queuePage(w http.ResponseWriter, r *http.Request, gr guildRequest) {
	q, l, err := d.svc.Lobby(r.Context(), gr.Guild.ID, r.PathValue("queue"))
	if err != nil {
		d.fail(w, r, err)
		return
	}
	d.render(w, r, http.StatusOK, "queue", d.guildPage(r.Context(), gr, "Queue "+q.Name, queueForm{Queue: q.Name, Fields: queueFields(q, l, nil)}))
}

// saveQueue applies the changed fields of the form through the same
// parsing (ladder.ApplyQueueSettings) and the same validated, audited
// write (Service.ConfigureQueue) as /config queue set; a bad value shows
// the form again with /config's message and stores nothing.
func (d *Dashboard) saveQueue(w http.ResponseWriter, r *http.Request, gr guildRequest) {
	ctx := r.Context()
	q, l, err := d.svc.Lobby(ctx, gr.Guild.ID, r.PathValue("queue"))
	if err != nil {
		d.fail(w, r, err)
		return
	}
	submitted := map[string]string{}
	changed := map[string]string{}
	for _, s := range ladder.QueueSettings() {
		if !r.PostForm.Has(s.Name) {
			continue
		}
		v := r.PostForm.Get(s.Name)
		submitted[s.Name] = v
		if v != s.Value(q, l) {
			changed[s.Name] = v
		}
	}
	if len(changed) == 0 {
		d.back(w, r, guildPath(gr.Guild.ID, "queues", q.Name), "Nothing changed.")
		return
	}
	nq, nl := q, l
	lobby, err := ladder.ApplyQueueSettings(&nq, &nl, changed)
	if err == nil {
		var lp *ladder.Lobby
		if lobby {
			lp = &nl
		}
		_, _, err = d.svc.ConfigureQueue(ctx, gr.Actor, nq, lp)
	}
	if err != nil {
		status, msg := statusOf(err)
		if status == http.StatusInternalServerError {
			d.fail(w, r, err)
			return
		}
		p := d.guildPage(ctx, gr, "Queue "+q.Name, queueForm{Queue: q.Name, Fields: queueFields(q, l, submitted)})
		p.Error = msg
		d.render(w, r, status, "queue", p)
		return
	}
	d.log.Info("dashboard: queue saved", "guild_id", gr.Guild.ID, "user_id", gr.User.UserID, "queue", q.Name)
	d.back(w, r, guildPath(gr.Guild.ID, "queues", q.Name), "Queue "+q.Name+" saved.")
}
