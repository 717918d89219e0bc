package dashboard

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// playersPage is the data of the player search.
type playersPage struct {
	Query   string
	Queue   string
	Queues  []ladder.Queue
	Results []ladder.Standing
}

// playersPage searches the guild's players: a Discord ID opens that
// player; other text matches names on the queue's leaderboard (its first
// 200 listed players).
func (d *Dashboard) playersPage(w http.ResponseWriter, r *http.Request, gr guildRequest) {
	ctx := r.Context()
	qv := r.URL.Query()
	query, queue := strings.TrimSpace(qv.Get("q")), qv.Get("queue")
	if query != "" && strings.Trim(query, "0123456789") == "" {
		to := guildPath(gr.Guild.ID, "players", query)
		if queue != "" {
			to += "?queue=" + url.QueryEscape(queue)
		}
		http.Redirect(w, r, to, http.StatusSeeOther)
		return
	}
	qs, err := d.svc.Queues(ctx, gr.Guild.ID)
	if err != nil {
		d.fail(w, r, err)
		return
	}
	data := playersPage{Query: query, Queue: queue, Queues: qs}
	if len(qs) > 0 {
		lb, err := d.svc.Leaderboard(ctx, ladder.LeaderboardQuery{GuildID: gr.Guild.ID, Queue: queue, Limit: 200})
		if err != nil {
			d.fail(w, r, err)
			return
		}
		for _, st := range lb.Standings {
			if query == "" || strings.Contains(strings.ToLower(st.Name), strings.ToLower(query)) {
				data.Results = append(data.Results, st)
			}
		}
	}
	d.render(w, r, http.StatusOK, "players", d.guildPage(ctx, gr, "dash.players", data))
}

// playerView is the data of one player's moderation page.
type playerView struct {
	UserID, Name, Queue string
	Standing            ladder.Standing
	Behaviour           ladder.Behaviour
}

// playerPage shows a player's rating in a queue and behaviour, with the
// forms for queue bans, cooldowns and rating adjustments.
func (d *Dashboard) playerPage(w http.ResponseWriter, r *http.Request, gr guildRequest) {
	ctx := r.Context()
	id, queue := r.PathValue("id"), r.URL.Query().Get("queue")
	sts, err := d.svc.CurrentStandings(ctx, gr.Guild.ID, queue, []string{id})
	if err != nil {
		d.fail(w, r, err)
		return
	}
	names, err := d.svc.PlayerNames(ctx, gr.Guild.ID, []string{id})
	if err != nil {
		d.fail(w, r, err)
		return
	}
	b, err := d.svc.Behaviour(ctx, gr.Guild.ID, id)
	if err != nil {
		d.fail(w, r, err)
		return
	}
	v := playerView{UserID: id, Name: names[id], Queue: queue, Standing: sts[0], Behaviour: b}
	if v.Name == "" {
		v.Name = id
	}
	d.render(w, r, http.StatusOK, "player", d.guildPage(ctx, gr, "dash.player", v, "Name", v.Name))
}

func playerPath(gr guildRequest, r *http.Request) string {
	p := guildPath(gr.Guild.ID, "players", r.PathValue("id"))
	if q := r.PostFormValue("queue"); q != "" {
		p += "?queue=" + url.QueryEscape(q)
	}
	return p
}

// banPlayer bans a player from the guild's queues for some hours (empty:
// until unbanned), with /mod queue ban's limits.
func (d *Dashboard) banPlayer(w http.ResponseWriter, r *http.Request, gr guildRequest) {
	var until time.Time
	if hs := strings.TrimSpace(r.PostFormValue("hours")); hs != "" {
		hours, err := strconv.Atoi(hs)
		if err != nil || hours < 1 || hours > 24*365 {
			d.fail(w, r, ladder.Errorf(ladder.CodeInvalid, "hours must be from 1 to %d", 24*365))
			return
		}
		until = time.Now().Add(time.Duration(hours) * time.Hour)
	}
	id := r.PathValue("id")
	if err := d.svc.BanFromQueue(r.Context(), gr.Actor, gr.Guild.ID, id, until, r.PostFormValue("reason")); err != nil {
		d.fail(w, r, err)
		return
	}
	d.back(w, r, playerPath(gr, r), pageLang(r).T("dash.banned"))
}

// unbanPlayer lifts a queue ban.
func (d *Dashboard) unbanPlayer(w http.ResponseWriter, r *http.Request, gr guildRequest) {
	if err := d.svc.UnbanFromQueue(r.Context(), gr.Actor, gr.Guild.ID, r.PathValue("id")); err != nil {
		d.fail(w, r, err)
		return
	}
	d.back(w, r, playerPath(gr, r), pageLang(r).T("dash.unbanned"))
}

// clearCooldown ends a player's lobby cooldown.
func (d *Dashboard) clearCooldown(w http.ResponseWriter, r *http.Request, gr guildRequest) {
	already, err := d.svc.ClearCooldown(r.Context(), gr.Actor, gr.Guild.ID, r.PathValue("id"))
	if err != nil {
		d.fail(w, r, err)
		return
	}
	msg := pageLang(r).T("dash.cooldown_cleared")
	if already {
		msg = pageLang(r).T("dash.no_cooldown")
	}
	d.back(w, r, playerPath(gr, r), msg)
}

// setRating sets a player's rating and RD in the model's units.
func (d *Dashboard) setRating(w http.ResponseWriter, r *http.Request, gr guildRequest) {
	// A decimal comma ("1500,5") is read, as four of the five languages
	// write it and their phones' decimal keyboards type it.
	rt, err1 := ladder.ParseDecimal(r.PostFormValue("rating"))
	rd, err2 := ladder.ParseDecimal(r.PostFormValue("rd"))
	if err1 != nil || err2 != nil {
		d.fail(w, r, ladder.Errorf(ladder.CodeInvalid, "rating and rd must be numbers"))
		return
	}
	res, err := d.svc.SetRating(r.Context(), gr.Actor, gr.Guild.ID, r.PostFormValue("queue"), r.PathValue("id"), rt, rd, r.PostFormValue("reason"))
	if err != nil {
		d.fail(w, r, err)
		return
	}
	d.invalidate(gr.Guild.ID)
	d.back(w, r, playerPath(gr, r), ratingChange(pageLang(r), res))
}

// resetRating puts a player back to the model's new-player rating.
func (d *Dashboard) resetRating(w http.ResponseWriter, r *http.Request, gr guildRequest) {
	res, err := d.svc.ResetRating(r.Context(), gr.Actor, gr.Guild.ID, r.PostFormValue("queue"), r.PathValue("id"), r.PostFormValue("reason"))
	if err != nil {
		d.fail(w, r, err)
		return
	}
	d.invalidate(gr.Guild.ID)
	d.back(w, r, playerPath(gr, r), ratingChange(pageLang(r), res))
}

func ratingChange(l *i18n.Lang, res ladder.Replayed) string {
	f := func(s ladder.Standing) string { return l.Rating(s.Rating) + " ± " + l.Rating(s.RD) }
	return l.T("dash.rating_change", "Before", f(res.Before), "After", f(res.After))
}
