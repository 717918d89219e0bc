package commands

import (
	"cmp"
	"context"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// actSeriesGame is a series' game buttons: the custom ID carries the
// match, the game and w (we won), l (we lost) or c (confirm), so a button
// works after a restart and a stale one changes nothing.
const actSeriesGame = "sg"

// actSeriesDispute opens the form disputing the game waiting for
// confirmation (custom ID: match, game); actSeriesDisputeForm is its
// submission.
const (
	actSeriesDispute     = "sgd"
	actSeriesDisputeForm = "sgdf"
)

func (h *handlers) seriesComponents() []Component {
	return []Component{
		{Action: actSeriesGame, Handle: h.seriesButton},
		// Instant: a modal cannot follow a deferral.
		{Action: actSeriesDispute, Instant: true, Handle: h.seriesDisputeForm},
		{Action: actSeriesDisputeForm, Handle: h.seriesDispute},
	}
}

// dash renders a score with an en dash, as players read it: "1–1".
func dash(score string) string { return strings.Replace(score, "-", "–", 1) }

// SeriesView is the message of a match played as a series: the score so
// far and the buttons of the game to report next (or to confirm), which
// show the running score, or the series' result once it ended; in the
// guild's language l.
func SeriesView(l *i18n.Lang, sr formats.Series) Reply {
	m := sr.Match
	score := dash(sr.Score())
	e := Embed{Title: l.T("series.title", "ID", m.ID, "BestOf", sr.BestOf, "Score", score), Color: ColorInfo}
	var games strings.Builder
	for _, g := range sr.Games {
		state := l.T("series.confirmed")
		switch {
		case g.Disputed():
			state = l.T("series_maps.state_disputed")
		case !g.Confirmed():
			state = l.T("series.waiting")
		}
		if g.Map != "" {
			games.WriteString(l.T("series_maps.game_line", "Game", g.Game, "Map", g.Map, "Team", g.Winner, "State", state) + "\n")
			continue
		}
		games.WriteString(l.T("series.game", "Game", g.Game, "Team", g.Winner, "State", state) + "\n")
	}
	e.Description = games.String()
	if w := sr.Winner(); w != 0 || m.State.Rated() {
		if w == 0 {
			w = m.Winner
		}
		e.Color = ColorSuccess
		how := l.T("series.rated_once")
		if sr.Rating == formats.RateGames {
			how = l.T("series.rated_games")
		}
		return Reply{Content: l.T("series.won", "ID", m.ID, "Team", w, "Score", score, "How", how),
			Embeds: []Embed{e}, Mentions: []string{}}
	}
	if !m.State.Active() {
		return Reply{Content: l.T("series.state", "ID", m.ID, "State", stateIn(l, m.State), "Score", score), Embeds: []Embed{e}, Mentions: []string{}}
	}
	n := sr.Next()
	if p, ok := sr.Pending(); ok && p.Disputed() {
		e.Footer = l.T("series_maps.disputed_footer")
		return Reply{Content: l.T("series_maps.disputed", "ID", m.ID, "Game", p.Game, "By", mention(p.DisputedBy), "Reason", p.DisputeReason, "Score", score),
			Embeds: []Embed{e}, Mentions: []string{}}
	}
	// The next game's map, once chosen, is on its buttons.
	onMap := ""
	if name := sr.NextMap(); name != "" {
		onMap = " · " + name
	} else if len(sr.Games) > 0 && sr.Games[len(sr.Games)-1].Game == n {
		onMap = mapSuffix(sr.Games[len(sr.Games)-1].Map)
	}
	row := []Button{
		{Label: label(l.T("series.we_won", "Game", n, "Score", score), onMap), Style: Success, CustomID: ID(actSeriesGame, m.ID, strconv.Itoa(n), "w")},
		{Label: label(l.T("series.we_lost", "Game", n, "Score", score), onMap), Style: Danger, CustomID: ID(actSeriesGame, m.ID, strconv.Itoa(n), "l")},
	}
	content := l.T("series.report_next", "ID", m.ID, "BestOf", sr.BestOf, "Score", score, "Game", n)
	if p, ok := sr.Pending(); ok {
		content = l.T("series.pending", "ID", m.ID, "BestOf", sr.BestOf, "Score", score, "User", mention(p.ReportedBy),
			"Team", p.Winner, "Game", p.Game, "Other", 3-m.Team(p.ReportedBy))
		row = append([]Button{{Label: label(l.T("series.confirm", "Game", n, "Score", score), onMap), Style: Primary, CustomID: ID(actSeriesGame, m.ID, strconv.Itoa(n), "c")}}, row...)
		row = append(row, Button{Label: l.T("series_maps.dispute_button", "Game", n), Style: Secondary, CustomID: ID(actSeriesDispute, m.ID, strconv.Itoa(n))})
	} else if sr.NextPick.MatchID != 0 && sr.NextPick.Game == n && sr.NextPick.State != formats.StateDone {
		content += " " + l.T("series_maps.picking", "Game", n)
	}
	e.Footer = l.N("series.footer", sr.BestOf/2+1)
	return Reply{Content: content, Embeds: []Embed{e}, Buttons: [][]Button{row}, Mentions: []string{}}
}

// mapSuffix is " · name" for a game's map, "" without one.
func mapSuffix(name string) string {
	if name == "" {
		return ""
	}
	return " · " + name
}

// label joins a button's text and a map, cutting the map so the label
// keeps to Discord's 80 characters.
func label(text, suffix string) string {
	const most = 80
	if utf8.RuneCountInString(text)+utf8.RuneCountInString(suffix) <= most {
		return text + suffix
	}
	r := []rune(suffix)
	keep := most - utf8.RuneCountInString(text) - 1
	if keep <= 3 {
		return text
	}
	return text + string(r[:keep]) + "…"
}

// seriesButton reports or confirms a game and shows the series in place.
func (h *handlers) seriesButton(ctx context.Context, req Request) (Reply, error) {
	if h.Formats == nil {
		return Reply{}, ladder.Errorf(ladder.CodeUnavailable, "series are not served by this process")
	}
	game, err := strconv.Atoi(req.CustomID.Arg(0))
	what := req.CustomID.Arg(1)
	if req.CustomID.ID == 0 || err != nil || game < 1 || game > 5 || (what != "w" && what != "l" && what != "c") {
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "this button is not valid; use the series message's buttons")
	}
	var res formats.SeriesResult
	if what == "c" {
		res, err = h.Formats.ConfirmGame(ctx, actor(req), req.GuildID, req.CustomID.ID, game)
	} else {
		res, err = h.Formats.ReportGame(ctx, actor(req), req.GuildID, req.CustomID.ID, game, what == "w")
	}
	if err != nil {
		return Reply{}, err
	}
	if res.AlreadyDone {
		return Whisper(userLang(req).T("reply.series_game_done", "Game", game, "ID", req.CustomID.ID, "Score", dash(res.Series.Score()))), nil
	}
	r := SeriesView(h.postLang(ctx, req), res.Series)
	r.Update = true
	r.Posts = h.nextPickPosts(ctx, req, res.Next, matchChannel(res.Series.Match, req))
	return r, nil
}

// nextPickPosts is the message of the next game's map pick that a
// confirmation started, for channel.
func (h *handlers) nextPickPosts(ctx context.Context, req Request, next formats.Result, channel string) []Post {
	if next.Pick.MatchID == 0 {
		return nil
	}
	pool, err := h.Formats.Maps(ctx, next.Match.QueueID)
	if err != nil {
		pool = nil // the view goes without images
	}
	return []Post{{ChannelID: channel, Message: MapPickView(h.postLang(ctx, req), next, pool), Sent: h.mapSent(next.Pick.MatchID, next.Pick.Game)}}
}

// seriesDisputeForm asks why the game waiting for confirmation is
// disputed.
func (h *handlers) seriesDisputeForm(ctx context.Context, req Request) (Reply, error) {
	game, err := strconv.Atoi(req.CustomID.Arg(0))
	if req.CustomID.ID == 0 || err != nil || game < 1 || game > 5 {
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "this button is not valid; use the series message's buttons")
	}
	l := userLang(req)
	return Reply{Modal: &Modal{
		CustomID: ID(actSeriesDisputeForm, req.CustomID.ID, strconv.Itoa(game)),
		Title:    l.T("series_maps.dispute_title", "Game", game, "ID", req.CustomID.ID),
		Fields:   []TextField{{ID: "reason", Label: l.T("dispute.reason"), Long: true, Required: true, MaxLength: 1000}},
	}}, nil
}

// seriesDispute records a game's dispute and shows the series in place.
func (h *handlers) seriesDispute(ctx context.Context, req Request) (Reply, error) {
	if h.Formats == nil {
		return Reply{}, ladder.Errorf(ladder.CodeUnavailable, "series are not served by this process")
	}
	game, err := strconv.Atoi(req.CustomID.Arg(0))
	if req.CustomID.ID == 0 || err != nil || game < 1 || game > 5 {
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "this form is not valid; use the Dispute button again")
	}
	res, err := h.Formats.DisputeGame(ctx, actor(req), req.GuildID, req.CustomID.ID, game, req.Values["reason"])
	if err != nil {
		return Reply{}, err
	}
	if res.AlreadyDone {
		return Whisper(userLang(req).T("series_maps.dispute_done", "Game", game, "ID", req.CustomID.ID)), nil
	}
	r := SeriesView(h.postLang(ctx, req), res.Series)
	r.Update = true
	return r, nil
}

// seriesPost is the series message of a match that is on, when its
// queue plays series.
func (h *handlers) seriesPost(ctx context.Context, m ladder.Match, channel string) (Post, bool) {
	if h.Formats == nil {
		return Post{}, false
	}
	sr, ok, err := h.Formats.Series(ctx, m)
	if err != nil || !ok {
		return Post{}, false
	}
	return Post{ChannelID: channel, Message: SeriesView(h.langOf(ctx, m.GuildID), sr), Sent: h.recordMessage(m.ID, ladder.MessageSeries, channel)}, true
}

// refuseSeries refuses a single result (/report, the report buttons) for
// a match played as a series: its games are reported one by one. A match
// that formed while its queue played single games, and became a series
// when an admin set best_of before any result, has no series message:
// the refusal then posts it, with the buttons it points to. refused says
// r (or err) is the answer.
func (h *handlers) refuseSeries(ctx context.Context, req Request, id int64) (r Reply, refused bool, err error) {
	if h.Formats == nil {
		return Reply{}, false, nil
	}
	var m ladder.Match
	if id != 0 {
		got, err := h.Service.Match(ctx, req.GuildID, id)
		if err != nil {
			return Reply{}, false, nil // the report says what is wrong with the match
		}
		m = got
	} else {
		ms, err := h.Service.Matches(ctx, ladder.MatchFilter{GuildID: req.GuildID, UserID: req.UserID,
			States: []ladder.MatchState{ladder.StateOpen}, Limit: 1})
		if err != nil || len(ms) == 0 {
			return Reply{}, false, nil
		}
		m = ms[0]
	}
	if m.State != ladder.StateOpen {
		return Reply{}, false, nil
	}
	sr, ok, err := h.Formats.Series(ctx, m)
	if err != nil || !ok {
		return Reply{}, false, err
	}
	const format = "match %d is a series: report each game with the buttons of its series message"
	refusal := ladder.Errorf(ladder.CodeConflict, format, m.ID)
	if len(sr.Games) > 0 || m.Team(req.UserID) == 0 {
		return Reply{}, true, refusal
	}
	if _, posted, err := h.Service.MatchMessage(ctx, m.ID, ladder.MessageSeries); err != nil || posted {
		return Reply{}, true, cmp.Or(err, error(refusal))
	}
	channel := matchChannel(m, req)
	return Reply{Ephemeral: true, Content: "⚠️ " + userLang(req).Error(format, m.ID),
		Posts: []Post{{ChannelID: channel, Message: SeriesView(h.langOf(ctx, m.GuildID), sr), Sent: h.recordMessage(m.ID, ladder.MessageSeries, channel)}}}, true, nil
}

// seriesModGroup is /mod series: a moderator's correction of one game of
// a series (also a finished one), and ending a series early.
func seriesModGroup() Option {
	one, five := 1.0, 5.0
	return group("series", "Best-of series: correct a game, or end a series early",
		sub("game", "Correct one game of a series (also a finished one); the ratings are replayed", matchOpt(true),
			Option{Type: OptInteger, Name: "game", Description: "the game's number", Required: true, Min: &one, Max: &five},
			Option{Type: OptInteger, Name: "winner", Description: "who won the game", Required: true, Choices: []Choice{
				{Name: "team 1 won", Value: int64(1)}, {Name: "team 2 won", Value: int64(2)}}},
			reasonOpt()),
		sub("end", "End a series now for the team that leads it, rated with the score so far", matchOpt(true), reasonOpt()))
}

func (h *handlers) modSeries(ctx context.Context, req Request) (Reply, error) {
	if h.Formats == nil {
		return Reply{}, ladder.Errorf(ladder.CodeUnavailable, "series are not served by this process")
	}
	id, _ := req.Int("match")
	reason, _ := req.String("reason")
	if req.Command == "mod series end" {
		sr, _, err := h.Formats.EndSeries(ctx, actor(req), req.GuildID, id)
		if err != nil {
			return Reply{}, err
		}
		r := SeriesView(h.postLang(ctx, req), sr)
		return Reply{Ephemeral: true, Content: userLang(req).T("mod.series_ended", "ID", id, "Series", SeriesView(userLang(req), sr).Content),
			Posts: []Post{{ChannelID: matchChannel(sr.Match, req), Message: r}}}, nil
	}
	game, _ := req.Int("game")
	winner, _ := req.Int("winner")
	sr, err := h.Formats.CorrectGame(ctx, actor(req), req.GuildID, id, int(game), int(winner), reason)
	if err != nil {
		return Reply{}, err
	}
	ch := matchChannel(sr.Match, req)
	posts := []Post{{ChannelID: ch, Message: SeriesView(h.postLang(ctx, req), sr)}}
	if p := sr.NextPick; p.MatchID != 0 && p.MessageID == "" && p.Game == sr.Next() {
		// Settling a disputed game started the next game's map pick.
		posts = append(posts, h.nextPickPosts(ctx, req, formats.Result{Match: sr.Match, Pick: p}, ch)...)
	}
	return Reply{Ephemeral: true, Content: userLang(req).T("mod.series_game", "Game", game, "ID", id, "Team", winner, "Score", dash(sr.Score())),
		Posts: posts}, nil
}
