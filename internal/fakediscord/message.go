package fakediscord

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Message is a message as the fake stores it: posted to a channel, sent as an
// interaction response or a followup, and edited in place.
type Message struct {
	ID        string
	ChannelID string
	Content   string
	Embeds    []Embed
	Rows      []Row
	Files     []File
	Flags     int
	// Mentions is the allowed_mentions.users list the sender set; nil when it
	// sent no allowed_mentions.
	Mentions []string
	// Deferred is true while the message is a "thinking…" placeholder.
	Deferred bool
	// Deleted is true once the message was deleted.
	Deleted bool
	// Edits counts the edits after creation.
	Edits int
	// InteractionID is the interaction this message answers, if any.
	InteractionID string
	rawComponents json.RawMessage
	rawEmbeds     json.RawMessage
}

// Ephemeral reports whether only the invoking user sees the message.
func (m Message) Ephemeral() bool { return m.Flags&flagEphemeral != 0 }

// Buttons returns every button of the message, row by row.
func (m Message) Buttons() []Button {
	var out []Button
	for _, r := range m.Rows {
		out = append(out, r.Components...)
	}
	return out
}

// Button returns the button with that custom ID.
func (m Message) Button(customID string) (Button, bool) {
	for _, b := range m.Buttons() {
		if b.CustomID == customID {
			return b, true
		}
	}
	return Button{}, false
}

// ButtonByLabel returns the first button whose label is label.
func (m Message) ButtonByLabel(label string) (Button, bool) {
	for _, b := range m.Buttons() {
		if b.Label == label {
			return b, true
		}
	}
	return Button{}, false
}

// Text returns the content, embed titles, descriptions, field names and
// values and footers joined by newlines: what a test searches for words.
func (m Message) Text() string {
	var b strings.Builder
	b.WriteString(m.Content)
	for _, e := range m.Embeds {
		for _, s := range []string{e.Title, e.Description} {
			if s != "" {
				b.WriteString("\n" + s)
			}
		}
		for _, f := range e.Fields {
			b.WriteString("\n" + f.Name + "\n" + f.Value)
		}
		if e.Footer.Text != "" {
			b.WriteString("\n" + e.Footer.Text)
		}
	}
	return b.String()
}

const flagEphemeral = 1 << 6

// Embed is the part of a Discord embed the fake keeps.
type Embed struct {
	Title       string       `json:"title"`
	Description string       `json:"description"`
	Color       int          `json:"color"`
	Fields      []EmbedField `json:"fields"`
	Footer      struct {
		Text string `json:"text"`
	} `json:"footer"`
	Image struct {
		URL string `json:"url"`
	} `json:"image"`
	Author struct {
		Name string `json:"name"`
	} `json:"author"`
}

// Discord's limits on embeds, in characters: each part's own, and the sum
// of every title, description, field name and value, footer and author
// name over all of a message's embeds.
const (
	maxEmbedTitle       = 256
	maxEmbedDescription = 4096
	maxEmbedFields      = 25
	maxEmbedFieldName   = 256
	maxEmbedFieldValue  = 1024
	maxEmbedFooter      = 2048
	maxEmbedAuthor      = 256
	maxEmbedTotal       = 6000
	// maxButtonLabel is Discord's limit on a button's label.
	maxButtonLabel = 80
	// maxCustomID is Discord's limit on a component's or modal's
	// custom_id.
	maxCustomID = 100
	// maxAllowedUsers is Discord's limit on allowed_mentions.users.
	maxAllowedUsers = 100
)

// isSnowflake reports whether s is a Discord ID: an unsigned 64-bit
// decimal number.
func isSnowflake(s string) bool {
	_, err := strconv.ParseUint(s, 10, 64) // no sign, no empty string
	return err == nil
}

// checkEmbeds refuses embeds Discord refuses with 50035 Invalid Form Body:
// a part over its limit, more than 25 fields, a field with an empty name
// or value, or more than 6,000 characters in all.
func checkEmbeds(embeds []Embed) error {
	total := 0
	for i, e := range embeds {
		n := func(s string) int { k := utf8.RuneCountInString(s); total += k; return k }
		if k := n(e.Title); k > maxEmbedTitle {
			return fmt.Errorf("embeds.%d.title: must be %d or fewer in length (%d)", i, maxEmbedTitle, k)
		}
		if k := n(e.Description); k > maxEmbedDescription {
			return fmt.Errorf("embeds.%d.description: must be %d or fewer in length (%d)", i, maxEmbedDescription, k)
		}
		if len(e.Fields) > maxEmbedFields {
			return fmt.Errorf("embeds.%d.fields: must be %d or fewer in length (%d)", i, maxEmbedFields, len(e.Fields))
		}
		for j, f := range e.Fields {
			if k := n(f.Name); k == 0 || k > maxEmbedFieldName {
				return fmt.Errorf("embeds.%d.fields.%d.name: must be between 1 and %d in length (%d)", i, j, maxEmbedFieldName, k)
			}
			if k := n(f.Value); k == 0 || k > maxEmbedFieldValue {
				return fmt.Errorf("embeds.%d.fields.%d.value: must be between 1 and %d in length (%d)", i, j, maxEmbedFieldValue, k)
			}
		}
		if k := n(e.Footer.Text); k > maxEmbedFooter {
			return fmt.Errorf("embeds.%d.footer.text: must be %d or fewer in length (%d)", i, maxEmbedFooter, k)
		}
		if k := n(e.Author.Name); k > maxEmbedAuthor {
			return fmt.Errorf("embeds.%d.author.name: must be %d or fewer in length (%d)", i, maxEmbedAuthor, k)
		}
	}
	if total > maxEmbedTotal {
		return fmt.Errorf("embeds: %d characters in all, more than %d", total, maxEmbedTotal)
	}
	return nil
}

// EmbedField is one name/value field of an embed.
type EmbedField struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Inline bool   `json:"inline"`
}

// Row is an action row of components.
type Row struct {
	Type       int      `json:"type"`
	Components []Button `json:"components"`
}

// Button is a message component; the fake understands buttons (type 2),
// string select menus (type 3) and text inputs (type 4, inside modals).
type Button struct {
	Type     int    `json:"type"`
	CustomID string `json:"custom_id"`
	Label    string `json:"label"`
	Style    int    `json:"style"`
	URL      string `json:"url"`
	Disabled bool   `json:"disabled"`
	Required *bool  `json:"required"`
	Value    string `json:"value"`
	// Placeholder, Options, MinValues and MaxValues belong to select menus.
	Placeholder string         `json:"placeholder"`
	Options     []SelectOption `json:"options"`
	MinValues   *int           `json:"min_values"`
	MaxValues   *int           `json:"max_values"`
	// ChannelTypes restricts a channel select menu (select.go).
	ChannelTypes []int `json:"channel_types"`
	// MinLength and MaxLength bound a modal's text input.
	MinLength *int `json:"min_length"`
	MaxLength *int `json:"max_length"`
}

// SelectOption is one choice of a select menu.
type SelectOption struct {
	Label       string `json:"label"`
	Value       string `json:"value"`
	Description string `json:"description"`
	// Default shows the option selected when the menu appears.
	Default bool `json:"default"`
}

// componentSelect is Discord's type number of a string select menu.
const componentSelect = 3

// checkSelect applies Discord's rules for a string select menu: alone in
// its row, a custom ID, 1 to 25 options with labels and values of 1 to
// 100 characters, values unique, min ≤ max ≤ the number of options.
func checkSelect(row Row, b Button) error {
	switch {
	case len(row.Components) != 1:
		return fmt.Errorf("components: a select menu must be alone in its row, not with %d others", len(row.Components)-1)
	case b.CustomID == "":
		return fmt.Errorf("components: select menu without custom_id")
	case len(b.Options) == 0 || len(b.Options) > 25:
		return fmt.Errorf("components: select menu %q with %d options, want 1 to 25", b.CustomID, len(b.Options))
	case len([]rune(b.Placeholder)) > 150:
		return fmt.Errorf("components: select menu placeholder longer than 150 characters")
	}
	seen := map[string]bool{}
	for _, o := range b.Options {
		if n, v := len([]rune(o.Label)), len([]rune(o.Value)); n == 0 || n > 100 || v == 0 || v > 100 || len([]rune(o.Description)) > 100 {
			return fmt.Errorf("components: select option %q/%q outside 1 to 100 characters", o.Label, o.Value)
		}
		if seen[o.Value] {
			return fmt.Errorf("components: select option value %q twice", o.Value)
		}
		seen[o.Value] = true
	}
	lo, hi := selectBounds(b)
	if lo < 0 || hi < lo || hi > len(b.Options) {
		return fmt.Errorf("components: select menu %q min_values %d, max_values %d with %d options", b.CustomID, lo, hi, len(b.Options))
	}
	return nil
}

// selectBounds are a menu's min and max values, Discord's defaults 1 and 1.
func selectBounds(b Button) (lo, hi int) {
	lo, hi = 1, 1
	if b.MinValues != nil {
		lo = *b.MinValues
	}
	if b.MaxValues != nil {
		hi = *b.MaxValues
	}
	return lo, hi
}

// File is an attachment uploaded with a message.
type File struct {
	Name        string
	ContentType string
	Data        []byte
}

// messagePayload is the JSON body of every message-carrying request: channel
// messages, interaction callback data, webhook executes and edits.
type messagePayload struct {
	Content         *string         `json:"content"`
	Embeds          json.RawMessage `json:"embeds"`
	Components      json.RawMessage `json:"components"`
	Flags           int             `json:"flags"`
	AllowedMentions *struct {
		Users []string `json:"users"`
		Parse []string `json:"parse"`
	} `json:"allowed_mentions"`
	Attachments json.RawMessage `json:"attachments"`
	// Modal and autocomplete fields of callback data.
	CustomID string `json:"custom_id"`
	Title    string `json:"title"`
	Choices  []struct {
		Name  string `json:"name"`
		Value any    `json:"value"`
	} `json:"choices"`
}

// readBody decodes a JSON or multipart/form-data body (payload_json plus
// files[n]) into v and returns the uploaded files.
func readBody(r *http.Request, v any) ([]File, error) {
	mediaType, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || !strings.HasPrefix(mediaType, "multipart/") {
		data, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, err
		}
		if len(data) == 0 {
			return nil, nil
		}
		return nil, json.Unmarshal(data, v)
	}
	mr := multipart.NewReader(r.Body, params["boundary"])
	var files []File
	sawPayload := false
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(part)
		if err != nil {
			return nil, err
		}
		switch name := part.FormName(); {
		case name == "payload_json":
			sawPayload = true
			if err := json.Unmarshal(data, v); err != nil {
				return nil, fmt.Errorf("payload_json: %w", err)
			}
		case strings.HasPrefix(name, "files["):
			files = append(files, File{Name: part.FileName(), ContentType: part.Header.Get("Content-Type"), Data: data})
		default:
			return nil, fmt.Errorf("unexpected multipart field %q", name)
		}
	}
	if !sawPayload {
		return nil, fmt.Errorf("multipart body without payload_json")
	}
	return files, nil
}

// apply writes a payload onto a message: a full replacement for creation,
// a partial one for edits (absent fields stay).
func (m *Message) apply(p messagePayload, files []File, edit bool) error {
	if p.Content != nil {
		m.Content = *p.Content
	}
	if len(p.Embeds) > 0 && string(p.Embeds) != "null" {
		var embeds []Embed
		if err := json.Unmarshal(p.Embeds, &embeds); err != nil {
			return fmt.Errorf("embeds: %w", err)
		}
		m.Embeds, m.rawEmbeds = embeds, p.Embeds
	} else if !edit {
		m.Embeds, m.rawEmbeds = nil, nil
	}
	if len(p.Components) > 0 && string(p.Components) != "null" {
		var rows []Row
		if err := json.Unmarshal(p.Components, &rows); err != nil {
			return fmt.Errorf("components: %w", err)
		}
		for _, r := range rows {
			if r.Type != 1 {
				return fmt.Errorf("components: top level component of type %d, want action rows (1)", r.Type)
			}
			if len(r.Components) > 5 {
				return fmt.Errorf("components: %d components in a row, at most 5", len(r.Components))
			}
			for _, b := range r.Components {
				if utf8.RuneCountInString(b.CustomID) > maxCustomID {
					return fmt.Errorf("components: custom_id longer than %d characters: %q", maxCustomID, b.CustomID)
				}
				if b.Type == 2 && b.CustomID == "" && b.URL == "" {
					return fmt.Errorf("components: button %q without custom_id or url", b.Label)
				}
				if n := utf8.RuneCountInString(b.Label); b.Type == 2 && n > maxButtonLabel {
					return fmt.Errorf("components: button label: must be %d or fewer in length (%d)", maxButtonLabel, n)
				}
				if b.Type == componentSelect {
					if err := checkSelect(r, b); err != nil {
						return err
					}
				}
				if entitySelect(b.Type) {
					if err := checkEntitySelect(r, b); err != nil {
						return err
					}
				}
			}
		}
		if len(rows) > 5 {
			return fmt.Errorf("components: %d action rows, at most 5", len(rows))
		}
		m.Rows, m.rawComponents = rows, p.Components
	} else if !edit {
		m.Rows, m.rawComponents = nil, nil
	}
	if len(files) > 0 || !edit {
		m.Files = files
	}
	if p.AllowedMentions != nil {
		// Discord refuses (50035) a users list of more than 100 or
		// holding anything but a snowflake.
		if len(p.AllowedMentions.Users) > maxAllowedUsers {
			return fmt.Errorf("allowed_mentions.users: must be %d or fewer in length (%d)", maxAllowedUsers, len(p.AllowedMentions.Users))
		}
		for i, u := range p.AllowedMentions.Users {
			if !isSnowflake(u) {
				return fmt.Errorf("allowed_mentions.users.%d: value %q is not snowflake", i, u)
			}
		}
		m.Mentions = append([]string{}, p.AllowedMentions.Users...)
	}
	if !edit {
		m.Flags = p.Flags
	}
	// Discord counts every length in code points, not bytes: 2,000
	// accented letters are accepted.
	if n := utf8.RuneCountInString(m.Content); n > 2000 {
		return fmt.Errorf("content longer than 2000 characters (%d)", n)
	}
	if len(m.Embeds) > 10 {
		return fmt.Errorf("more than 10 embeds")
	}
	return checkEmbeds(m.Embeds)
}

// wire is the JSON of m as Discord returns it.
func (m *Message) wire() map[string]any {
	out := map[string]any{
		"id":         m.ID,
		"channel_id": m.ChannelID,
		"content":    m.Content,
		"flags":      m.Flags,
		"type":       0,
	}
	if m.rawEmbeds != nil {
		out["embeds"] = m.rawEmbeds
	}
	if m.rawComponents != nil {
		out["components"] = m.rawComponents
	}
	var atts []map[string]any
	for i, f := range m.Files {
		atts = append(atts, map[string]any{
			"id": fmt.Sprint(i + 1), "filename": f.Name, "size": len(f.Data),
			"content_type": f.ContentType, "url": "https://cdn.invalid/" + m.ID + "/" + f.Name,
		})
	}
	if atts != nil {
		out["attachments"] = atts
	}
	return out
}
