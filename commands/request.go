package commands

import (
	"math"
	"strconv"
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
	// Locale is the user's client locale, e.g. "en-US".
	Locale string
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
