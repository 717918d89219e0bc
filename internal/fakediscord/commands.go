package fakediscord

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
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
	// NameLocalizations and DescriptionLocalizations map Discord locales
	// ("de", "es-ES") to the name users type and the description they
	// read in that client language.
	NameLocalizations        map[string]string `json:"name_localizations,omitempty"`
	DescriptionLocalizations map[string]string `json:"description_localizations,omitempty"`
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

	NameLocalizations        map[string]string `json:"name_localizations,omitempty"`
	DescriptionLocalizations map[string]string `json:"description_localizations,omitempty"`
}

// ChoiceDef is one fixed choice of an option.
type ChoiceDef struct {
	Name              string            `json:"name"`
	Value             any               `json:"value"`
	NameLocalizations map[string]string `json:"name_localizations,omitempty"`
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
		if !localizedName.MatchString(d.Name) || strings.ToLower(d.Name) != d.Name {
			return fmt.Errorf("command name %q: 1-32 lowercase letters, digits, - or _", d.Name)
		}
		if seen[d.Name] {
			return fmt.Errorf("command name %q registered twice", d.Name)
		}
		seen[d.Name] = true
		if n := utf8.RuneCountInString(d.Description); n == 0 || n > 100 {
			return fmt.Errorf("command %q: description must be 1-100 characters", d.Name)
		}
		if err := validateLocalized(d.Name, d.NameLocalizations, d.DescriptionLocalizations); err != nil {
			return err
		}
		if err := validateOptions(d.Name, d.Options, 0); err != nil {
			return err
		}
		if n := CommandChars(d); n > MaxCommandChars {
			return fmt.Errorf("command %q: %d characters of names, descriptions and choices, more than %d", d.Name, n, MaxCommandChars)
		}
	}
	return uniqueLocalizedNames("commands", commandNames(defs))
}

// discordLocales are the locales Discord accepts in localization maps.
var discordLocales = map[string]bool{
	"id": true, "da": true, "de": true, "en-GB": true, "en-US": true, "es-ES": true, "es-419": true, "fr": true,
	"hr": true, "it": true, "lt": true, "hu": true, "nl": true, "no": true, "pl": true, "pt-BR": true, "ro": true,
	"fi": true, "sv-SE": true, "vi": true, "tr": true, "cs": true, "el": true, "bg": true, "ru": true, "uk": true,
	"hi": true, "th": true, "zh-CN": true, "ja": true, "zh-TW": true, "ko": true,
}

// localizedName is Discord's rule for command and option names in any
// language: 1-32 letters, digits, - or _ (Devanagari and Thai marks
// included), and lowercase wherever a letter has a lowercase form.
var localizedName = regexp.MustCompile(`^[-_'\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// validateLocalized checks a command's or option's localizations:
// known locales, names by the name rule, descriptions of 1-100 characters.
func validateLocalized(path string, names, descs map[string]string) error {
	for loc, n := range names {
		if !discordLocales[loc] {
			return fmt.Errorf("%s: name_localizations: invalid locale %q", path, loc)
		}
		if !localizedName.MatchString(n) || strings.ToLower(n) != n {
			return fmt.Errorf("%s: name_localizations[%s] %q: 1-32 lowercase letters, digits, - or _", path, loc, n)
		}
	}
	for loc, d := range descs {
		if !discordLocales[loc] {
			return fmt.Errorf("%s: description_localizations: invalid locale %q", path, loc)
		}
		if n := utf8.RuneCountInString(d); n == 0 || n > 100 {
			return fmt.Errorf("%s: description_localizations[%s]: must be 1-100 characters, got %d", path, loc, n)
		}
	}
	return nil
}

type localizedNames struct {
	name string
	loc  map[string]string
}

func commandNames(defs []CommandDef) []localizedNames {
	out := make([]localizedNames, len(defs))
	for i, d := range defs {
		out[i] = localizedNames{d.Name, d.NameLocalizations}
	}
	return out
}

// uniqueLocalizedNames refuses two siblings that a client of some locale
// would show under the same name.
func uniqueLocalizedNames(path string, sibs []localizedNames) error {
	for loc := range discordLocales {
		seen := map[string]string{}
		for _, s := range sibs {
			n := s.name
			if l, ok := s.loc[loc]; ok {
				n = l
			}
			if other, dup := seen[n]; dup {
				return fmt.Errorf("%s: %q and %q are both called %q in %s", path, other, s.name, n, loc)
			}
			seen[n] = s.name
		}
	}
	return nil
}

// MaxCommandChars is Discord's limit on the combined characters of a
// command's name, description, and the names, descriptions and choice
// names and values of all its options, subcommands and groups. Where a
// field has localizations, Discord counts its longest spelling (the
// default one included), so a German description longer than the English
// one is what counts.
const MaxCommandChars = 8000

// CommandChars counts what MaxCommandChars limits, in code points.
func CommandChars(d CommandDef) int {
	return longest(d.Name, d.NameLocalizations) + longest(d.Description, d.DescriptionLocalizations) + optionChars(d.Options)
}

func optionChars(opts []OptionDef) int {
	n := 0
	for _, o := range opts {
		n += longest(o.Name, o.NameLocalizations) + longest(o.Description, o.DescriptionLocalizations) + optionChars(o.Options)
		for _, c := range o.Choices {
			n += longest(c.Name, c.NameLocalizations) + utf8.RuneCountInString(fmt.Sprint(c.Value))
		}
	}
	return n
}

// longest is the length in code points of the longest of a field's
// default spelling and its localizations.
func longest(def string, loc map[string]string) int {
	n := utf8.RuneCountInString(def)
	for _, l := range loc {
		n = max(n, utf8.RuneCountInString(l))
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
		if !localizedName.MatchString(o.Name) || strings.ToLower(o.Name) != o.Name || seen[o.Name] {
			return fmt.Errorf("%s: bad or duplicate option name", p)
		}
		seen[o.Name] = true
		if n := utf8.RuneCountInString(o.Description); n == 0 || n > 100 {
			return fmt.Errorf("%s: description must be 1-100 characters", p)
		}
		if len(o.Choices) > 25 {
			return fmt.Errorf("%s: more than 25 choices", p)
		}
		for i, c := range o.Choices {
			if err := checkChoice(fmt.Sprintf("%s choices.%d", p, i), c.Name, c.Value); err != nil {
				return err
			}
		}
		if err := validateLocalized(p, o.NameLocalizations, o.DescriptionLocalizations); err != nil {
			return err
		}
		for _, c := range o.Choices {
			for loc, n := range c.NameLocalizations {
				if !discordLocales[loc] {
					return fmt.Errorf("%s choice %q: name_localizations: invalid locale %q", p, c.Name, loc)
				}
				if k := utf8.RuneCountInString(n); k == 0 || k > 100 {
					return fmt.Errorf("%s choice %q: name_localizations[%s]: must be 1-100 characters", p, c.Name, loc)
				}
			}
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
	sibs := make([]localizedNames, len(opts))
	for i, o := range opts {
		sibs[i] = localizedNames{o.Name, o.NameLocalizations}
	}
	return uniqueLocalizedNames(path, sibs)
}

// serveCommands answers GET of the registered commands as Discord does:
// each in its canonical language, with every localization when asked
// with_localizations=true, else name_localized and description_localized
// in the language of the request's X-Discord-Locale.
func (s *Server) serveCommands(w http.ResponseWriter, r *http.Request) {
	if r.PathValue("app") != s.AppID {
		httpError(w, 404, "unknown application "+r.PathValue("app"))
		return
	}
	s.mu.Lock()
	defs := append([]CommandDef(nil), s.commands[r.PathValue("guild")]...)
	s.mu.Unlock()
	all := r.URL.Query().Get("with_localizations") == "true"
	locale := r.Header.Get("X-Discord-Locale")
	out := make([]map[string]any, 0, len(defs))
	for _, d := range defs {
		b, _ := json.Marshal(d)
		var m map[string]any
		json.Unmarshal(b, &m)
		if !all {
			delete(m, "name_localizations")
			delete(m, "description_localizations")
			if n, ok := d.NameLocalizations[locale]; ok {
				m["name_localized"] = n
			}
			if n, ok := d.DescriptionLocalizations[locale]; ok {
				m["description_localized"] = n
			}
		}
		out = append(out, m)
	}
	writeJSON(w, 200, out)
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
