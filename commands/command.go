package commands

import (
	"context"
	"fmt"
	"regexp"
)

// Handler answers one interaction. It returns what to show and never calls
// Discord; errors are coded ladder errors the bot turns into user text.
type Handler func(ctx context.Context, req Request) (Reply, error)

// Access says who may run a command or press a component.
type Access int

// Access levels (docs/spec.md 6). Moderators are members with Manage Guild or the
// guild's configured moderator role; admins need Manage Guild.
const (
	Everyone Access = iota
	Moderators
	Admins
)

// Discord permission bits the permission check reads.
const (
	PermAdministrator int64 = 1 << 3
	PermManageGuild   int64 = 1 << 5
)

// OptionType is a Discord application command option type.
type OptionType int

// Option types, numbered as Discord numbers them.
const (
	OptSubcommand      OptionType = 1
	OptSubcommandGroup OptionType = 2
	OptString          OptionType = 3
	OptInteger         OptionType = 4
	OptBool            OptionType = 5
	OptUser            OptionType = 6
	OptChannel         OptionType = 7
	OptRole            OptionType = 8
	OptNumber          OptionType = 10
)

// Option is one option (or subcommand) of a slash command.
type Option struct {
	Type         OptionType
	Name         string
	Description  string
	Required     bool
	Autocomplete bool
	Choices      []Choice
	// Min and Max bound integer and number options when non-nil.
	Min, Max *float64
	// MaxLength bounds string options when positive.
	MaxLength int
	// Options are a subcommand's options or a group's subcommands.
	Options []Option
}

// Choice is a fixed choice of an option, or an autocomplete suggestion.
// Value is a string, int64 or float64 matching the option's type.
type Choice struct {
	Name  string
	Value any
}

// Command is one slash command: its definition for registration and its
// place in the dispatch chain.
type Command struct {
	Name        string
	Description string
	Options     []Option
	// Access is checked by the dispatch chain before Handle runs, whatever
	// default_member_permissions a guild admin set.
	Access Access
	// Instant commands touch no storage and answer directly; all others are
	// deferred first so the 3-second acknowledgement never waits on the database.
	Instant bool
	// Ephemeral defers privately: the answer is visible to the invoker only.
	Ephemeral bool
	Handle    Handler
	// Autocomplete answers autocomplete interactions; Reply.Choices holds
	// the suggestions. Nil when no option autocompletes.
	Autocomplete Handler
}

// Component handles buttons and modal submissions whose custom ID has the
// component's action (see CustomID).
type Component struct {
	Action string
	Access Access
	// Instant components answer without storage, such as a button that
	// opens a modal (a modal cannot follow a deferral).
	Instant bool
	Handle  Handler
}

var namePattern = regexp.MustCompile(`^[a-z0-9_-]{1,32}$`)

// validate checks what Discord would refuse at registration, so a mistake
// fails at start-up rather than at the first sync.
func (c Command) validate() error {
	if !namePattern.MatchString(c.Name) {
		return fmt.Errorf("commands: command name %q must be 1-32 lowercase letters, digits, - or _", c.Name)
	}
	if c.Description == "" || len(c.Description) > 100 {
		return fmt.Errorf("commands: /%s: description must be 1-100 characters", c.Name)
	}
	if c.Handle == nil {
		return fmt.Errorf("commands: /%s has no handler", c.Name)
	}
	return validateOptions("/"+c.Name, c.Options)
}

func validateOptions(path string, opts []Option) error {
	seen := map[string]bool{}
	optional := false
	for _, o := range opts {
		p := path + " " + o.Name
		if !namePattern.MatchString(o.Name) || seen[o.Name] {
			return fmt.Errorf("commands: %s: bad or duplicate option name", p)
		}
		seen[o.Name] = true
		if o.Description == "" || len(o.Description) > 100 {
			return fmt.Errorf("commands: %s: description must be 1-100 characters", p)
		}
		if o.Type == OptSubcommand || o.Type == OptSubcommandGroup {
			if err := validateOptions(p, o.Options); err != nil {
				return err
			}
			continue
		}
		if o.Required && optional {
			return fmt.Errorf("commands: %s: required option after an optional one", p)
		}
		optional = optional || !o.Required
	}
	if len(opts) > 25 {
		return fmt.Errorf("commands: %s: more than 25 options", path)
	}
	return nil
}
