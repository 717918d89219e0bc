package commands

import (
	"math"
	"sort"
	"strconv"

	"github.com/ladderbot/ladderbot/ladder"
)

// Kind is what sort of interaction a Request is.
type Kind int

// Interaction kinds.
const (
	KindCommand Kind = iota
	KindComponent
	KindModal
	KindAutocomplete
)

// Request is one interaction as a handler sees it, free of Discord types.
type Request struct {
	Kind          Kind
	InteractionID string
	GuildID       string
	ChannelID     string
	UserID        string
	// UserName is the member's display name, kept fresh in storage.
	UserName string
	// Names are the display names of the users a command's options name,
	// as Discord resolved them: what a title shows for a player the
	// ladder has no name for (a title or footer shows a mention as raw
	// text).
	Names map[string]string
	// Roles and Permissions are the invoking member's role IDs and
	// permission bits in the channel.
	Roles       []string
	Permissions int64
	// Moderator is set by the permission check: Manage Guild or the guild's
	// moderator role.
	Moderator bool
	// Command is the command path, e.g. "queue join"; for components and
	// modals it is "" and CustomID is set.
	Command string
	// Options are the leaf subcommand's options: string (also user, channel
	// and role IDs), int64, float64 or bool values.
	Options map[string]any
	// Focused is the option being autocompleted.
	Focused string
	// CustomID is the decoded custom ID of a component or modal.
	CustomID CustomID
	// MessageID is the message a component is on.
	MessageID string
	// Values are a modal's submitted fields by field ID.
	Values map[string]string
	// Selected are the option values chosen in a select menu.
	Selected []string
	// Locale is the user's client locale, e.g. "en-US".
	Locale string
	// GuildLocale is the guild's preferred locale, e.g. "de", when Discord
	// sends it (interactions in a guild).
	GuildLocale string
}

// CheckText applies ladder.CheckText, the one identifier rule, to every
// string a user or a modified client controls: the IDs of the interaction,
// string options (user, channel and role IDs are strings too), modal
// values and custom ID fields. Set.Authorize runs it first, so no handler
// sees a NUL, a control or bidi character or invalid UTF-8, except the
// line breaks and tabs of a modal's field (ladder.CheckLines).
func (r Request) CheckText() error {
	for _, f := range []struct{ what, v string }{
		{"guild ID", r.GuildID}, {"channel ID", r.ChannelID}, {"user ID", r.UserID}, {"display name", r.UserName},
		{"button action", r.CustomID.Action},
	} {
		if err := ladder.CheckText(f.what, f.v); err != nil {
			return err
		}
	}
	for id, n := range r.Names {
		if err := ladder.CheckText("resolved user", id+n); err != nil {
			return err
		}
	}
	for _, a := range r.CustomID.Args {
		if err := ladder.CheckText("button argument", a); err != nil {
			return err
		}
	}
	for _, v := range r.Selected {
		if err := ladder.CheckText("selected value", v); err != nil {
			return err
		}
	}
	// A modal's paragraph field (a dispute's reason) may hold the line
	// breaks its user types; its handler applies its own rule after this
	// (a reason's, a link's). A slash command's option is one line.
	for _, m := range []struct {
		values map[string]string
		check  func(what, s string) error
	}{{r.Values, ladder.CheckLines}, {stringOptions(r.Options), ladder.CheckText}} {
		keys := make([]string, 0, len(m.values))
		for k := range m.values {
			keys = append(keys, k)
		}
		sort.Strings(keys) // the same input always names the same option
		for _, k := range keys {
			if err := m.check("option "+k, m.values[k]); err != nil {
				return err
			}
		}
	}
	return nil
}

func stringOptions(opts map[string]any) map[string]string {
	out := make(map[string]string, len(opts))
	for k, v := range opts {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

// String returns a string option ("" and false when absent).
func (r Request) String(name string) (string, bool) {
	v, ok := r.Options[name].(string)
	return v, ok
}

// Int returns an integer option.
func (r Request) Int(name string) (int64, bool) {
	switch v := r.Options[name].(type) {
	case int64:
		return v, true
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
			return int64(v), true
		}
	case string:
		n, err := strconv.ParseInt(v, 10, 64)
		return n, err == nil
	}
	return 0, false
}

// Float returns a number option.
func (r Request) Float(name string) (float64, bool) {
	switch v := r.Options[name].(type) {
	case float64:
		return v, true
	case int64:
		return float64(v), true
	}
	return 0, false
}

// Bool returns a boolean option.
func (r Request) Bool(name string) (bool, bool) {
	v, ok := r.Options[name].(bool)
	return v, ok
}

// Has reports whether option name was given.
func (r Request) Has(name string) bool {
	_, ok := r.Options[name]
	return ok
}
