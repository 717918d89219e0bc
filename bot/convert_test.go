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
