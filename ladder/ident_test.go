package ladder

import (
	"strings"
	"testing"
)

func TestCheckText(t *testing.T) {
	tests := []struct {
		name, in string
		ok       bool
	}{
		{"digits", "123456789012345678", true},
		{"name with accents and emoji", "Zoë 🎮", true},
		{"right-to-left letters", "שלום", true},
		{"NUL", "a\x00b", false},
		{"U+0001", "a\x01b", false},
		{"tab", "a\tb", false},
		{"newline", "a\nb", false},
		{"DEL", "a\x7fb", false},
		{"C1 U+0085", "a\u0085b", false},
		{"C1 U+009F", "a\u009fb", false},
		{"RLO U+202E", "a\u202eb", false},
		{"LRE U+202A", "a\u202ab", false},
		{"LRI U+2066", "a\u2066b", false},
		{"PDI U+2069", "a\u2069b", false},
		{"invalid byte 0xff", "a\xffb", false},
		{"truncated sequence", "a\xe2\x82", false},
		{"overlong NUL", "a\xc0\x80b", false},
		{"surrogate half", "a\xed\xa0\x80b", false},
		{"literal U+FFFD", "a\uFFFDb", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckText("player ID", tt.in)
			if (err == nil) != tt.ok {
				t.Fatalf("Got(CheckText(%q)) = %v, want ok=%v", tt.in, err, tt.ok)
			}
			if err != nil && ErrorCode(err) != CodeInvalid {
				t.Errorf("Got(ErrorCode) = %v, want CodeInvalid", ErrorCode(err))
			}
		})
	}
}

func TestCheckID(t *testing.T) {
	for _, in := range []string{"", string(make([]byte, 65)), "x\x00"} {
		if err := CheckID("queue", in); err == nil {
			t.Errorf("Got(CheckID(%q)) = nil, want an error", in)
		}
	}
	if err := CheckID("queue", "2v2"); err != nil {
		t.Errorf("Got(CheckID(2v2)) = %v, want nil", err)
	}
}

func TestCheckLines(t *testing.T) {
	for _, ok := range []string{"", "two\nlines", "a\r\nb", "tab\there", "é ü 漢字"} {
		if err := CheckLines("reason", ok); err != nil {
			t.Errorf("Got(CheckLines(%q)) = %v, want nil", ok, err)
		}
	}
	for in, want := range map[string]string{"a\x00b": "U+0000 at offset 1", "\n\x1b[2J": "U+001B at offset 1", "x\u202e": "bidirectional", "bad\xff": "UTF-8", "\x7f": "U+007F"} {
		if err := CheckLines("reason", in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Got(CheckLines(%q)) = %v, want an error with %q", in, err, want)
		}
	}
}
