package dashboard

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/ladder"
)

// The integrity page: the flags /mod integrity lists (win-trading,
// boosting, smurfs, wrong votes, report abuse), with their evidence in the
// moderator's language, and a form to dismiss one with a reason. It reads
// and writes through the same integrity service as the command and the
// token API, so the rules and the audit entry are theirs.

// Flags is what the integrity page needs of the integrity service
// (integrity.Service).
type Flags interface {
	Flags(ctx context.Context, guildID string, all bool, limit int) ([]integrity.Flag, error)
	Dismiss(ctx context.Context, actor ladder.Actor, guildID string, id int64, reason string) (integrity.Flag, error)
}

// flagsShown is how many flags the page lists, newest first.
const flagsShown = 100

// integrityPage is the data of the integrity page.
type integrityPage struct {
	// All lists dismissed flags too.
	All   bool
	Flags []flagView
	// MaxReason is the longest reason a dismissal keeps, in characters.
	MaxReason int
}

// flagView is one flag as the page shows it.
type flagView struct {
	ID       int64
	Kind     string // in the page's language
	Players  []namedPlayer
	Evidence string // in the page's language, players by name
	Matches  []int64
	Queue    string
	RaisedAt time.Time
	Open     bool
	// DismissedBy and DismissReason are set once the flag is dismissed.
	DismissedBy, DismissReason string
}

// namedPlayer is a player a flag names.
type namedPlayer struct{ ID, Name string }

// integrityPage lists the guild's open flags, newest first, or every flag
// with ?all=true.
func (d *Dashboard) integrityPage(w http.ResponseWriter, r *http.Request, gr guildRequest) {
	ctx := r.Context()
	all, err := boolParam(r.URL.Query().Get("all"))
	if err != nil {
		d.fail(w, r, err)
		return
	}
	fs, err := d.flags.Flags(ctx, gr.Guild.ID, all, flagsShown)
	if err != nil {
		d.fail(w, r, err)
		return
	}
	views, err := d.flagViews(ctx, pageLang(r), gr, fs)
	if err != nil {
		d.fail(w, r, err)
		return
	}
	d.render(w, r, http.StatusOK, "integrity", d.guildPage(ctx, gr, "dash.integrity",
		integrityPage{All: all, Flags: views, MaxReason: integrity.MaxDismissReason}))
}

// flagViews names the flags' players (one read for all of them) and
// queues, and writes their kinds and evidence in l.
func (d *Dashboard) flagViews(ctx context.Context, l *i18n.Lang, gr guildRequest, fs []integrity.Flag) ([]flagView, error) {
	guildID := gr.Guild.ID
	var ids []string
	for _, f := range fs {
		ids = append(ids, f.Subjects...)
		if f.Evidence.Player != "" {
			ids = append(ids, f.Evidence.Player)
		}
		if f.DismissedBy != "" {
			ids = append(ids, strings.TrimPrefix(f.DismissedBy, "web:"))
		}
	}
	names, err := d.svc.PlayerNames(ctx, guildID, ids)
	if err != nil {
		return nil, err
	}
	name := func(id string) string {
		if n := names[id]; n != "" {
			return n
		}
		return id
	}
	// Who dismissed a flag may be no player: the moderator reading the
	// page is known by their session's name.
	actorName := func(id string) string {
		if n := names[id]; n == "" && id == gr.User.UserID && gr.User.Name != "" {
			return gr.User.Name
		}
		return name(id)
	}
	qs, err := d.svc.Queues(ctx, guildID)
	if err != nil {
		return nil, err
	}
	queues := map[int64]string{}
	for _, q := range qs {
		queues[q.ID] = q.Name
	}
	out := make([]flagView, 0, len(fs))
	for _, f := range fs {
		v := flagView{ID: f.ID, Kind: commands.FlagKind(l, f.Kind), Evidence: commands.EvidenceTextNamed(l, f.Evidence, name),
			Matches: f.Matches, Queue: queues[f.QueueID], RaisedAt: f.RaisedAt, Open: f.Open(),
			DismissedBy: dismissedBy(f.DismissedBy, actorName), DismissReason: f.DismissReason}
		for _, id := range f.Subjects {
			v.Players = append(v.Players, namedPlayer{ID: id, Name: name(id)})
		}
		out = append(out, v)
	}
	return out, nil
}

// dismissFlag closes a flag with the form's reason and goes back to the
// list; the audit log keeps who and why (integrity.dismiss).
func (d *Dashboard) dismissFlag(w http.ResponseWriter, r *http.Request, gr guildRequest) {
	id, ok := positiveID(r)
	if !ok {
		d.fail(w, r, ladder.Errorf(ladder.CodeInvalid, "flag %q is not a number", r.PathValue("id")))
		return
	}
	f, err := d.flags.Dismiss(r.Context(), gr.Actor, gr.Guild.ID, id, r.PostFormValue("reason"))
	if err != nil {
		d.fail(w, r, err)
		return
	}
	l := pageLang(r)
	d.back(w, r, guildPath(gr.Guild.ID, "integrity"), l.T("dash.flag_dismissed", "ID", f.ID, "Kind", commands.FlagKind(l, f.Kind)))
}

// boolParam reads a query flag: empty or false is false, true is true.
func boolParam(s string) (bool, error) {
	switch s {
	case "", "false":
		return false, nil
	case "true":
		return true, nil
	}
	return false, ladder.Errorf(ladder.CodeInvalid, "%s must be true or false, not %q", "all", s)
}

// dismissedBy names who dismissed a flag: a moderator on Discord or on
// this dashboard ("web:<user ID>") by their name when the ladder knows
// them, else by their user ID; an API token or the jobs as they act.
func dismissedBy(actor string, name func(id string) string) string {
	return name(strings.TrimPrefix(actor, "web:"))
}
