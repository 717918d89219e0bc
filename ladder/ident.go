package ladder

import (
	"strings"
	"time"
	"unicode/utf8"
)

// CheckText is the one rule every identifier and name from outside passes
// (guild, user and queue IDs, player and token names): valid
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

// CheckLines is CheckText for text a person writes on several lines (a
// reason, a modal's paragraph field): line breaks and tabs are allowed,
// every other character CheckText refuses is refused.
func CheckLines(what, s string) error {
	return CheckText(what, strings.NewReplacer("\n", " ", "\r", " ", "\t", " ").Replace(s))
}

// MaxReason is the longest reason a moderator action keeps in the audit
// log, as the commands' reason option allows.
const MaxReason = 1000

// CheckReason is the one rule for a moderator's reason, whichever surface
// it comes from: trimmed, at most MaxReason bytes, and CheckText's rule
// except that line breaks and tabs are allowed. It returns the trimmed
// reason.
func CheckReason(reason string) (string, error) {
	reason = strings.TrimSpace(reason)
	if len(reason) > MaxReason {
		return "", Errorf(CodeInvalid, "reason must be at most %d characters", MaxReason)
	}
	if err := CheckLines("reason", reason); err != nil {
		return "", err
	}
	return reason, nil
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

// EarliestPlayedAt is the earliest time a match may have been played:
// 1970-01-01 UTC. Nothing rated here predates it, and it keeps the zero
// time (year 1) and typos such as year 0000 or 1900 out of the log, where
// they would sort before every real match and skew inactivity growth.
var EarliestPlayedAt = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)

// maxClockSkew is how far in the future a played time may be: a game
// server's clock a little ahead of ours is not an error.
const maxClockSkew = time.Minute

// CheckPlayedAt is the one rule for when a match was played, for the API
// and for imports alike: from EarliestPlayedAt to a minute after
// now. Callers apply it to the time as given, before "zero means now", so
// 0001-01-01T00:00:00Z is refused rather than silently recorded as now.
func CheckPlayedAt(t, now time.Time) error {
	if t.Before(EarliestPlayedAt) {
		return Errorf(CodeInvalid, "played_at %s is before %s", t.UTC().Format(time.RFC3339), EarliestPlayedAt.Format(time.DateOnly))
	}
	if t.After(now.Add(maxClockSkew)) {
		return Errorf(CodeInvalid, "played_at %s is in the future", t.UTC().Format(time.RFC3339))
	}
	return nil
}
