package commands

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

const (
	actHistory      = "hist"
	historyPageSize = 10
	// historyChars bounds a page's lines in bytes (at least the characters
	// Discord counts), within an embed description's 4,096.
	historyChars = 3900
)

func (h *handlers) historyCommand() Command {
	return Command{
		Name:         "history",
		Description:  "Rated matches, newest first, paged with buttons (only you see it)",
		Options:      []Option{opt(OptUser, "player", "only this player's matches", false), queueOpt()},
		Ephemeral:    true,
		Handle:       h.history,
		Autocomplete: h.autocomplete,
	}
}

func (h *handlers) historyComponents() []Component {
	return []Component{{Action: actHistory, Handle: h.historyButton}}
}

// historyView is what one history message shows: its filters and cursor.
type historyView struct {
	player  string
	queue   string
	queueID int64
	before  int64
	after   int64
}

func (h *handlers) history(ctx context.Context, req Request) (Reply, error) {
	if _, err := h.ensure(ctx, req); err != nil {
		return Reply{}, err
	}
	var v historyView
	v.player, _ = req.String("player")
	v.queue, _ = req.String("queue")
	return h.renderHistory(ctx, userLang(req), req.GuildID, v)
}

// historyButton pages: "hist:CURSOR:o|n:PLAYER|all:QUEUEID" — o reads the
// matches older than CURSOR, n the ones newer; queue ID 0 is every queue.
// The arguments are checked again, as anyone can forge a custom ID.
func (h *handlers) historyButton(ctx context.Context, req Request) (Reply, error) {
	c := req.CustomID
	bad := ladder.Errorf(ladder.CodeInvalid, "this button is not valid; run /history again")
	qid, err := strconv.ParseInt(c.Arg(2), 10, 64)
	if err != nil || qid < 0 || len(c.Args) != 3 || c.ID < 1 {
		return Reply{}, bad
	}
	v := historyView{queueID: qid}
	switch c.Arg(0) {
	case "o":
		v.before = c.ID
	case "n":
		v.after = c.ID
	default:
		return Reply{}, bad
	}
	if p := c.Arg(1); p != "all" {
		v.player = p
	}
	if qid != 0 {
		qs, err := h.Service.Queues(ctx, req.GuildID)
		if err != nil {
			return Reply{}, err
		}
		for _, q := range qs {
			if q.ID == qid {
				v.queue = q.Name
			}
		}
		if v.queue == "" {
			return Reply{}, ladder.Errorf(ladder.CodeNotFound, "that queue no longer exists; run /history again")
		}
	}
	r, err := h.renderHistory(ctx, userLang(req), req.GuildID, v)
	r.Update = true
	return r, err
}

// renderHistory is one page of /history in language l: only its invoker
// sees it, so it is in their language, the buttons' too.
func (h *handlers) renderHistory(ctx context.Context, l *i18n.Lang, guildID string, v historyView) (Reply, error) {
	com, err := h.communityService()
	if err != nil {
		return Reply{}, err
	}
	p, err := com.History(ctx, community.HistoryQuery{GuildID: guildID, Player: v.player, Queue: v.queue,
		Before: v.before, After: v.after, Limit: historyPageSize})
	if err != nil {
		return Reply{}, err
	}
	title := l.T("history.title")
	if v.queue != "" {
		title += " · " + v.queue
	}
	lines := make([]string, len(p.Matches))
	size := 0
	for i, m := range p.Matches {
		line := l.T("history.line", "ID", m.ID, "When", l.DateTime(m.At), "Queue", m.Queue, "Season", m.Season,
			"Team1", mentions(m.Team1), "Team2", mentions(m.Team2), "Result", winnerIn(l, m.Winner))
		if v.player != "" {
			team := 1
			if slices.Contains(m.Team2, v.player) {
				team = 2
			}
			line += " (" + l.T("outcome."+community.ResultFor(m.Winner, team)) + ")"
		}
		lines[i] = line + "\n"
		size += len(lines[i])
	}
	// Ten lines of 8v8 matches (16 mentions each) pass Discord's 4,096
	// characters a description. The page then keeps the whole lines next
	// to where the reader came from, the newest going on (or on a first
	// page), the oldest going back with Previous, and moves the cursor on
	// the far side so that the next page starts at the first match left
	// out: paging either way skips nothing.
	first, last := 0, len(lines)
	for size > historyChars && last-first > 1 {
		if v.after > 0 {
			size -= len(lines[first])
			first++
			p.Newer = p.Matches[first].ID
		} else {
			last--
			size -= len(lines[last])
			p.Older = p.Matches[last-1].ID
		}
	}
	var b strings.Builder
	if v.player != "" {
		// The player is mentioned on the description's first line, where
		// a mention renders (a title shows it as raw text).
		b.WriteString(mention(v.player) + "\n")
	}
	for _, line := range lines[first:last] {
		b.WriteString(line)
	}
	if len(p.Matches) == 0 {
		b.WriteString(l.T("history.empty"))
	}
	player := "all"
	if v.player != "" {
		player = v.player
	}
	button := func(label, dir string, cursor int64) Button {
		return Button{Label: label, Style: Secondary, Disabled: cursor == 0,
			CustomID: ID(actHistory, max(cursor, 1), dir, player, strconv.FormatInt(p.QueueID, 10))}
	}
	e := Embed{Title: title, Description: b.String(), Color: ColorInfo, Footer: l.T("history.footer")}
	return Reply{Embeds: []Embed{e}, Ephemeral: true,
		Buttons: [][]Button{{button(l.T("button.previous"), "n", p.Newer), button(l.T("button.next"), "o", p.Older)}}}, nil
}
