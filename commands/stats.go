package commands

import (
	"context"
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/i18n"
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
	return statsReply(userLang(req), st), nil
}

// statsReply is /stats' embed in language l.
func statsReply(l *i18n.Lang, st community.Stats) Reply {
	list := func(n int, line func(i int) string) []string {
		lines := make([]string, n)
		for i := range n {
			lines[i] = fmt.Sprintf("%d. %s", i+1, line(i))
		}
		return lines
	}
	active := list(len(st.Active), func(i int) string {
		p := st.Active[i]
		return l.N("stats.active_line", p.Count, "Name", playerName(p.UserID, p.Name))
	})
	streaks := list(len(st.Streaks), func(i int) string {
		p := st.Streaks[i]
		return l.N("stats.streak_line", p.Count, "Name", playerName(p.UserID, p.Name))
	})
	best := list(len(st.BestStreaks), func(i int) string {
		p := st.BestStreaks[i]
		return l.N("stats.streak_line", p.Count, "Name", playerName(p.UserID, p.Name))
	})
	upsets := list(len(st.Upsets), func(i int) string {
		u := st.Upsets[i]
		won, lost := u.Team1, u.Team2
		if u.Winner == 2 {
			won, lost = lost, won
		}
		return l.T("stats.upset_line", "ID", u.ID, "Winners", mentions(won), "Losers", mentions(lost), "Chance", l.Percent(u.Chance))
	})
	pairs := list(len(st.Partnerships), func(i int) string {
		p := st.Partnerships[i]
		return fmt.Sprintf("%s + %s · %s", playerName(p.A, p.NameA), playerName(p.B, p.NameB), gamesText(l, p.Record))
	})
	predictors := list(len(st.Predictors), func(i int) string {
		p := st.Predictors[i]
		return l.N("stats.predictor_line", p.Points, "Name", playerName(p.UserID, p.Name), "Correct", l.Int(p.Correct), "Called", l.Int(p.Called))
	})
	improved := list(len(st.Improved), func(i int) string {
		p := st.Improved[i]
		return l.N("stats.improved_line", p.Games, "Name", playerName(p.UserID, p.Name), "Gain", signedRating(l, p.Gain()),
			"From", l.Rating(p.From), "To", l.Rating(p.To))
	})
	mvps := list(len(st.MVPs), func(i int) string {
		p := st.MVPs[i]
		return l.N("stats.mvp_line", p.Votes, "Name", playerName(p.UserID, p.Name), "MVPs", l.Int(p.MVPs))
	})
	e := Embed{
		Title: l.T("stats.title", "Queue", st.Queue.Name, "Season", st.Season.Number),
		Color: ColorInfo,
		Fields: []Field{
			{Name: l.T("stats.active"), Inline: true},
			{Name: l.T("stats.streaks"), Inline: true},
			{Name: l.T("stats.best_streaks"), Inline: true},
			{Name: l.T("stats.upsets")},
			{Name: l.T("stats.improved")},
			{Name: l.T("stats.partnerships", "Min", l.Int(community.MinPartnerGames))},
		},
	}
	lists := [][]string{active, streaks, best, upsets, improved, pairs}
	if len(st.Predictors) > 0 {
		e.Fields = append(e.Fields, Field{Name: l.T("stats.predictors"), Inline: true})
		lists = append(lists, predictors)
	}
	if len(st.MVPs) > 0 {
		e.Fields = append(e.Fields, Field{Name: l.T("stats.mvps"), Inline: true})
		lists = append(lists, mvps)
	}
	fitStatsLists(l, &e, lists)
	return Reply{Embeds: []Embed{e}}
}

// fitStatsLists sets each field of e to its list of lines: the lines that
// fit whole within Discord's 1,024 characters a field, the rest counted.
// An upset names every player of both teams, so five upsets of a 4v4
// queue already pass 1,024; when the lists together would pass the
// embed's 6,000 characters (the longest names), each gets an equal share
// of what the title and the fields' names leave, rather than Discord's
// clip cutting a mention in half or the last lists left out.
func fitStatsLists(l *i18n.Lang, e *Embed, lists [][]string) {
	fit := func(limit int) int {
		total := 0
		for i, lines := range lists {
			v := l.T("stats.nobody")
			if len(lines) > 0 {
				v = fitLines(l, lines, limit)
			}
			e.Fields[i].Value = v
			total += utf8.RuneCountInString(v)
		}
		return total
	}
	fixed := utf8.RuneCountInString(e.Title)
	for _, f := range e.Fields {
		fixed += utf8.RuneCountInString(f.Name)
	}
	if fixed+fit(embedFieldValue) > embedTotal {
		fit(min(embedFieldValue, (embedTotal-fixed)/len(lists)))
	}
}

// signedRating is a whole rating change with its sign: +12, -3, ±0.
func signedRating(l *i18n.Lang, d float64) string {
	switch r := math.Round(d); {
	case r > 0:
		return "+" + l.Rating(r)
	case r < 0:
		return "-" + l.Rating(-r)
	}
	return "±0"
}
