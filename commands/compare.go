package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/ladderbot/ladderbot/community"
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
func playerName(id, name string) string {
	if name == "" {
		return mention(id)
	}
	return name
}

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
	return compareReply(c), nil
}

func compareReply(c community.Comparison) Reply {
	an, bn := playerName(c.A.UserID, c.A.Name), playerName(c.B.UserID, c.B.Name)
	side := func(s community.Side) string {
		if !s.Rated {
			return "no rated match yet (" + ratingText(s.Rating, s.RD) + ")"
		}
		return fmt.Sprintf("%s · %s · streak %d", ratingText(s.Rating, s.RD), recordText(s.Record), s.Streak)
	}
	var last strings.Builder
	for _, m := range c.Last {
		fmt.Fprintf(&last, "Match #%d · %s · %s for %s\n", m.MatchID, m.At.Format("2006-01-02"), community.ResultFor(m.Winner, m.TeamA), an)
	}
	if last.Len() == 0 {
		last.WriteString("They have not met yet.")
	}
	e := Embed{
		Title: fmt.Sprintf("%s vs %s · %s · Season %d", an, bn, c.Queue.Name, c.Season.Number),
		Color: ColorInfo,
		Fields: []Field{
			{Name: an, Value: side(c.A), Inline: true},
			{Name: bn, Value: side(c.B), Inline: true},
			{Name: "Chance one on one", Value: fmt.Sprintf("%s %s · %s %s", an, percent(c.PAWins), bn, percent(1-c.PAWins))},
			{Name: "As partners", Value: gamesText(c.Together)},
			{Name: "Against each other", Value: gamesText(c.Against) + " (" + an + "'s record)"},
			{Name: "Last meetings", Value: last.String()},
		},
	}
	if len(c.TopPair) == 2 {
		t1, t2 := playerName(c.TopPair[0].UserID, c.TopPair[0].Name), playerName(c.TopPair[1].UserID, c.TopPair[1].Name)
		e.Fields = append(e.Fields, Field{Name: "As partners against the top pair",
			Value: fmt.Sprintf("%s + %s beat %s + %s: %s", an, bn, t1, t2, percent(c.PTogetherWins))})
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

// gamesText is a record with its number of games.
func gamesText(r community.Record) string {
	if r.Games() == 0 {
		return "no games"
	}
	g := "games"
	if r.Games() == 1 {
		g = "game"
	}
	return fmt.Sprintf("%d %s · %s", r.Games(), g, recordText(r))
}
