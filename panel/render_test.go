package panel_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/panel"
)

func TestTypical(t *testing.T) {
	s := time.Second
	for _, c := range []struct {
		name  string
		waits []time.Duration
		want  time.Duration
		ok    bool
	}{
		{"none", nil, 0, false},
		{"one", []time.Duration{7 * s}, 7 * s, true},
		{"odd, unsorted", []time.Duration{30 * s, 10 * s, 20 * s}, 20 * s, true},
		{"even: mean of the middle two", []time.Duration{40 * s, 10 * s, 20 * s, 30 * s}, 25 * s, true},
		{"an outlier does not move it", []time.Duration{10 * s, 11 * s, 12 * s, 13 * s, time.Hour}, 12 * s, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := panel.Typical(c.waits)
			if got != c.want || ok != c.ok {
				t.Errorf("Got(Typical(%v)) = %v, %v, want %v, %v", c.waits, got, ok, c.want, c.ok)
			}
		})
	}
}

func TestMessage(t *testing.T) {
	q := ladder.Queue{ID: 7, Name: "2v2", TeamSize: 2}
	at := time.Unix(1_800_000_000, 0)
	var waiting []panel.Party
	for i := range 45 {
		p := panel.Party{UserIDs: []string{fmt.Sprint(1000 + i)}, JoinedAt: at}
		if i == 0 {
			p.UserIDs = append(p.UserIDs, "999")
		}
		waiting = append(waiting, p)
	}
	m := panel.Message(i18n.English(), q, waiting, []time.Duration{90 * time.Second})
	e := m.Embeds[0]
	for _, want := range []string{"1. 👥 <@1000> + <@999> · <t:1800000000:R>", "40. <@1039>", "…and 5 more"} {
		if !strings.Contains(e.Description, want) {
			t.Errorf("Got(description) = %q, want %q", e.Description, want)
		}
	}
	if strings.Contains(e.Description, "<@1040>") {
		t.Errorf("Got(description) lists the 41st ticket, want the first 40 and a count")
	}
	if e.Title != "Queue 2v2 (2v2)" || e.Fields[0].Value != "46 players" || e.Fields[1].Value != "about 1m 30s" || e.Fields[2].Value != "Open" {
		t.Errorf("Got(title %q, fields %+v), want the queue, 46 players, about 1m 30s, Open", e.Title, e.Fields)
	}
	var labels []string
	for _, b := range m.Buttons[0] {
		labels = append(labels, b.Label)
	}
	if strings.Join(labels, "|") != "Join|Leave|Join with…|Status" {
		t.Errorf("Got(buttons) = %q, want Join|Leave|Join with…|Status", labels)
	}
	// A queue of premade eights: 40 lines of eight mentions would be
	// over 8,000 characters, twice what Discord takes in a description,
	// and the description was clipped mid-mention with the count lost.
	// The list stops while whole, and the count covers the rest.
	eights := ladder.Queue{ID: 8, Name: "8v8", TeamSize: 8}
	var stacks []panel.Party
	for i := range 40 {
		p := panel.Party{JoinedAt: at}
		for j := range 8 {
			p.UserIDs = append(p.UserIDs, fmt.Sprint(100000000000000000+i*8+j))
		}
		stacks = append(stacks, p)
	}
	for _, lang := range []string{"en", "de"} {
		d := panel.Message(i18n.For(lang), eights, stacks, nil).Embeds[0].Description
		lines := strings.Split(d, "\n")
		shown := len(lines) - 1
		more := i18n.For(lang).T("panel.more", "Count", i18n.For(lang).Int(8*(40-shown)))
		if n := len([]rune(d)); n > 4096 || shown < 10 || lines[shown] != more || !strings.HasSuffix(lines[shown-1], ":R>") {
			t.Errorf("%s: Got(panel of 40 eights) = %d characters, %d whole lines, last %q; want at most 4,096, whole lines, then %q", lang, n, shown, lines[shown], more)
		}
	}
	q.Disabled = true
	if got := panel.Message(i18n.English(), q, nil, nil).Embeds[0]; got.Fields[2].Value != "Closed" || got.Fields[1].Value != "no matches yet" {
		t.Errorf("Got(closed, empty panel fields) = %+v, want Closed and no matches yet", got.Fields)
	}
}
