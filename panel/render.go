package panel

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/joins"
	"github.com/ladderbot/ladderbot/ladder"
)

// Labels of the panel's buttons (docs/spec.md 11).
const (
	LabelJoin   = "Join"
	LabelLeave  = "Leave"
	LabelWith   = "Join with…"
	LabelStatus = "Status"
)

// typicalOf is how many of a queue's last formed matches its typical wait
// is the median of.
const typicalOf = 50

// listed is how many tickets a panel lists by name; the count covers the
// rest. Discord takes an embed's description of at most 4,096 characters,
// which 40 lines of single players or pairs stay well within; a queue of
// premade fives or eights would not (a line of eight mentions is over 200
// characters), so the list also stops before listedChars, leaving room
// for the line that counts the rest.
const (
	listed      = 40
	listedChars = 3800
)

// Message renders a queue's panel: its name and team size, who waits
// (oldest first, parties marked), how many, the typical wait (the median
// of waits, the queue's last formed matches), whether it is open, and the
// four buttons. Relative times (<t:…:R>) keep the text the same while
// nothing changes, so an idle panel is never edited.
// The texts are in language l, the guild's (commands.GuildLang); in
// English the buttons carry the Label constants.
func Message(l *i18n.Lang, q ladder.Queue, waiting []Party, waits []time.Duration) commands.Reply {
	return MessageAt(l, q, waiting, waits, joins.Opening{})
}

// MessageAt is Message for a queue with open hours: its Status says
// "Open until …" or "Closed, opens at …" as o says.
func MessageAt(l *i18n.Lang, q ladder.Queue, waiting []Party, waits []time.Duration, o joins.Opening) commands.Reply {
	players := 0
	for _, p := range waiting {
		players += len(p.UserIDs)
	}
	var b strings.Builder
	if len(waiting) == 0 {
		b.WriteString(l.T("panel.empty", "Join", l.T("panel.join")))
	}
	for i, p := range waiting {
		mark := ""
		if len(p.UserIDs) > 1 {
			mark = "👥 "
		}
		line := fmt.Sprintf("%d. %s%s · <t:%d:R>\n", i+1, mark, mentionList(p.UserIDs), p.JoinedAt.Unix())
		// Bytes count at least the characters Discord counts.
		if i == listed || b.Len()+len(line) > listedChars {
			rest := 0
			for _, r := range waiting[i:] {
				rest += len(r.UserIDs)
			}
			b.WriteString(l.T("panel.more", "Count", l.Int(rest)))
			break
		}
		b.WriteString(line)
	}
	status, color := commands.OpeningStatus(l, o), commands.ColorSuccess
	switch {
	case q.Disabled:
		status, color = l.T("panel.closed"), commands.ColorWarn
	case o.Scheduled && !o.State.Open:
		color = commands.ColorWarn
	}
	e := commands.Embed{
		Title:       l.T("panel.title", "Queue", q.Name, "Size", q.TeamSize),
		Description: strings.TrimRight(b.String(), "\n"),
		Color:       color,
		Fields: []commands.Field{
			{Name: l.T("panel.waiting"), Value: l.N("panel.players", players), Inline: true},
			{Name: l.T("panel.typical"), Value: typicalText(l, waits), Inline: true},
			{Name: l.T("panel.status"), Value: status, Inline: true},
		},
		Footer: l.T("panel.footer", "With", l.T("panel.with")),
	}
	return commands.Reply{
		Embeds: []commands.Embed{e},
		Buttons: [][]commands.Button{{
			{Label: l.T("panel.join"), Style: commands.Success, CustomID: commands.ID(commands.ActPanelJoin, q.ID)},
			{Label: l.T("panel.leave"), Style: commands.Danger, CustomID: commands.ID(commands.ActPanelLeave, q.ID)},
			{Label: l.T("panel.with"), Style: commands.Primary, CustomID: commands.ID(commands.ActPanelWith, q.ID)},
			{Label: l.T("panel.status"), Style: commands.Secondary, CustomID: commands.ID(commands.ActPanelStatus, q.ID)},
		}},
	}
}

// Typical is the median of waits; false when there are none.
func Typical(waits []time.Duration) (time.Duration, bool) {
	if len(waits) == 0 {
		return 0, false
	}
	w := slices.Clone(waits)
	slices.Sort(w)
	n := len(w)
	if n%2 == 1 {
		return w[n/2], true
	}
	return (w[n/2-1] + w[n/2]) / 2, true
}

func typicalText(l *i18n.Lang, waits []time.Duration) string {
	d, ok := Typical(waits)
	if !ok {
		return l.T("panel.no_matches")
	}
	return l.T("panel.about", "Wait", Duration(d))
}

// Duration renders a wait as players read it: "40s", "3m 05s", "1h 20m".
func Duration(d time.Duration) string {
	d = d.Round(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm %02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh %02dm", int(d.Hours()), int(d.Minutes())%60)
}

func mentionList(ids []string) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = "<@" + id + ">"
	}
	return strings.Join(parts, " + ")
}

// digest identifies what a message shows, so an unchanged panel is not
// edited.
func digest(r commands.Reply) string {
	b, _ := json.Marshal(r)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}
