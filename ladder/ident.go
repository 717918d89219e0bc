package ladder

import (
	"unicode/utf8"
)

// CheckText is the one rule every identifier and name from outside passes
// (guild, user and queue IDs, player and token names; issue 14): valid
// UTF-8, no NUL or other C0 control, no DEL, no C1 control, no bidi
// override, embedding or isolate (U+202A–U+202E, U+2066–U+2069). The edges
// (HTTP API and pages, commands, CSV import) call it before anything is
// looked up or stored, so PostgreSQL never sees a NUL (SQLSTATE 22021),
// SQLite never stores one, and two different invalid byte strings are never
// collapsed into one player by U+FFFD replacement. what names the value in
// the message, as in "player ID".
func CheckText(what, s string) error {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			return Errorf(CodeInvalid, "%s is not valid UTF-8 (bad byte 0x%02x at offset %d)", what, s[i], i)
		case r < 0x20 || (r >= 0x7f && r <= 0x9f):
			return Errorf(CodeInvalid, "%s contains control character U+%04X at offset %d", what, r, i)
		case (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069):
			return Errorf(CodeInvalid, "%s contains bidirectional control U+%04X at offset %d", what, r, i)
		}
		i += size
	}
	return nil
}

// CheckID checks an identifier (guild, user, queue): 1 to 64 bytes under
// CheckText, so IDs stay short enough for log lines, keys and CSV cells.
func CheckID(what, id string) error {
	if id == "" {
		return Errorf(CodeInvalid, "%s must not be empty", what)
	}
	if len(id) > 64 {
		return Errorf(CodeInvalid, "%s is %d bytes long; at most 64 are allowed", what, len(id))
	}
	return CheckText(what, id)
}
