package commands

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/ladder"
)

// actSeriesGame is a series' game buttons: the custom ID carries the
// match, the game and w (we won), l (we lost) or c (confirm), so a button
// works after a restart and a stale one changes nothing.
const actSeriesGame = "sg"

func (h *handlers) seriesComponents() []Component {
	return []Component{{Action: actSeriesGame, Handle: h.seriesButton}}
}

// dash renders a score with an en dash, as players read it: "1–1".
func dash(score string) string { return strings.Replace(score, "-", "–", 1) }

// SeriesView is the message of a match played as a series: the score so
// far and the buttons of the game to report next (or to confirm), which
// show the running score, or the series' result once it ended.
func SeriesView(sr formats.Series) Reply {
	m := sr.Match
	score := dash(sr.Score())
	e := Embed{Title: fmt.Sprintf("Match #%d · best of %d · %s", m.ID, sr.BestOf, score), Color: ColorInfo}
	var games strings.Builder
	for _, g := range sr.Games {
		state := "confirmed"
		if !g.Confirmed() {
			state = "waiting for the other team"
		}
		fmt.Fprintf(&games, "Game %d: team %d won (%s)\n", g.Game, g.Winner, state)
	}
	e.Description = games.String()
	if w := sr.Winner(); w != 0 || m.State.Rated() {
		if w == 0 {
			w = m.Winner
		}
		e.Color = ColorSuccess
		how := "rated as one result"
		if sr.Rating == formats.RateGames {
			how = "each game rated"
		}
		return Reply{Content: fmt.Sprintf("**Match #%d**: team %d wins the series %s (%s).", m.ID, w, score, how),
			Embeds: []Embed{e}, Mentions: []string{}}
	}
	if !m.State.Active() {
		return Reply{Content: fmt.Sprintf("**Match #%d** is %s at %s.", m.ID, m.State, score), Embeds: []Embed{e}, Mentions: []string{}}
	}
	n := sr.Next()
	row := []Button{
		{Label: fmt.Sprintf("We won game %d · %s", n, score), Style: Success, CustomID: ID(actSeriesGame, m.ID, strconv.Itoa(n), "w")},
		{Label: fmt.Sprintf("We lost game %d · %s", n, score), Style: Danger, CustomID: ID(actSeriesGame, m.ID, strconv.Itoa(n), "l")},
	}
	content := fmt.Sprintf("**Match #%d** · best of %d, %s. Report game %d when it is played; the other team confirms it.", m.ID, sr.BestOf, score, n)
	if p, ok := sr.Pending(); ok {
		content = fmt.Sprintf("**Match #%d** · best of %d, %s. %s reported that team %d won game %d: team %d, confirm it or report it the other way.",
			m.ID, sr.BestOf, score, mention(p.ReportedBy), p.Winner, p.Game, 3-m.Team(p.ReportedBy))
		row = append([]Button{{Label: fmt.Sprintf("Confirm game %d · %s", n, score), Style: Primary, CustomID: ID(actSeriesGame, m.ID, strconv.Itoa(n), "c")}}, row...)
	}
	e.Footer = fmt.Sprintf("The first team to win %d games wins the series.", sr.BestOf/2+1)
	return Reply{Content: content, Embeds: []Embed{e}, Buttons: [][]Button{row}, Mentions: []string{}}
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
		return Whisper(fmt.Sprintf("Game %d of match #%d is already reported that way or settled (already done); the series stands at %s.",
			game, req.CustomID.ID, dash(res.Series.Score()))), nil
	}
	r := SeriesView(res.Series)
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
	return Post{ChannelID: channel, Message: SeriesView(sr)}, true
}

// refuseSeries refuses a single result (/report, the report buttons) for
// a match played as a series: its games are reported one by one.
func (h *handlers) refuseSeries(ctx context.Context, req Request, id int64) error {
	if h.Formats == nil {
		return nil
	}
	var m ladder.Match
	if id != 0 {
		got, err := h.Service.Match(ctx, req.GuildID, id)
		if err != nil {
			return nil // the report says what is wrong with the match
		}
		m = got
	} else {
		ms, err := h.Service.Matches(ctx, ladder.MatchFilter{GuildID: req.GuildID, UserID: req.UserID,
			States: []ladder.MatchState{ladder.StateOpen}, Limit: 1})
		if err != nil || len(ms) == 0 {
			return nil
		}
		m = ms[0]
	}
	if m.State != ladder.StateOpen {
		return nil
	}
	_, ok, err := h.Formats.Series(ctx, m)
	if err != nil {
		return err
	}
	if ok {
		return ladder.Errorf(ladder.CodeConflict, "match %d is a series: report each game with the buttons of its series message", m.ID)
	}
	return nil
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
		r := SeriesView(sr)
		return Reply{Ephemeral: true, Content: fmt.Sprintf("Ended match #%d: %s", id, r.Content),
			Posts: []Post{{ChannelID: matchChannel(sr.Match, req), Message: r}}}, nil
	}
	game, _ := req.Int("game")
	winner, _ := req.Int("winner")
	sr, err := h.Formats.CorrectGame(ctx, actor(req), req.GuildID, id, int(game), int(winner), reason)
	if err != nil {
		return Reply{}, err
	}
	return Reply{Ephemeral: true, Content: fmt.Sprintf("Game %d of match #%d is now won by team %d; the series stands at %s and the ratings were replayed.",
		game, id, winner, dash(sr.Score())), Posts: []Post{{ChannelID: matchChannel(sr.Match, req), Message: SeriesView(sr)}}}, nil
}
