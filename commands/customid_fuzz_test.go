package commands_test

import (
	"testing"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/ladder"
)

// FuzzParseCustomID: any string a client sends as a custom ID parses or
// is a CodeInvalid error, never a panic; what parses fits Discord's 100
// characters and encodes back to the same string.
func FuzzParseCustomID(f *testing.F) {
	for _, s := range []string{"cf:12", "rep:3:win", "modfix:9:2", "lb:0:2:x", "party_ok:1", ":", "", "cf:-1", "cf:1:", "a:1:b:c:d:e", "cf:99999999999999999999", "cf:0x10", "CF:1", "cf:1:é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := commands.ParseCustomID(s)
		if err != nil {
			if ladder.ErrorCode(err) != ladder.CodeInvalid {
				t.Fatalf("ParseCustomID(%q) error %v has code %s, want invalid", s, err, ladder.ErrorCode(err))
			}
			return
		}
		if len(s) > 100 || c.ID < 0 {
			t.Fatalf("ParseCustomID(%q) = %+v accepted out of bounds", s, c)
		}
		if got := c.String(); got != s {
			t.Fatalf("ParseCustomID(%q).String() = %q, want the input back", s, got)
		}
	})
}
