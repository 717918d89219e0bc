package commands

import (
	"github.com/ladderbot/ladderbot/ladder/matchmaking"

	"context"
	"fmt"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"slices"
	"strings"

	"github.com/ladderbot/ladderbot/ladder"
)

// balanceSlots is how many player options /balance has (Discord allows 25
// options; a 16-player lobby is 8v8, the largest team).
const balanceSlots = 16

func (h *handlers) balanceCommand() Command {
	opts := make([]Option, 0, balanceSlots+2)
	for i := 1; i <= balanceSlots; i++ {
		opts = append(opts, opt(OptUser, fmt.Sprintf("p%d", i), fmt.Sprintf("player %d", i), false))
	}
	one, eight := 1.0, float64(rating.MaxTeamSize)
	opts = append(opts,
		Option{Type: OptInteger, Name: "team_size", Description: "players per team (default: half the lobby)", Min: &one, Max: &eight},
		queueOpt(), matchOpt(false),
		opt(OptBool, "apply", "with match: write the new teams (moderators; default: preview)", false))
	return Command{
		Name:         "balance",
		Description:  "Split the players present into two fair teams by rating, or rebalance an open match",
		Options:      opts,
		Handle:       h.balance,
		Autocomplete: h.autocomplete,
	}
}

func (h *handlers) balance(ctx context.Context, req Request) (Reply, error) {
	if _, err := h.ensure(ctx, req); err != nil {
		return Reply{}, err
	}
	if req.Has("match") {
		return h.balanceMatch(ctx, req)
	}
	var players []string
	for i := 1; i <= balanceSlots; i++ {
		if u, ok := req.String(fmt.Sprintf("p%d", i)); ok {
			if slices.Contains(players, u) {
				return Reply{}, ladder.Errorf(ladder.CodeInvalid, "%s is listed twice", mention(u))
			}
			players = append(players, u)
		}
	}
	if len(players) < 2 {
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "give at least two players (p1, p2, …), or a match to rebalance")
	}
	if req.Has("apply") {
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "apply goes with match: it writes the new teams of an open match")
	}
	queue, _ := req.String("queue")
	size, _ := req.Int("team_size")
	st, err := h.Service.CurrentStandings(ctx, req.GuildID, queue, players)
	if err != nil {
		return Reply{}, err
	}
	ratings := make([]float64, len(st))
	for i, s := range st {
		ratings[i] = s.Rating
	}
	split, err := matchmaking.BalanceLobby(ratings, int(size))
	if err != nil {
		return Reply{}, err
	}
	tr := userLang(req)
	team := func(idx []int) string {
		var b strings.Builder
		for _, i := range idx {
			fmt.Fprintf(&b, "%s %s\n", mention(players[i]), ratingIn(tr, st[i].Rating, st[i].RD))
		}
		return b.String()
	}
	e := Embed{Title: tr.T("balance.title"), Color: ColorInfo, Fields: []Field{
		{Name: tr.T("balance.team_sum", "Team", "A", "Sum", tr.Rating(split.SumA)), Value: team(split.A), Inline: true},
		{Name: tr.T("balance.team_sum", "Team", "B", "Sum", tr.Rating(split.SumB)), Value: team(split.B), Inline: true},
	}}
	if len(split.SitOut) > 0 {
		e.Fields = append(e.Fields, Field{Name: tr.T("balance.sitting_out"), Value: team(split.SitOut)})
	}
	e.Footer = tr.T("balance.gap", "Gap", tr.Number(split.Gap, 1))
	if !split.Exact {
		e.Footer += " " + tr.T("balance.not_exact_swaps")
	}
	return Reply{Embeds: []Embed{e}}, nil
}
