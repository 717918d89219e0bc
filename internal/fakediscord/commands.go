package fakediscord

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"
)

// This file holds application command registration (bulk overwrite) with
// the checks Discord applies to definitions.

// CommandDef is an application command as registered.
type CommandDef struct {
	ID                       string      `json:"id,omitempty"`
	ApplicationID            string      `json:"application_id,omitempty"`
	GuildID                  string      `json:"guild_id,omitempty"`
	Type                     int         `json:"type,omitempty"`
	Name                     string      `json:"name"`
	Description              string      `json:"description"`
	DefaultMemberPermissions *string     `json:"default_member_permissions,omitempty"`
	Options                  []OptionDef `json:"options"`
}

// OptionDef is an option (or subcommand) of a registered command.
type OptionDef struct {
	Type         int         `json:"type"`
	Name         string      `json:"name"`
	Description  string      `json:"description"`
	Required     bool        `json:"required,omitempty"`
	Autocomplete bool        `json:"autocomplete,omitempty"`
	Choices      []ChoiceDef `json:"choices,omitempty"`
	Options      []OptionDef `json:"options,omitempty"`
	MinValue     *float64    `json:"min_value,omitempty"`
	MaxValue     *float64    `json:"max_value,omitempty"`
	MinLength    *int        `json:"min_length,omitempty"`
	MaxLength    int         `json:"max_length,omitempty"`
}

// ChoiceDef is one fixed choice of an option.
type ChoiceDef struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
}

func (s *Server) serveOverwrite(w http.ResponseWriter, r *http.Request) {
	if r.PathValue("app") != s.AppID {
		httpError(w, 404, "unknown application "+r.PathValue("app"))
		return
	}
	var defs []CommandDef
	if _, err := readBody(r, &defs); err != nil {
		httpError(w, 400, "bad commands body: "+err.Error())
		return
	}
	if err := validateCommands(defs); err != nil {
		httpError(w, 400, err.Error())
		return
	}
	guild := r.PathValue("guild")
	s.mu.Lock()
	for i := range defs {
		defs[i].ID = s.newID()
		defs[i].ApplicationID = s.AppID
		defs[i].GuildID = guild
		if defs[i].Type == 0 {
			defs[i].Type = 1
		}
	}
	s.commands[guild] = defs
	s.overwrites = append(s.overwrites, Overwrite{GuildID: guild, Commands: defs})
	s.notify()
	s.mu.Unlock()
	writeJSON(w, 200, defs)
}

// validateCommands applies the rules Discord enforces on registration that
// a bot most easily gets wrong.
func validateCommands(defs []CommandDef) error {
	seen := map[string]bool{}
	for _, d := range defs {
		if d.Name == "" || len(d.Name) > 32 || strings.ToLower(d.Name) != d.Name {
			return fmt.Errorf("command name %q: 1-32 lowercase characters", d.Name)
		}
		if seen[d.Name] {
			return fmt.Errorf("command name %q registered twice", d.Name)
		}
		seen[d.Name] = true
		if d.Description == "" || len(d.Description) > 100 {
			return fmt.Errorf("command %q: description must be 1-100 characters", d.Name)
		}
		if err := validateOptions(d.Name, d.Options, 0); err != nil {
			return err
		}
		if n := commandChars(d); n > MaxCommandChars {
			return fmt.Errorf("command %q: %d characters of names, descriptions and choices, more than %d", d.Name, n, MaxCommandChars)
		}
	}
	return nil
}

// MaxCommandChars is Discord's limit on the combined characters of a
// command's name, description, and the names, descriptions and choice
// names and values of all its options, subcommands and groups.
const MaxCommandChars = 8000

// commandChars counts what MaxCommandChars limits, in code points.
func commandChars(d CommandDef) int {
	return utf8.RuneCountInString(d.Name) + utf8.RuneCountInString(d.Description) + optionChars(d.Options)
}

func optionChars(opts []OptionDef) int {
	n := 0
	for _, o := range opts {
		n += utf8.RuneCountInString(o.Name) + utf8.RuneCountInString(o.Description) + optionChars(o.Options)
		for _, c := range o.Choices {
			n += utf8.RuneCountInString(c.Name) + utf8.RuneCountInString(fmt.Sprint(c.Value))
		}
	}
	return n
}

func validateOptions(path string, opts []OptionDef, depth int) error {
	if len(opts) > 25 {
		return fmt.Errorf("%s: more than 25 options", path)
	}
	seen := map[string]bool{}
	optional := false
	for _, o := range opts {
		p := path + " " + o.Name
		if o.Name == "" || len(o.Name) > 32 || strings.ToLower(o.Name) != o.Name || seen[o.Name] {
			return fmt.Errorf("%s: bad or duplicate option name", p)
		}
		seen[o.Name] = true
		if o.Description == "" || len(o.Description) > 100 {
			return fmt.Errorf("%s: description must be 1-100 characters", p)
		}
		if len(o.Choices) > 25 {
			return fmt.Errorf("%s: more than 25 choices", p)
		}
		if o.Autocomplete && len(o.Choices) > 0 {
			return fmt.Errorf("%s: autocomplete and choices together", p)
		}
		switch o.Type {
		case 1, 2:
			if depth >= 2 || (o.Type == 2 && depth >= 1) {
				return fmt.Errorf("%s: subcommands nested too deep", p)
			}
			if err := validateOptions(p, o.Options, depth+1); err != nil {
				return err
			}
		default:
			if o.Required && optional {
				return fmt.Errorf("%s: required option after an optional one", p)
			}
			optional = optional || !o.Required
		}
	}
	return nil
}

// Commands returns the commands registered for guild ("" for global).
func (s *Server) Commands(guild string) []CommandDef {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]CommandDef(nil), s.commands[guild]...)
}

// Overwrites returns every bulk overwrite so far.
func (s *Server) Overwrites() []Overwrite {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Overwrite(nil), s.overwrites...)
}

// WaitCommands waits until commands are registered for guild ("" for
// global): the readiness of an application without a gateway session.
func (s *Server) WaitCommands(ctx context.Context, guild string) error {
	return s.Wait(ctx, "commands registered for "+guild, func() bool { return len(s.commands[guild]) > 0 })
}
