package bot

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/ladderbot/ladderbot/commands"
)

func TestClipKeepsDiscordLimits(t *testing.T) {
	long := strings.Repeat("é", 5000)
	tests := []struct {
		name string
		got  string
		max  int
	}{
		{"content", responseData(commands.Reply{Content: long}).Content, maxContent},
		{"edit content", *webhookEdit(commands.Reply{Content: long}).Content, maxContent},
		{"followup content", webhookParams(commands.Reply{Content: long}).Content, maxContent},
		{"channel content", messageSend(commands.Reply{Content: long}).Content, maxContent},
		{"description", embeds([]commands.Embed{{Description: long}})[0].Description, maxDescription},
		{"field value", embeds([]commands.Embed{{Fields: []commands.Field{{Name: "n", Value: long}}}})[0].Fields[0].Value, maxFieldValue},
		{"short stays", responseData(commands.Reply{Content: "hello"}).Content, 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if n := utf8.RuneCountInString(tc.got); n != tc.max {
				t.Errorf("Got(length) = %d, want %d", n, tc.max)
			}
		})
	}
	many := make([]commands.Field, 30)
	if n := len(embeds([]commands.Embed{{Fields: many}})[0].Fields); n != maxFields {
		t.Errorf("Got(fields) = %d, want %d", n, maxFields)
	}
}

// TestEmbedsWithinTotal: Discord refuses a message whose embeds hold more
// than 6,000 characters in all, or a field with an empty name or value
// (50035), even when every part is within its own limit. The conversion
// keeps titles and footers, clips descriptions and leaves out the fields
// that no longer fit, in order.
func TestEmbedsWithinTotal(t *testing.T) {
	total := func(es []*discordgo.MessageEmbed) int {
		n := 0
		for _, e := range es {
			n += utf8.RuneCountInString(e.Title) + utf8.RuneCountInString(e.Description)
			for _, f := range e.Fields {
				n += utf8.RuneCountInString(f.Name) + utf8.RuneCountInString(f.Value)
			}
			if e.Footer != nil {
				n += utf8.RuneCountInString(e.Footer.Text)
			}
		}
		return n
	}
	fields := make([]commands.Field, 25)
	for i := range fields {
		fields[i] = commands.Field{Name: fmt.Sprintf("queue %d", i+1), Value: strings.Repeat("ü", 1000)}
	}
	out := embeds([]commands.Embed{{Title: "Settings", Footer: "page 1", Fields: fields}})
	if n := total(out); n > maxEmbedTotal {
		t.Errorf("Got(total of 25 full fields) = %d characters, want at most %d", n, maxEmbedTotal)
	}
	if f := out[0].Fields; len(f) != 5 || f[0].Name != "queue 1" || f[4].Name != "queue 5" || out[0].Title != "Settings" || out[0].Footer.Text != "page 1" {
		t.Errorf("Got(%d fields, title %q), want the first 5 fields whole, the title and footer kept", len(f), out[0].Title)
	}
	three := embeds([]commands.Embed{{Title: "a", Description: strings.Repeat("x", 4096)}, {Title: "b", Description: strings.Repeat("y", 4096)}, {Title: "c", Footer: "end"}})
	if n := total(three); n != maxEmbedTotal || len(three) != 3 || three[2].Title != "c" || three[2].Footer.Text != "end" || !strings.HasSuffix(three[1].Description, "…") {
		t.Errorf("Got(three embeds) = %d characters, want exactly %d with every title and footer and the second description clipped", n, maxEmbedTotal)
	}
	blank := embeds([]commands.Embed{{Fields: []commands.Field{{Name: "", Value: "x"}, {Name: "y", Value: " "}}}})
	if f := blank[0].Fields; f[0].Name != blankField || f[1].Value != blankField {
		t.Errorf("Got(empty field parts) = %q/%q, want each sent as a zero-width space", f[0].Name, f[1].Value)
	}
}

// TestModalWithinLimits: Discord refuses a modal whose title or a text
// input's label passes 45 characters, or a placeholder 100; a long
// translation is clipped rather than have the form refused.
func TestModalWithinLimits(t *testing.T) {
	long := strings.Repeat("é", 60)
	d := modalData(&commands.Modal{CustomID: "x", Title: long, Fields: []commands.TextField{{ID: "r", Label: long, Placeholder: strings.Repeat("p", 150), Long: true}}})
	in := d.Components[0].(discordgo.ActionsRow).Components[0].(discordgo.TextInput)
	if utf8.RuneCountInString(d.Title) != maxModalText || utf8.RuneCountInString(in.Label) != maxModalText || utf8.RuneCountInString(in.Placeholder) != maxOptionText {
		t.Errorf("Got(title %d, label %d, placeholder %d characters), want %d, %d, %d", utf8.RuneCountInString(d.Title), utf8.RuneCountInString(in.Label),
			utf8.RuneCountInString(in.Placeholder), maxModalText, maxModalText, maxOptionText)
	}
}

// TestSelectMenuConversion checks both directions of a select menu: a
// reply's menu becomes its own action row after the buttons, clipped to
// Discord's 25 options, and a select interaction's values reach the
// handler as Request.Selected, more than 25 refused.
func TestSelectMenuConversion(t *testing.T) {
	var opts []commands.SelectOption
	for i := range 30 {
		opts = append(opts, commands.SelectOption{Label: strings.Repeat("n", 150), Value: fmt.Sprint(i)})
	}
	r := commands.Reply{Buttons: [][]commands.Button{{{Label: "x", CustomID: "x:1"}}}, Menus: []commands.SelectMenu{{CustomID: "pick:1:0", Options: opts}}}
	rows := components(r)
	if len(rows) != 2 {
		t.Fatalf("Got(rows) = %d, want the buttons' and the menu's", len(rows))
	}
	menu, ok := rows[1].(discordgo.ActionsRow).Components[0].(discordgo.SelectMenu)
	if !ok || menu.CustomID != "pick:1:0" || len(menu.Options) != maxSelectOptions || utf8.RuneCountInString(menu.Options[0].Label) != maxOptionText || menu.MaxValues != 1 {
		t.Errorf("Got(menu) = %+v, want pick:1:0 with 25 options of labels ≤ 100, one value", menu)
	}

	ic := func(values []string) *discordgo.Interaction {
		return &discordgo.Interaction{Type: discordgo.InteractionMessageComponent, GuildID: "1", Data: discordgo.MessageComponentInteractionData{
			CustomID: "pick:1:0", ComponentType: discordgo.SelectMenuComponent, Values: values}}
	}
	req, err := request(ic([]string{"500000000000000001"}))
	if err != nil || req.CustomID.Action != "pick" || len(req.Selected) != 1 || req.Selected[0] != "500000000000000001" {
		t.Errorf("Got(request) = %+v, %v, want action pick with the one value selected", req, err)
	}
	many := make([]string, 26)
	if _, err := request(ic(many)); err == nil || !strings.Contains(err.Error(), "too many values") {
		t.Errorf("Got(request with 26 values) = %v, want refused", err)
	}
	if err := (commands.Request{Selected: []string{"a\x00b"}}).CheckText(); err == nil {
		t.Errorf("Got(CheckText of a NUL in a selected value) = nil, want refused")
	}
}
