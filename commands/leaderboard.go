package commands

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

const (
	actBoard      = "lb"
	boardPageSize = 10
	// boardChunk is the largest page the service serves; walking to a far
	// page reads in chunks of this size.
	boardChunk = 200
)

func (h *handlers) leaderboardCommand() Command {
	one, most := 1.0, float64(MaxInteger)
	return Command{
		Name:        "leaderboard",
		Description: "Ranked players with division, rating and record",
		Options: []Option{
			seasonOpt(),
			{Type: OptString, Name: "division", Description: "only this division", Autocomplete: true, MaxLength: 32},
			{Type: OptInteger, Name: "page", Description: "page number", Min: &one, Max: &most},
			queueOpt(),
		},
		Handle:       h.leaderboard,
		Autocomplete: h.leaderboardAutocomplete,
	}
}

func (h *handlers) leaderboardComponents() []Component {
	return []Component{{Action: actBoard, Handle: h.leaderboardButton}}
}

func (h *handlers) leaderboardAutocomplete(ctx context.Context, req Request) (Reply, error) {
	if req.Focused != "division" {
		return h.autocomplete(ctx, req)
	}
	g, err := h.Service.EnsureGuild(ctx, req.GuildID)
	if err != nil {
		return Reply{}, err
	}
	l := userLang(req)
	var out []Choice
	for _, d := range g.Divisions {
		out = append(out, Choice{Name: l.T("board.division_from", "Division", d.Name, "Min", l.Rating(d.Min)), Value: d.Name})
	}
	return Reply{Choices: out}, nil
}

// boardView is what one leaderboard message shows.
type boardView struct {
	queue    string
	season   int
	division string
	page     int
}

func (h *handlers) leaderboard(ctx context.Context, req Request) (Reply, error) {
	if _, err := h.ensure(ctx, req); err != nil {
		return Reply{}, err
	}
	v := boardView{page: 1}
	v.queue, _ = req.String("queue")
	v.division, _ = req.String("division")
	if s, ok := req.Int("season"); ok {
		v.season = int(s)
	}
	if p, ok := req.Int("page"); ok {
		v.page = int(p)
	}
	return h.renderBoard(ctx, userLang(req), req.GuildID, v)
}

// leaderboardButton pages: "lb:QUEUEID:PAGE:SEASON:DIVISION-INDEX|all".
func (h *handlers) leaderboardButton(ctx context.Context, req Request) (Reply, error) {
	c := req.CustomID
	page, err1 := strconv.Atoi(c.Arg(0))
	season, err2 := strconv.Atoi(c.Arg(1))
	if err1 != nil || err2 != nil || page < 1 || season < 1 || len(c.Args) != 3 {
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "this button is not valid; run /leaderboard again")
	}
	qs, err := h.Service.Queues(ctx, req.GuildID)
	if err != nil {
		return Reply{}, err
	}
	v := boardView{page: page, season: season}
	for _, q := range qs {
		if q.ID == c.ID {
			v.queue = q.Name
		}
	}
	if v.queue == "" {
		return Reply{}, ladder.Errorf(ladder.CodeNotFound, "that queue no longer exists")
	}
	if d := c.Arg(2); d != "all" {
		g, err := h.Service.EnsureGuild(ctx, req.GuildID)
		if err != nil {
			return Reply{}, err
		}
		i, err := strconv.Atoi(d)
		if err != nil || i < 0 || i >= len(g.Divisions) {
			return Reply{}, ladder.Errorf(ladder.CodeInvalid, "that division no longer exists; run /leaderboard again")
		}
		v.division = g.Divisions[i].Name
	}
	r, err := h.renderBoard(ctx, userLang(req), req.GuildID, v)
	r.Update = true
	return r, err
}

// boardPage reads page v.page by walking the keyset cursor from the top:
// buttons carry page numbers rather than cursors, so they stay short and
// keep working after a restart.
func (h *handlers) boardPage(ctx context.Context, guildID string, v boardView) (ladder.LeaderboardPage, error) {
	q := ladder.LeaderboardQuery{GuildID: guildID, Queue: v.queue, Season: v.season, Division: v.division}
	for skip := (v.page - 1) * boardPageSize; skip > 0; {
		q.Limit = min(skip, boardChunk)
		p, err := h.Service.Leaderboard(ctx, q)
		if err != nil {
			return p, err
		}
		if p.Next == "" {
			return p, ladder.Errorf(ladder.CodeInvalid, "there is no page %d", v.page)
		}
		q.After = p.Next
		skip -= q.Limit
	}
	q.Limit = boardPageSize
	return h.Service.Leaderboard(ctx, q)
}

func (h *handlers) renderBoard(ctx context.Context, l *i18n.Lang, guildID string, v boardView) (Reply, error) {
	p, err := h.boardPage(ctx, guildID, v)
	if err != nil {
		return Reply{}, err
	}
	title := l.T("board.title", "Queue", p.Queue.Name, "Season", p.Season.Number)
	divIndex := "all"
	if v.division != "" {
		for i, d := range p.Guild.Divisions {
			if strings.EqualFold(d.Name, v.division) {
				title += " · " + d.Name
				divIndex = strconv.Itoa(i)
			}
		}
	}
	var b strings.Builder
	for _, s := range p.Standings {
		fmt.Fprintf(&b, "`#%d` **%s** · %s · %s ± %s · %d-%d", s.Rank, nameOr(s.Name, s.UserID), s.Division, l.Rating(s.Rating), l.Rating(s.RD), s.Wins, s.Losses)
		if s.Draws > 0 {
			fmt.Fprintf(&b, "-%d", s.Draws)
		}
		b.WriteString("\n")
	}
	if len(p.Standings) == 0 {
		b.WriteString(l.T("board.empty"))
	}
	e := Embed{Title: title, Description: b.String(), Color: ColorInfo,
		Footer: l.T("board.footer", "Page", v.page)}
	button := func(label string, page int, disabled bool) Button {
		return Button{Label: label, Style: Secondary, Disabled: disabled,
			CustomID: ID(actBoard, p.Queue.ID, strconv.Itoa(max(page, 1)), strconv.Itoa(p.Season.Number), divIndex)}
	}
	prev := button(l.T("button.previous"), v.page-1, v.page <= 1)
	next := button(l.T("button.next"), v.page+1, p.Next == "")
	return Reply{Embeds: []Embed{e}, Buttons: [][]Button{{prev, next}}}, nil
}
