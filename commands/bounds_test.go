package commands_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestOptionBoundsChecked: a value outside an option's declared bounds,
// as a modified client could send, is refused with the bounds the client
// is given; the bounds themselves pass.
func TestOptionBoundsChecked(t *testing.T) {
	set := commands.New(commands.Deps{})
	cases := []struct {
		name    string
		command string
		opts    map[string]any
		want    string // "" accepted
	}{
		{"ready window at its top", "config queue set", map[string]any{"queue": "2v2", "ready_window": int64(3600)}, ""},
		{"ready window at zero", "config queue set", map[string]any{"queue": "2v2", "ready_window": int64(0)}, ""},
		{"ready window over", "config queue set", map[string]any{"queue": "2v2", "ready_window": int64(3601)}, "ready_window must be from 0 to 3600, not 3601"},
		{"ready window negative", "config queue set", map[string]any{"queue": "2v2", "ready_window": int64(-5)}, "ready_window must be from 0 to 3600, not -5"},
		{"cancel share over", "config queue set", map[string]any{"queue": "2v2", "cancel_share": 1.5}, "cancel_share must be from 0 to 0.99, not 1.5"},
		{"match zero", "match show", map[string]any{"match": int64(0)}, "match must be from 1 to"},
		{"match past Discord's integers", "match show", map[string]any{"match": int64(1 << 60)}, "match must be from 1 to 9007199254740991, not 1152921504606846976"},
		{"page zero", "leaderboard", map[string]any{"page": int64(0)}, "page must be from 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := commands.Request{Kind: commands.KindCommand, GuildID: "100000000000000001", ChannelID: "200000000000000001",
				UserID: "400000000000000001", Permissions: commands.PermManageGuild, Command: c.command, Options: c.opts}
			err := set.Authorize(context.Background(), &req, commands.Admins)
			switch {
			case c.want == "" && err != nil:
				t.Errorf("Got(Authorize) = %v, want accepted", err)
			case c.want != "" && (ladder.ErrorCode(err) != ladder.CodeInvalid || !strings.Contains(err.Error(), c.want)):
				t.Errorf("Got(Authorize) = %v, want invalid: %q", err, c.want)
			}
		})
	}
}

// TestModalLines: a modal's field may hold the line breaks and tabs its
// user types in a paragraph field (a dispute's reason); every other
// control, a bidi override or invalid UTF-8 is refused there as anywhere,
// and a slash command's option, one line on Discord, takes no line break.
func TestModalLines(t *testing.T) {
	for _, ok := range []string{"they left\nscreenshot in the room", "a\r\n\tb"} {
		if err := (commands.Request{Values: map[string]string{"reason": ok}}).CheckText(); err != nil {
			t.Errorf("Got(CheckText of modal value %q) = %v, want nil", ok, err)
		}
	}
	for _, bad := range []string{"a\x00b", "\n\x1b[2J", "x\u202e", "bad\xff"} {
		if err := (commands.Request{Values: map[string]string{"reason": bad}}).CheckText(); err == nil {
			t.Errorf("Got(CheckText of modal value %q) = nil, want refused", bad)
		}
	}
	if err := (commands.Request{Options: map[string]any{"reason": "two\nlines"}}).CheckText(); err == nil || !strings.Contains(err.Error(), "U+000A") {
		t.Errorf("Got(CheckText of an option with a line break) = %v, want refused", err)
	}
}
