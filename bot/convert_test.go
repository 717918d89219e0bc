package bot

import (
	"strings"
	"testing"
	"unicode/utf8"

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
