package commands

import (
	"strconv"
	"strings"

	"github.com/ladderbot/ladderbot/ladder"
)

// MaxInteger is the largest integer Discord carries in an integer option
// (2^53 - 1; a larger value loses precision as a JSON number). Options
// with no smaller real bound, such as a match ID, are bounded by it.
const MaxInteger = 1<<53 - 1

// leafOptions returns the options of the subcommand at path ("config
// queue set") of the set's commands, false for an unknown path.
func (s *Set) leafOptions(path string) ([]Option, bool) {
	words := strings.Fields(path)
	if len(words) == 0 {
		return nil, false
	}
	c, ok := s.Command(words[0])
	if !ok {
		return nil, false
	}
	opts := c.Options
	for _, w := range words[1:] {
		i := -1
		for j, o := range opts {
			if o.Name == w && (o.Type == OptSubcommand || o.Type == OptSubcommandGroup) {
				i = j
			}
		}
		if i < 0 {
			return nil, false
		}
		opts = opts[i].Options
	}
	return opts, true
}

// checkBounds refuses an integer or number option outside the bounds its
// definition carries: the same Min and Max Discord's client is given, so
// what the client lets through and what the bot accepts are one rule, and
// a modified client's value out of range gets a clear message.
func (s *Set) checkBounds(req Request) error {
	if req.Kind != KindCommand || req.Command == "" {
		return nil
	}
	opts, ok := s.leafOptions(req.Command)
	if !ok {
		return nil
	}
	for _, o := range opts {
		if (o.Type != OptInteger && o.Type != OptNumber) || !req.Has(o.Name) {
			continue
		}
		v, ok := req.Float(o.Name)
		shown := num(v)
		if o.Type == OptInteger {
			var n int64
			n, ok = req.Int(o.Name)
			v, shown = float64(n), strconv.FormatInt(n, 10)
		}
		if !ok {
			continue // not a number: the handler says so
		}
		if o.Min != nil && v < *o.Min || o.Max != nil && v > *o.Max {
			return ladder.Errorf(ladder.CodeInvalid, "%s must be from %s to %s, not %s", o.Name, bound(o.Min, "-∞"), bound(o.Max, "∞"), shown)
		}
	}
	return nil
}

func bound(b *float64, none string) string {
	if b == nil {
		return none
	}
	return num(*b)
}

func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
