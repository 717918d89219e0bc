package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// communityService is the community reads, or a refusal when the process
// was started without them.
func (h *handlers) communityService() (*community.Service, error) {
	if h.Community == nil {
		return nil, ladder.Errorf(ladder.CodeUnavailable, "community statistics are not available on this bot")
	}
	return h.Community, nil
}

// playerName is a player's stored name, or a mention when there is none.
func playerName(id, name string) string { return nameOr(name, id) }

func (h *handlers) compareCommand() Command {
	return Command{
		Name:        "compare",
		Description: "Two players head to head: as partners, against each other, and who is favoured",
		Options: []Option{
			opt(OptUser, "a", "first player", true),
			opt(OptUser, "b", "second player", true),
			queueOpt(),
			seasonOpt(),
		},
		Handle:       h.compare,
		Autocomplete: h.autocomplete,
	}
}

func (h *handlers) compare(ctx context.Context, req Request) (Reply, error) {
	com, err := h.communityService()
	if err != nil {
		return Reply{}, err
	}
	if _, err := h.ensure(ctx, req); err != nil {
		return Reply{}, err
	}
	a, _ := req.String("a")
	b, _ := req.String("b")
	queue, _ := req.String("queue")
	season, _ := req.Int("season")
	c, err := com.Compare(ctx, req.GuildID, a, b, queue, int(season))
	if err != nil {
		return Reply{}, err
	}
	return compareReply(userLang(req), c, req.Names), nil
}

// compareReply is /compare's embed in language l; resolved are the
// display names Discord resolved for the command's options (may be nil).
func compareReply(l *i18n.Lang, c community.Comparison, resolved map[string]string) Reply {
	an, bn := playerName(c.A.UserID, c.A.Name), playerName(c.B.UserID, c.B.Name)
	// The title and the fields' names show text as it is, without
	// mentions or markdown.
	ap, bp := plainName(c.A.Name, c.A.UserID, resolved), plainName(c.B.Name, c.B.UserID, resolved)
	side := func(s community.Side) string {
		if !s.Rated {
			return l.T("compare.unrated", "Rating", ratingIn(l, s.Rating, s.RD))
		}
		return l.T("compare.side", "Rating", ratingIn(l, s.Rating, s.RD), "Record", recordText(s.Record), "Streak", l.Int(s.Streak))
	}
	var last strings.Builder
	for _, m := range c.Last {
		last.WriteString(l.T("compare.meeting", "ID", m.MatchID, "Date", l.Date(m.At),
			"Result", l.T("outcome."+community.ResultFor(m.Winner, m.TeamA)), "Name", an) + "\n")
	}
	if last.Len() == 0 {
		last.WriteString(l.T("compare.never_met"))
	}
	e := Embed{
		Title: l.T("compare.title", "A", ap, "B", bp, "Queue", c.Queue.Name, "Season", c.Season.Number),
		Color: ColorInfo,
		Fields: []Field{
			{Name: ap, Value: side(c.A), Inline: true},
			{Name: bp, Value: side(c.B), Inline: true},
			{Name: l.T("compare.chance"), Value: fmt.Sprintf("%s %s · %s %s", an, l.Percent(c.PAWins), bn, l.Percent(1-c.PAWins))},
			{Name: l.T("compare.partners"), Value: gamesText(l, c.Together)},
			{Name: l.T("compare.against"), Value: l.T("compare.record_of", "Games", gamesText(l, c.Against), "Name", an)},
			{Name: l.T("compare.last"), Value: last.String()},
		},
	}
	if len(c.TopPair) == 2 {
		t1, t2 := playerName(c.TopPair[0].UserID, c.TopPair[0].Name), playerName(c.TopPair[1].UserID, c.TopPair[1].Name)
		e.Fields = append(e.Fields, Field{Name: l.T("compare.top_pair_title"),
			Value: l.T("compare.top_pair", "A", an, "B", bn, "C", t1, "D", t2, "Chance", l.Percent(c.PTogetherWins))})
	}
	return Reply{Embeds: []Embed{e}}
}

// recordText renders wins-losses(-draws).
func recordText(r community.Record) string {
	s := fmt.Sprintf("%d-%d", r.Wins, r.Losses)
	if r.Draws > 0 {
		s += fmt.Sprintf("-%d", r.Draws)
	}
	return s
}

// gamesText is a record with its number of games, in language l.
func gamesText(l *i18n.Lang, r community.Record) string {
	if r.Games() == 0 {
		return l.T("compare.no_games")
	}
	return l.N("compare.games", r.Games(), "Record", recordText(r))
}
