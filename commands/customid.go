package commands

import (
	"strconv"
	"strings"

	"github.com/ladderbot/ladderbot/ladder"
)

// CustomID is what a button or modal carries so it keeps working after a
// restart: an action, the match (or other numeric subject) it acts on, and a
// few short arguments. Encoded as "action:id[:arg…]" within Discord's 100
// characters. Anyone can forge a custom ID, so handlers authorize again.
type CustomID struct {
	Action string
	ID     int64
	Args   []string
}

// maxCustomID is Discord's limit on custom_id.
const maxCustomID = 100

// String encodes the custom ID.
func (c CustomID) String() string {
	var b strings.Builder
	b.WriteString(c.Action)
	b.WriteByte(':')
	b.WriteString(strconv.FormatInt(c.ID, 10))
	for _, a := range c.Args {
		b.WriteByte(':')
		b.WriteString(a)
	}
	return b.String()
}

// ID returns an encoded custom ID; it panics on an action or argument that
// would not parse back, which is a programming error.
func ID(action string, id int64, args ...string) string {
	c := CustomID{Action: action, ID: id, Args: args}
	s := c.String()
	if _, err := ParseCustomID(s); err != nil {
		panic(err)
	}
	return s
}

// ParseCustomID decodes and validates a custom ID. A garbled or forged one
// is a CodeInvalid error, never a panic.
func ParseCustomID(s string) (CustomID, error) {
	bad := func(why string) (CustomID, error) {
		return CustomID{}, ladder.Errorf(ladder.CodeInvalid, "this button is not valid (%s); run the command again", why)
	}
	if s == "" || len(s) > maxCustomID {
		return bad("bad length")
	}
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 6 {
		return bad("bad shape")
	}
	if !namePattern.MatchString(parts[0]) {
		return bad("bad action")
	}
	id, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil || id < 0 || strconv.FormatInt(id, 10) != parts[1] {
		// Only the canonical form (no sign, no leading zeros), so one
		// button has exactly one custom ID.
		return bad("bad id")
	}
	for _, a := range parts[2:] {
		if a == "" || len(a) > 40 || strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") != "" {
			return bad("bad argument")
		}
	}
	return CustomID{Action: parts[0], ID: id, Args: parts[2:]}, nil
}

// Arg returns argument i, or "" when there are fewer.
func (c CustomID) Arg(i int) string {
	if i < len(c.Args) {
		return c.Args[i]
	}
	return ""
}
