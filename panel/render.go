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
// rest. Discord cuts an embed's description at 4,096 characters, and 40
// lines of mentions stay well within it.
const listed = 40

// Message renders a queue's panel: its name and team size, who waits
// (oldest first, parties marked), how many, the typical wait (the median
// of waits, the queue's last formed matches), whether it is open, and the
// four buttons. Relative times (<t:…:R>) keep the text the same while
// nothing changes, so an idle panel is never edited.
func Message(q ladder.Queue, waiting []Party, waits []time.Duration) commands.Reply {
	return MessageAt(q, waiting, waits, joins.Opening{})
}

// MessageAt is Message for a queue with open hours: its Status says
// "Open until …" or "Closed, opens at …" as o says.
func MessageAt(q ladder.Queue, waiting []Party, waits []time.Duration, o joins.Opening) commands.Reply {
	players := 0
	for _, p := range waiting {
		players += len(p.UserIDs)
	}
	var b strings.Builder
	if len(waiting) == 0 {
		b.WriteString("Nobody is waiting. Press **Join** to queue.")
	}
	for i, p := range waiting {
		if i == listed {
			rest := 0
			for _, r := range waiting[listed:] {
				rest += len(r.UserIDs)
			}
			fmt.Fprintf(&b, "…and %d more", rest)
			break
		}
		mark := ""
		if len(p.UserIDs) > 1 {
			mark = "👥 "
		}
		fmt.Fprintf(&b, "%d. %s%s · <t:%d:R>\n", i+1, mark, mentionList(p.UserIDs), p.JoinedAt.Unix())
	}
	status, color := commands.OpeningStatus(o), commands.ColorSuccess
	switch {
	case q.Disabled:
		status, color = "Closed", commands.ColorWarn
	case o.Scheduled && !o.State.Open:
		color = commands.ColorWarn
	}
	e := commands.Embed{
		Title:       fmt.Sprintf("Queue %s (%dv%d)", q.Name, q.TeamSize, q.TeamSize),
		Description: strings.TrimRight(b.String(), "\n"),
		Color:       color,
		Fields: []commands.Field{
			{Name: "Waiting", Value: plural(players, "player"), Inline: true},
			{Name: "Typical wait", Value: typicalText(waits), Inline: true},
			{Name: "Status", Value: status, Inline: true},
		},
		Footer: "Join or leave with the buttons; Join with… invites a partner. Answers are private.",
	}
	return commands.Reply{
		Embeds: []commands.Embed{e},
		Buttons: [][]commands.Button{{
			{Label: LabelJoin, Style: commands.Success, CustomID: commands.ID(commands.ActPanelJoin, q.ID)},
			{Label: LabelLeave, Style: commands.Danger, CustomID: commands.ID(commands.ActPanelLeave, q.ID)},
			{Label: LabelWith, Style: commands.Primary, CustomID: commands.ID(commands.ActPanelWith, q.ID)},
			{Label: LabelStatus, Style: commands.Secondary, CustomID: commands.ID(commands.ActPanelStatus, q.ID)},
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

func typicalText(waits []time.Duration) string {
	d, ok := Typical(waits)
	if !ok {
		return "no matches yet"
	}
	return "about " + Duration(d)
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

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// digest identifies what a message shows, so an unchanged panel is not
// edited.
func digest(r commands.Reply) string {
	b, _ := json.Marshal(r)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}
