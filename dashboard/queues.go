package dashboard

import (
	"context"
	"net/http"

	"github.com/ladderbot/ladderbot/joins"
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

// joinHelp describes the join settings (package joins) on the form.
var joinHelp = map[string]fieldView{
	"min_rating":       {Kind: "number", Help: "least rating in this queue (0 off)"},
	"max_rating":       {Kind: "number", Help: "greatest rating in this queue (0 off)"},
	"min_games":        {Kind: "int", Help: "least rated games in games_queue (0 off)"},
	"games_queue":      {Kind: "text", Help: "the queue min_games counts (empty: this one)"},
	"required_role":    {Kind: "text", Help: "members must hold this role (a role ID; empty: off)"},
	"excluded_role":    {Kind: "text", Help: "members holding this role may not join (a role ID; empty: off)"},
	"min_account_days": {Kind: "int", Help: "least age of the Discord account in days (0 off)"},
	"hours":            {Kind: "text", Help: "open hours, e.g. mon-fri 18:00-23:00; sat,sun 12:00-02:00 (empty: always open)"},
	"timezone":         {Kind: "text", Help: "time zone of the hours, e.g. Europe/Berlin"},
	"rematch": {Kind: "choice", Help: "a Rematch button on rated results: same teams, or rebalanced",
		Choices: []string{string(joins.RematchOff), string(joins.RematchSame), string(joins.RematchRebalance)}},
}

// joinValues are a queue's join settings as the form shows them; nil
// without the joins service.
func (d *Dashboard) joinValues(ctx context.Context, q ladder.Queue) (map[string]string, error) {
	if d.joins == nil {
		return nil, nil
	}
	st, err := d.joins.Settings(ctx, q)
	if err != nil {
		return nil, err
	}
	games, err := d.joins.QueueName(ctx, q.GuildID, st.GamesQueueID)
	if err != nil {
		return nil, err
	}
	return st.Values(games), nil
}

func queueFields(q ladder.Queue, l ladder.Lobby, submitted map[string]string, joinValues map[string]string) []fieldView {
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
	if joinValues == nil {
		return out
	}
	for _, name := range joins.SettingNames() {
		f := joinHelp[name]
		f.Name, f.Value = name, joinValues[name]
		if v, ok := submitted[name]; ok {
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
	jv, err := d.joinValues(r.Context(), q)
	if err != nil {
		d.fail(w, r, err)
		return
	}
	d.render(w, r, http.StatusOK, "queue", d.guildPage(r.Context(), gr, "Queue "+q.Name, queueForm{Queue: q.Name, Fields: queueFields(q, l, nil, jv)}))
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
	jv, err := d.joinValues(ctx, q)
	if err != nil {
		d.fail(w, r, err)
		return
	}
	joinChanged := map[string]string{}
	if jv != nil {
		for _, name := range joins.SettingNames() {
			if !r.PostForm.Has(name) {
				continue
			}
			v := r.PostForm.Get(name)
			submitted[name] = v
			if v != jv[name] {
				joinChanged[name] = v
			}
		}
	}
	if len(changed) == 0 && len(joinChanged) == 0 {
		d.back(w, r, guildPath(gr.Guild.ID, "queues", q.Name), "Nothing changed.")
		return
	}
	nq, nl := q, l
	lobby, err := ladder.ApplyQueueSettings(&nq, &nl, changed)
	if err == nil && len(joinChanged) > 0 {
		// Checked before anything is stored, so a bad join setting
		// changes none of the others.
		err = d.joins.Check(ctx, q, joinChanged)
	}
	if err == nil && len(changed) > 0 {
		var lp *ladder.Lobby
		if lobby {
			lp = &nl
		}
		_, _, err = d.svc.ConfigureQueue(ctx, gr.Actor, nq, lp)
	}
	if err == nil && len(joinChanged) > 0 {
		_, err = d.joins.Configure(ctx, gr.Actor, q, joinChanged)
	}
	if err != nil {
		status, msg := statusOf(err)
		if status == http.StatusInternalServerError {
			d.fail(w, r, err)
			return
		}
		p := d.guildPage(ctx, gr, "Queue "+q.Name, queueForm{Queue: q.Name, Fields: queueFields(q, l, submitted, jv)})
		p.Error = msg
		d.render(w, r, status, "queue", p)
		return
	}
	d.log.Info("dashboard: queue saved", "guild_id", gr.Guild.ID, "user_id", gr.User.UserID, "queue", q.Name)
	d.back(w, r, guildPath(gr.Guild.ID, "queues", q.Name), "Queue "+q.Name+" saved.")
}
