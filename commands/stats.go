package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/ladderbot/ladderbot/community"
)

// statsListed is how many entries /stats shows per list.
const statsListed = 5

func (h *handlers) statsCommand() Command {
	return Command{
		Name:         "stats",
		Description:  "Server stats: most active, win streaks, biggest upsets, best partnerships",
		Options:      []Option{queueOpt(), seasonOpt()},
		Handle:       h.stats,
		Autocomplete: h.autocomplete,
	}
}

func (h *handlers) stats(ctx context.Context, req Request) (Reply, error) {
	com, err := h.communityService()
	if err != nil {
		return Reply{}, err
	}
	if _, err := h.ensure(ctx, req); err != nil {
		return Reply{}, err
	}
	queue, _ := req.String("queue")
	season, _ := req.Int("season")
	st, err := com.Stats(ctx, req.GuildID, queue, int(season), statsListed)
	if err != nil {
		return Reply{}, err
	}
	return statsReply(st), nil
}

func statsReply(st community.Stats) Reply {
	list := func(n int, line func(i int) string) string {
		if n == 0 {
			return "nobody yet"
		}
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "%d. %s\n", i+1, line(i))
		}
		return b.String()
	}
	active := list(len(st.Active), func(i int) string {
		p := st.Active[i]
		return fmt.Sprintf("%s · %d matches", playerName(p.UserID, p.Name), p.Count)
	})
	streaks := list(len(st.Streaks), func(i int) string {
		p := st.Streaks[i]
		return fmt.Sprintf("%s · %d wins in a row", playerName(p.UserID, p.Name), p.Count)
	})
	upsets := list(len(st.Upsets), func(i int) string {
		u := st.Upsets[i]
		won, lost := u.Team1, u.Team2
		if u.Winner == 2 {
			won, lost = lost, won
		}
		return fmt.Sprintf("Match #%d · %s beat %s at %s", u.ID, mentions(won), mentions(lost), percent(u.Chance))
	})
	pairs := list(len(st.Partnerships), func(i int) string {
		p := st.Partnerships[i]
		return fmt.Sprintf("%s + %s · %s", playerName(p.A, p.NameA), playerName(p.B, p.NameB), gamesText(p.Record))
	})
	predictors := list(len(st.Predictors), func(i int) string {
		p := st.Predictors[i]
		return fmt.Sprintf("%s · %d points · %d of %d right", playerName(p.UserID, p.Name), p.Points, p.Correct, p.Called)
	})
	improved := list(len(st.Improved), func(i int) string {
		p := st.Improved[i]
		return fmt.Sprintf("%s · %+.0f (%.0f → %.0f) in %d games", playerName(p.UserID, p.Name), p.Gain(), p.From, p.To, p.Games)
	})
	mvps := list(len(st.MVPs), func(i int) string {
		p := st.MVPs[i]
		return fmt.Sprintf("%s · %d × MVP · %d votes", playerName(p.UserID, p.Name), p.MVPs, p.Votes)
	})
	e := Embed{
		Title: fmt.Sprintf("Server stats · %s · Season %d", st.Queue.Name, st.Season.Number),
		Color: ColorInfo,
		Fields: []Field{
			{Name: "Most active", Value: active, Inline: true},
			{Name: "Longest win streaks", Value: streaks, Inline: true},
			{Name: "Biggest upsets", Value: upsets},
			{Name: "Most improved (30 days)", Value: improved},
			{Name: fmt.Sprintf("Best partnerships (%d+ games together)", community.MinPartnerGames), Value: pairs},
		},
	}
	if len(st.Predictors) > 0 {
		e.Fields = append(e.Fields, Field{Name: "Best predictors", Value: predictors, Inline: true})
	}
	if len(st.MVPs) > 0 {
		e.Fields = append(e.Fields, Field{Name: "Most MVPs", Value: mvps, Inline: true})
	}
	return Reply{Embeds: []Embed{e}}
}
