package dashboard

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// disputesPage is the data of the disputes page.
type disputesPage struct {
	Matches []ladder.Match
}

// disputesPage lists the guild's disputed matches, oldest first, each with
// resolve and void forms.
func (d *Dashboard) disputesPage(w http.ResponseWriter, r *http.Request, gr guildRequest) {
	ms, err := d.svc.Matches(r.Context(), ladder.MatchFilter{GuildID: gr.Guild.ID, States: []ladder.MatchState{ladder.StateDisputed}, Limit: 100})
	if err != nil {
		d.fail(w, r, err)
		return
	}
	for i, j := 0, len(ms)-1; i < j; i, j = i+1, j-1 {
		ms[i], ms[j] = ms[j], ms[i]
	}
	d.render(w, r, http.StatusOK, "disputes", d.guildPage(r.Context(), gr, "dash.disputes", disputesPage{Matches: ms}))
}

// matchView is the data of a match's page: the match, and the preview of
// a correction when one was asked for.
type matchView struct {
	Detail  ladder.MatchDetail
	Names   map[string]string
	Preview *ladder.Correction
	Winner  int
	Reason  string
}

// Name returns a player's display name, or their ID.
func (v matchView) Name(id string) string {
	if n := v.Names[id]; n != "" {
		return n
	}
	return id
}

// Rated reports whether the match counts on the ladder now.
func (v matchView) Rated() bool { return v.Detail.Match.Seq != 0 }

// matchPage serves one match; ?winner=1|2|0 previews the correction to that
// result (whose ratings change and by how much) without applying it.
func (d *Dashboard) matchPage(w http.ResponseWriter, r *http.Request, gr guildRequest) {
	ctx := r.Context()
	id, err := matchID(r)
	if err != nil {
		d.fail(w, r, err)
		return
	}
	det, err := d.svc.MatchDetail(ctx, gr.Guild.ID, id)
	if err != nil {
		d.fail(w, r, err)
		return
	}
	v := matchView{Detail: det, Names: det.Names, Winner: ladder.NoResult}
	if ws := r.URL.Query().Get("winner"); ws != "" {
		winner, err := winnerOf(ws)
		if err != nil {
			d.fail(w, r, err)
			return
		}
		c, err := d.svc.PreviewCorrection(ctx, gr.Actor, gr.Guild.ID, id, winner)
		if err != nil {
			d.fail(w, r, err)
			return
		}
		v.Preview, v.Winner = &c, winner
	}
	d.render(w, r, http.StatusOK, "match", d.guildPage(ctx, gr, "dash.match", v, "ID", id))
}

// resolveMatch settles a disputed (or open, or reported) match.
func (d *Dashboard) resolveMatch(w http.ResponseWriter, r *http.Request, gr guildRequest) {
	d.moderate(w, r, gr, "resolved", d.svc.Resolve)
}

// correctMatch applies a correction the moderator previewed. The form
// carries the match's state as previewed ("seen"): a correction applied
// after another moderator changed the match is refused.
func (d *Dashboard) correctMatch(w http.ResponseWriter, r *http.Request, gr guildRequest) {
	text := r.PostFormValue("seen")
	if text == "" {
		d.moderate(w, r, gr, "corrected", d.svc.Correct)
		return
	}
	seen, err := ladder.ParseSeen(text)
	if err != nil {
		d.fail(w, r, err)
		return
	}
	d.moderate(w, r, gr, "corrected", func(ctx context.Context, actor ladder.Actor, guildID string, matchID int64, winner int, reason string) (ladder.Correction, error) {
		return d.svc.CorrectSeen(ctx, actor, guildID, matchID, winner, reason, seen)
	})
}

type moderateFunc func(ctx context.Context, actor ladder.Actor, guildID string, matchID int64, winner int, reason string) (ladder.Correction, error)

func (d *Dashboard) moderate(w http.ResponseWriter, r *http.Request, gr guildRequest, done string, f moderateFunc) {
	id, err := matchID(r)
	if err == nil {
		var winner int
		if winner, err = winnerOf(r.PostFormValue("winner")); err == nil {
			var c ladder.Correction
			c, err = f(r.Context(), gr.Actor, gr.Guild.ID, id, winner, r.PostFormValue("reason"))
			if err == nil {
				d.invalidate(gr.Guild.ID)
				d.back(w, r, guildPath(gr.Guild.ID, "matches", strconv.FormatInt(id, 10)), correctionText(pageLang(r), id, done, c))
				return
			}
		}
	}
	d.fail(w, r, err)
}

// voidMatch removes a match from the ladder.
func (d *Dashboard) voidMatch(w http.ResponseWriter, r *http.Request, gr guildRequest) {
	id, err := matchID(r)
	if err != nil {
		d.fail(w, r, err)
		return
	}
	c, err := d.svc.Void(r.Context(), gr.Actor, gr.Guild.ID, id, r.PostFormValue("reason"))
	if err != nil {
		d.fail(w, r, err)
		return
	}
	d.invalidate(gr.Guild.ID)
	d.back(w, r, guildPath(gr.Guild.ID, "matches", strconv.FormatInt(id, 10)), correctionText(pageLang(r), id, "voided", c))
}

func correctionText(l *i18n.Lang, id int64, done string, c ladder.Correction) string {
	if c.AlreadyDone {
		return l.T("dash.already_"+done, "ID", id)
	}
	return l.N("dash.done_"+done, len(c.Changed), "ID", id)
}

func matchID(r *http.Request) (int64, error) {
	id, ok := positiveID(r)
	if !ok {
		return 0, ladder.Errorf(ladder.CodeInvalid, "match ID %q is not a number", r.PathValue("id"))
	}
	return id, nil
}

// positiveID reads the path's {id} (a match's, a flag's): false unless it
// is a positive number.
func positiveID(r *http.Request) (int64, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	return id, err == nil && id > 0
}

// winnerOf reads a result: 1, 2, or 0 for a draw.
func winnerOf(s string) (int, error) {
	switch strings.TrimSpace(s) {
	case "1":
		return 1, nil
	case "2":
		return 2, nil
	case "0", "draw":
		return ladder.Draw, nil
	}
	return 0, ladder.Errorf(ladder.CodeInvalid, "winner must be 1, 2 or 0 (draw), not %q", s)
}
