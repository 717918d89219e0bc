package bot

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ladderbot/ladderbot/internal/fakediscord"
)

// TestManyQueuesWithinDiscordLimits runs a server of thirty queues through
// discordgo and the fake Discord, which refuses what Discord refuses (an
// embed's parts, 25 fields, 6,000 characters a message): /config show
// answers with whole queues and names the rest, and /mod season end posts
// every queue's final table, one message each, none refused.
func TestManyQueuesWithinDiscordLimits(t *testing.T) {
	e := newEnv(t, freshDSN(t, "sqlite"))
	const n = 30
	for i := 1; i < n; i++ {
		wantText(t, "queue add", e.slash(owner, "config queue add", map[string]any{"name": fmt.Sprintf("league-of-the-%02d-division", i), "team_size": 1 + i%4}), "added")
	}
	show := e.slash(owner, "config show", nil)
	if len(show.Message.Embeds) != 1 {
		t.Fatalf("Got(/config show) = %+v, want one embed", show.Message)
	}
	em := show.Message.Embeds[0]
	total := utf8.RuneCountInString(em.Title) + utf8.RuneCountInString(em.Description) + utf8.RuneCountInString(em.Footer.Text)
	queues := 0
	for _, f := range em.Fields {
		total += utf8.RuneCountInString(f.Name) + utf8.RuneCountInString(f.Value)
		if strings.HasPrefix(f.Name, "Queue ") {
			queues++
			if strings.HasSuffix(f.Value, "…") {
				t.Errorf("Got(field %q) = %q, cut off; want each queue whole", f.Name, f.Value)
			}
		}
	}
	last := em.Fields[len(em.Fields)-1]
	if len(em.Fields) > 25 || total > 6000 || queues < 10 || last.Name != fmt.Sprintf("%d more queues (the dashboard shows each)", n-queues) ||
		!strings.HasPrefix(last.Value, fmt.Sprintf("league-of-the-%02d-division", queues)) {
		t.Errorf("Got(/config show) = %d fields, %d characters, %d queues, last %q: %q; want within 25 and 6,000, the rest named", len(em.Fields), total, queues, last.Name, last.Value)
	}
	wantText(t, "season end", e.slash(owner, "mod season end", nil), "Season 1 ended")
	// Each queue's table is a message of its own in the channel.
	for i := 1; i < n; i++ {
		e.channelMessage(fmt.Sprintf("Season 1 final standings · league-of-the-%02d-division", i))
	}
	if m := e.channelMessage("Season 1 final standings · 2v2"); !strings.Contains(m.Text(), "Season 1 is over") {
		t.Errorf("Got(first standings post) = %q, want it to say the season is over", m.Text())
	}
	var tables []fakediscord.Message
	for _, m := range e.fake.ChannelMessages(testChannel) {
		if strings.Contains(m.Text(), "final standings") {
			tables = append(tables, m)
		}
	}
	if len(tables) != n {
		t.Errorf("Got(%d standings posts), want %d, one a queue", len(tables), n)
	}
}
